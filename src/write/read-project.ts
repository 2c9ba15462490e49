import { readFileSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { LOCK_FILE, parseLock, type LockFile } from './lock-file.js';

/**
 * The regeneration cache's folder (src/cache/), named here because the write stage must know it: a folder that holds
 * only the cache (the rest deleted with `rm -rf out/*`, which leaves dot-folders) is empty, not someone else's.
 */
export const CACHE_DIR = '.openapi-to-mcp-cache';

export type ExistingProject =
  | { kind: 'missing' }
  | { kind: 'empty' }
  | { kind: 'generated'; lock: LockFile }
  | { kind: 'foreign'; entries: string[] }
  | { kind: 'unusable'; reason: string };

/**
 * What is at the output folder now: nothing, an empty folder, a project this generator wrote, something else, or a
 * path no folder can be made at or read (a file, or a path through one; a folder this user may not read).
 */
export async function readExistingProject(outDir: string): Promise<ExistingProject> {
  let entries: string[];
  try {
    entries = await readdir(outDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'ENOTDIR') return { kind: 'unusable', reason: throughFile(outDir) };
    if (code === 'EACCES' || code === 'EPERM') return { kind: 'unusable', reason: 'this user may not read it' };
    throw error;
  }
  if (entries.every((entry) => entry === CACHE_DIR)) return { kind: 'empty' };
  if (entries.includes(LOCK_FILE)) {
    const lock = parseLock(await readFile(path.join(outDir, LOCK_FILE), 'utf8'));
    if (lock) return { kind: 'generated', lock };
  }
  return { kind: 'foreign', entries: entries.slice(0, 5) };
}

function throughFile(outDir: string): string {
  const file = fileOnPath(outDir);
  return file === outDir ? 'it is a file' : `it runs through ${file}, which is a file`;
}

/** The file the output path is or runs through: the deepest part of it that exists, which readdir found no folder. */
function fileOnPath(outDir: string): string {
  for (let part = outDir; ; part = path.dirname(part)) {
    if (existsAsFile(part) || path.dirname(part) === part) return part;
  }
}

function existsAsFile(part: string): boolean {
  try {
    return statSync(part, { throwIfNoEntry: false })?.isDirectory() === false;
  } catch {
    // ENOTDIR: a file sits higher up.
    return false;
  }
}

/**
 * The file's bytes, or undefined when it does not exist. Synchronous: the write stage reads every file of the project
 * it compares, and a few hundred small files (GitHub's project: 266) took 30–45 ms read side by side through the
 * thread pool (four round trips each) against 5–7 ms read one after the other on this thread.
 */
export function readIfExists(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR') return undefined;
    throw error;
  }
}
