import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileChange } from './plan-changes.js';

const STAGING = '.openapi-to-mcp-staging';
const BACKUP = '.openapi-to-mcp-backup';
const JOURNAL = '.openapi-to-mcp-journal.json';

type JournalEntry = { path: string; existed: boolean };

/**
 * Applies changes so that a failure (or an interrupted run) never leaves a half-written project: a new project is
 * written to a temporary sibling folder and renamed into place; an existing one gets its new files staged first,
 * then swapped in with the old ones moved to a backup, which is restored if anything fails.
 */
export async function applyChanges(outDir: string, changes: FileChange[], isNew: boolean): Promise<void> {
  if (changes.length === 0) return;
  if (isNew) return writeNewProject(outDir, changes);
  await recoverInterrupted(outDir);
  const staging = path.join(outDir, STAGING);
  const backup = path.join(outDir, BACKUP);
  await rm(staging, { recursive: true, force: true });
  await rm(backup, { recursive: true, force: true });
  try {
    writeFiles(staging, changes);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  // The journal records, before anything moves, which files existed: enough to undo a swap cut short anywhere.
  const entries: JournalEntry[] = [];
  for (const change of changes) entries.push({ path: change.path, existed: await exists(path.join(outDir, change.path)) });
  const journal = path.join(outDir, JOURNAL);
  await writeFile(journal, JSON.stringify({ entries }));
  try {
    for (const entry of entries) {
      const target = path.join(outDir, entry.path);
      if (entry.existed) {
        await mkdir(path.dirname(path.join(backup, entry.path)), { recursive: true });
        await rename(target, path.join(backup, entry.path));
      }
      const change = changes.find((candidate) => candidate.path === entry.path);
      if (change?.kind === 'write') {
        await mkdir(path.dirname(target), { recursive: true });
        await rename(path.join(staging, change.path), target);
      }
    }
  } catch (error) {
    await recoverInterrupted(outDir);
    throw error;
  }
  await rm(journal, { force: true });
  await rm(staging, { recursive: true, force: true });
  await rm(backup, { recursive: true, force: true });
  await removeEmptiedFolders(outDir, changes);
}

/** Folders that removed files leave empty (`deploy/` when the deployment files are turned off) go with them. */
async function removeEmptiedFolders(outDir: string, changes: FileChange[]): Promise<void> {
  const folders = new Set<string>();
  for (const change of changes) {
    if (change.kind !== 'remove') continue;
    for (let folder = path.posix.dirname(change.path); folder !== '.'; folder = path.posix.dirname(folder)) folders.add(folder);
  }
  // Deepest first, so that a parent is tried after its children.
  for (const folder of [...folders].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1))) {
    try {
      await rmdir(path.join(outDir, folder));
    } catch {
      // Not empty (other files, the user's own), or already gone: it stays as it is.
    }
  }
}

async function writeNewProject(outDir: string, changes: FileChange[]): Promise<void> {
  const temporary = path.join(path.dirname(outDir), `.${path.basename(outDir)}.tmp-${randomBytes(4).toString('hex')}`);
  makeFolderStepwise(temporary);
  try {
    writeFiles(temporary, changes);
    await rm(outDir, { recursive: true, force: true }).catch(() => undefined);
    await rename(temporary, outDir);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Makes `dir` and its missing parents one level at a time. Node's recursive mkdir never returns where a file system
 * answers ENOENT for a folder whose parent exists (`-o /proc/x` spun forever at full CPU): one level at a time, that
 * answer is an error like any other. Once the project's own folder exists, recursive mkdir inside it is safe.
 */
function makeFolderStepwise(dir: string): void {
  const missing: string[] = [];
  for (let folder = dir; !existsSync(folder); folder = path.dirname(folder)) {
    missing.push(folder);
    if (path.dirname(folder) === folder) break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (error) {
      // A parent that another generation made in the meantime (two new projects side by side) is as good.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * The changes' files written under `root`: each folder made once, then the files one after the other on this thread.
 * GitHub's project (266 files, 1.9 MB) took 24–28 ms written sixteen at a time through the thread pool, and takes
 * 10–12 ms so.
 */
function writeFiles(root: string, changes: FileChange[]): void {
  const writes = changes.flatMap((change) => (change.kind === 'write' ? [change] : []));
  for (const folder of new Set(writes.map((change) => path.dirname(path.join(root, change.path))))) mkdirSync(folder, { recursive: true });
  for (const change of writes) writeFileSync(path.join(root, change.path), change.content);
}

/** A journal left behind means an earlier run stopped in the middle of a swap: restore its backups first. */
export async function recoverInterrupted(outDir: string): Promise<boolean> {
  const journal = path.join(outDir, JOURNAL);
  let entries: JournalEntry[];
  try {
    entries = (JSON.parse(await readFile(journal, 'utf8')) as { entries: JournalEntry[] }).entries;
  } catch {
    return false;
  }
  for (const entry of entries) {
    const target = path.join(outDir, entry.path);
    const saved = path.join(outDir, BACKUP, entry.path);
    if (!entry.existed) await rm(target, { force: true });
    else if (await exists(saved)) {
      await rm(target, { force: true });
      await rename(saved, target);
    }
  }
  await rm(path.join(outDir, BACKUP), { recursive: true, force: true });
  await rm(path.join(outDir, STAGING), { recursive: true, force: true });
  await rm(journal, { force: true });
  return true;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
