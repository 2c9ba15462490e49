import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CACHE_DIR } from '../../src/cache/signed-store.js';
import { runGenerate } from '../../src/pipeline.js';
import { FIXTURE_SPECS } from '../helpers/paths.js';
import { tempDir } from '../helpers/project.js';

// The cache signs with a key in the user's cache folder: the tests keep theirs in a temporary one.
const saved = process.env['XDG_CACHE_HOME'];
beforeAll(async () => {
  process.env['XDG_CACHE_HOME'] = await tempDir('regen-cache-home');
});
afterAll(() => {
  if (saved === undefined) delete process.env['XDG_CACHE_HOME'];
  else process.env['XDG_CACHE_HOME'] = saved;
});

describe('regeneration cache', () => {
  it('ignores a cache signed with another key, and --no-cache neither reads nor writes one', async () => {
    const dir = await tempDir('regen-cache-key');
    const spec = path.join(FIXTURE_SPECS, 'oai-petstore.yaml');
    const out = path.join(dir, 'out');
    expect((await runGenerate({ spec, out })).ok).toBe(true);
    expect((await runGenerate({ spec, out })).timings.plan).toBeGreaterThan(0);
    expect((await runGenerate({ spec, out })).timings.plan).toBe(0);
    // Another user's (or a planted) cache: the signature does not verify with this key.
    process.env['XDG_CACHE_HOME'] = await tempDir('regen-cache-other-home');
    const foreign = await runGenerate({ spec, out });
    expect(foreign.ok).toBe(true);
    expect(foreign.timings.plan).toBeGreaterThan(0);
    const uncached = path.join(dir, 'uncached');
    await runGenerate({ spec, out: uncached, cache: false });
    await runGenerate({ spec, out: uncached, cache: false });
    await expect(readFile(path.join(uncached, CACHE_DIR, 'run.json'))).rejects.toThrow();
  });

  it('generates into a folder that holds only its cache (the rest deleted with rm -rf out/*)', async () => {
    const out = path.join(await tempDir('regen-cache-only'), 'out');
    const spec = path.join(FIXTURE_SPECS, 'oai-petstore.yaml');
    await runGenerate({ spec, out });
    for (const entry of await readdir(out)) if (entry !== CACHE_DIR) await rm(path.join(out, entry), { recursive: true });
    const again = await runGenerate({ spec, out });
    expect(again.diagnostics.filter((diagnostic) => diagnostic.severity === 'error')).toEqual([]);
    expect(again.ok).toBe(true);
  });

  it('regenerates a one-item change from the parts of the description it reads, as --no-cache does', async () => {
    const dir = await tempDir('regen-cache-resumed');
    await mkdir(dir, { recursive: true });
    const spec = path.join(dir, 'museum.json');
    const document = load(await readFile(path.join(FIXTURE_SPECS, 'redocly-museum.yaml'), 'utf8')) as {
      paths: Record<string, { get?: object }>;
    };
    const original = JSON.stringify(document, null, 2);
    const [key, item] = Object.entries(document.paths).find(([, value]) => value.get) ?? [];
    const changed = JSON.stringify(
      { ...document, paths: { ...document.paths, [key as string]: { ...item, get: { ...item?.get, summary: 'Changed' } } } },
      null,
      2,
    );
    const [cached, uncached] = [path.join(dir, 'cached'), path.join(dir, 'uncached')];
    const parse = vi.spyOn(JSON, 'parse');
    try {
      // The first run parses the text whole; the next ones, each a one-item change from the run before, only the item.
      for (const [text, whole] of [
        [original, true],
        [changed, false],
        [original, false],
      ] as const) {
        await writeFile(spec, text);
        parse.mockClear();
        expect((await runGenerate({ spec, out: cached })).ok).toBe(true);
        expect(parse.mock.calls.some(([argument]) => argument === text)).toBe(whole);
        expect((await runGenerate({ spec, out: uncached, cache: false })).ok).toBe(true);
        expect(await filesOf(cached)).toEqual(await filesOf(uncached));
      }
    } finally {
      parse.mockRestore();
    }
  });

  it('keeps the cache out of git', async () => {
    const out = path.join(await tempDir('regen-cache-git'), 'out');
    await runGenerate({ spec: path.join(FIXTURE_SPECS, 'oai-petstore.yaml'), out });
    expect(await readFile(path.join(out, CACHE_DIR, '.gitignore'), 'utf8')).toMatch(/^\*$/m);
  });
});

/** The files of a generated project, the cache aside, by path. */
async function filesOf(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && !path.relative(dir, entry.parentPath).startsWith(CACHE_DIR));
  const read = files.map(async (entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return [path.relative(dir, file), await readFile(file, 'utf8')] as const;
  });
  return Object.fromEntries(await Promise.all(read));
}
