import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATOR_VERSION } from '../kernel/version.js';
import { contentHash } from './content-hash.js';

/** The folders of this package whose files decide what a generation produces. */
const CODE_FOLDERS = ['dist', 'src', 'templates'];

let fingerprint: Promise<string> | undefined;

/**
 * What identifies this generator's code: its version, and the path, size and modification time of every file it runs
 * or copies. The version alone is not enough: a checkout that changes the emitter without a release must not reuse
 * what the previous code generated. Stat calls only (a few milliseconds), once per process.
 */
export function generatorFingerprint(): Promise<string> {
  fingerprint ??= computeFingerprint();
  return fingerprint;
}

async function computeFingerprint(): Promise<string> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const lines: string[] = [];
  for (const folder of CODE_FOLDERS) await listFiles(path.join(root, folder), folder, lines);
  return contentHash(GENERATOR_VERSION, ...lines.sort());
}

async function listFiles(dir: string, relative: string, lines: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  await Promise.all(
    entries.map(async (entry) => {
      const full = path.join(dir, entry.name);
      const name = `${relative}/${entry.name}`;
      if (entry.isDirectory()) return listFiles(full, name, lines);
      const info = await stat(full).catch(() => undefined);
      if (info) lines.push(`${name} ${info.size} ${info.mtimeMs}`);
    }),
  );
}
