import path from 'node:path';
import type { Diagnostics } from '../diagnostics/diagnostic.js';
import type { EmittedFile } from '../emit/file-set.js';
import { hashContent, LOCK_FILE, type LockFile } from './lock-file.js';
import { movedImports } from './moved-imports.js';
import { readIfExists, type ExistingProject } from './read-project.js';

export type FileChange = { kind: 'write'; path: string; content: string; reason: 'new' | 'changed' } | { kind: 'remove'; path: string };

export type ChangeSet = {
  changes: FileChange[];
  unchanged: string[];
  /** User-owned files left as the user has them. */
  kept: string[];
  /** Generated files edited by hand that would be overwritten or removed. */
  edited: string[];
};

/**
 * Compares the new files with the output folder. Generated files whose bytes differ from the hash the lock file
 * recorded were edited by hand; user-owned files are only ever created; generated files that no longer belong are
 * removed, unless edited.
 */
export function planChanges(
  outDir: string,
  files: EmittedFile[],
  existing: ExistingProject,
  force: boolean,
  diagnostics: Diagnostics,
): ChangeSet {
  const lock: LockFile | undefined = existing.kind === 'generated' ? existing.lock : undefined;
  const result: ChangeSet = { changes: [], unchanged: [], kept: [], edited: [] };
  const present = existing.kind === 'generated' || existing.kind === 'foreign';
  const generated = new Set(files.filter((file) => file.ownership === 'generated').map((file) => file.path));
  const contents = present ? files.map((file) => readIfExists(path.join(outDir, file.path))) : [];
  for (const [index, file] of files.entries()) {
    const current = contents[index];
    if (file.ownership === 'user') {
      if (current === undefined) result.changes.push({ kind: 'write', path: file.path, content: file.content, reason: 'new' });
      else {
        result.kept.push(file.path);
        for (const moved of movedImports(file.path, current.toString('utf8'), generated))
          diagnostics.warn('OTM_CUSTOM_IMPORT_MOVED', `${file.path} imports ${moved.specifier}, which is now ${moved.module}.`, {
            hint: `Change the import to '${moved.replacement}': your files are never rewritten, and the old module is removed.`,
          });
      }
      continue;
    }
    if (current !== undefined && current.equals(Buffer.from(file.content))) {
      result.unchanged.push(file.path);
      continue;
    }
    if (file.ownership === 'journal') {
      result.changes.push({ kind: 'write', path: file.path, content: file.content, reason: current === undefined ? 'new' : 'changed' });
      continue;
    }
    const recorded = lock?.files[file.path];
    const editedByHand =
      current !== undefined &&
      file.path !== LOCK_FILE &&
      (recorded === undefined ? existing.kind === 'foreign' : recorded !== hashContent(current));
    if (editedByHand) result.edited.push(file.path);
    result.changes.push({ kind: 'write', path: file.path, content: file.content, reason: current === undefined ? 'new' : 'changed' });
  }
  if (lock) {
    const wanted = new Set(files.map((file) => file.path));
    for (const [stale, hash] of Object.entries(lock.files).sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (wanted.has(stale)) continue;
      const current = readIfExists(path.join(outDir, stale));
      if (current === undefined) continue;
      if (hashContent(current) === hash || force) result.changes.push({ kind: 'remove', path: stale });
      else {
        diagnostics.warn('OTM_OUTPUT_EDITED', `${stale} is no longer generated but was edited by hand; it was left in place.`, {
          hint: 'Delete it yourself once its changes have moved to src/custom/.',
        });
      }
    }
  }
  if (result.edited.length > 0 && !force) {
    for (const file of result.edited) {
      diagnostics.error('OTM_OUTPUT_EDITED', `${file} was edited by hand since it was generated; regeneration would overwrite it.`, {
        hint: 'Move the change into src/custom/ (hooks or extra tools), or pass --force to overwrite.',
      });
    }
  }
  return result;
}
