import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { LOCK_FILE, parseLock, type LockFile } from './lock-file.js';

/**
 * The regeneration cache's folder (src/cache/), named here because the write stage must know it: a folder that holds
 * only the cache (the rest deleted with `rm -rf out/*`, which leaves dot-folders) is empty, not someone else's.
 */
export const CACHE_DIR = '.openapi-to-mcp-cache';

export type ExistingProject =
  { kind: 'missing' } | { kind: 'empty' } | { kind: 'generated'; lock: LockFile } | { kind: 'foreign'; entries: string[] };

/** What is at the output folder now: nothing, an empty folder, a project this generator wrote, or something else. */
export async function readExistingProject(outDir: string): Promise<ExistingProject> {
  let entries: string[];
  try {
    entries = await readdir(outDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  if (entries.every((entry) => entry === CACHE_DIR)) return { kind: 'empty' };
  if (entries.includes(LOCK_FILE)) {
    const lock = parseLock(await readFile(path.join(outDir, LOCK_FILE), 'utf8'));
    if (lock) return { kind: 'generated', lock };
  }
  return { kind: 'foreign', entries: entries.slice(0, 5) };
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
