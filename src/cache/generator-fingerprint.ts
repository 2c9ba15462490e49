import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATOR_VERSION } from '../kernel/version.js';
import { contentHash } from './content-hash.js';

/** The folders of this package whose files decide what a generation produces. */
const CODE_FOLDERS = ['dist', 'src', 'templates'];

let fingerprint: string | undefined;

/**
 * What identifies this generator's code: its version, and the path, size and modification time of every file it runs
 * or copies. The version alone is not enough: a checkout that changes the emitter without a release must not reuse
 * what the previous code generated. Stat calls only, once per process, and synchronous: some 750 files, which took
 * 50–170 ms as promises (a round trip through libuv's thread pool each) and take about 30 ms as plain calls.
 */
export function generatorFingerprint(): string {
  if (fingerprint === undefined) {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const lines: string[] = [];
    for (const folder of CODE_FOLDERS) listFiles(path.join(root, folder), folder, lines);
    fingerprint = contentHash(GENERATOR_VERSION, ...lines.sort());
  }
  return fingerprint;
}

/** Every file under `dir` (a folder that cannot be read counts as empty, a file that cannot be stat'ed as absent). */
function listFiles(dir: string, relative: string, lines: string[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    const name = `${relative}/${entry.name}`;
    if (entry.isDirectory()) listFiles(full, name, lines);
    else {
      const info = statOf(full);
      if (info) lines.push(`${name} ${info.size} ${info.mtimeMs}`);
    }
  }
}

function statOf(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
