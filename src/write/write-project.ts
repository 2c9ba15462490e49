import path from 'node:path';
import type { Diagnostics } from '../diagnostics/diagnostic.js';
import type { EmittedFile } from '../emit/file-set.js';
import { applyChanges, recoverInterrupted } from './apply-changes.js';
import type { Surface } from '../surface/surface.js';
import { CHANGELOG_FILE, updateChangelog } from './changelog.js';
import { hashContent, isSafeRelativePath, LOCK_FILE, lockFileText, type LockFile } from './lock-file.js';
import { planChanges, type ChangeSet } from './plan-changes.js';
import { readIfExists, type ExistingProject } from './read-project.js';

export type WriteOptions = {
  outDir: string;
  /** Report what would change; write nothing. */
  check?: boolean;
  /** Overwrite generated files edited by hand, and adopt a folder this generator did not write. */
  force?: boolean;
  generator: string;
  /** The prefix every tool name carries, recorded in the lock file. */
  prefix?: string;
  /** What is in the output folder now (read before planning, for the lock file's names). */
  existing: ExistingProject;
  surface: Surface;
  changelog: Parameters<typeof updateChangelog>[1];
};

export type WriteResult = ChangeSet & { outDir: string; wrote: boolean; recovered: boolean };

/**
 * Stage 5: writes the project, or with `check` only compares. Nothing is written when a problem is found: an
 * unknown folder, hand-edited generated files, or any error diagnostic from earlier stages.
 */
export async function writeProject(files: EmittedFile[], options: WriteOptions, diagnostics: Diagnostics): Promise<WriteResult> {
  const outDir = path.resolve(options.outDir);
  const recovered = options.check ? false : await recoverInterrupted(outDir).catch(() => false);
  if (recovered)
    diagnostics.warn(
      'OTM_WRITE_FAILED',
      `An earlier generation into ${options.outDir} was interrupted; its changes were rolled back first.`,
    );
  const { existing } = options;
  if (existing.kind === 'foreign' && !options.force) {
    diagnostics.error(
      'OTM_OUTPUT_NOT_GENERATED',
      `${options.outDir} already holds files this generator did not write (${existing.entries.join(', ')}…).`,
      {
        hint: 'Choose an empty or new folder with --out, or pass --force to generate into it anyway.',
      },
    );
    return { outDir, wrote: false, recovered, changes: [], unchanged: [], kept: [], edited: [] };
  }
  const previousChangelog = existing.kind === 'generated' ? readIfExists(path.join(outDir, CHANGELOG_FILE))?.toString('utf8') : undefined;
  const changelog: EmittedFile = {
    path: CHANGELOG_FILE,
    content: updateChangelog(previousChangelog, options.changelog),
    ownership: 'journal',
  };
  const withLock = [...files, changelog, lockFileEntry(files, options)];
  const changes = planChanges(outDir, withLock, existing, options.force ?? false, diagnostics);
  // Paths come from tool names and the lock file; none may reach outside the output folder, whatever produced it.
  for (const change of changes.changes) {
    if (isSafeRelativePath(change.path)) continue;
    diagnostics.error('OTM_WRITE_FAILED', `Refused to touch ${JSON.stringify(change.path)}: it is not inside ${options.outDir}.`, {
      hint: 'Nothing was written. Check the lock file in the output folder for paths that leave it.',
    });
  }
  if (options.check || diagnostics.hasErrors) return { ...changes, outDir, wrote: false, recovered };
  try {
    await applyChanges(outDir, changes.changes, existing.kind === 'missing');
  } catch (error) {
    diagnostics.error('OTM_WRITE_FAILED', `Writing ${options.outDir} failed: ${(error as Error).message}`, {
      hint: 'Nothing was changed; check permissions and free space.',
    });
    return { ...changes, outDir, wrote: false, recovered };
  }
  return { ...changes, outDir, wrote: changes.changes.length > 0, recovered };
}

/** The lock file records the hash of every generated file as written. */
function lockFileEntry(files: EmittedFile[], options: WriteOptions): EmittedFile {
  const lock: LockFile = {
    generator: options.generator,
    ...(options.prefix ? { prefix: options.prefix } : {}),
    surface: options.surface,
    files: Object.fromEntries(files.filter((file) => file.ownership === 'generated').map((file) => [file.path, hashContent(file.content)])),
  };
  return { path: LOCK_FILE, content: lockFileText(lock), ownership: 'generated' };
}
