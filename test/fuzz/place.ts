import { cp } from 'node:fs/promises';
import path from 'node:path';
import { FIXTURE_SPECS } from '../helpers/paths.js';

/** The multi-file descriptions (all vendored under test/fixtures/specs): their folder and the entry inside it. */
const MULTI_FILE: Record<string, { folder: string; entry: string }> = {
  'oai-petstore-separate': { folder: 'oai-petstore-separate', entry: 'oai-petstore-separate/spec/swagger.yaml' },
  'pihole-ftl': { folder: 'pihole-ftl', entry: 'pihole-ftl/main.yaml' },
};

/**
 * Where a mutated copy of a corpus description is written: `workDir` itself, or for a multi-file description the
 * entry's folder inside a private copy of its files (so its relative `$ref`s resolve, and the originals stay untouched).
 */
export async function placeFor(workDir: string, name: string): Promise<{ entryDir: string; refRoot: string }> {
  const multi = MULTI_FILE[name];
  if (!multi) return { entryDir: workDir, refRoot: workDir };
  const copy = path.join(workDir, 'corpus', multi.folder);
  await cp(path.join(FIXTURE_SPECS, multi.folder), copy, { recursive: true });
  return { entryDir: path.join(workDir, 'corpus', path.dirname(multi.entry)), refRoot: copy };
}
