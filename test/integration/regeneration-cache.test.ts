import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_DIR } from '../../src/cache/signed-store.js';
import { runBin } from '../helpers/cli.js';
import { WatchSession } from '../../src/cache/watch-session.js';
import { FIXTURE_SPECS, fixtureSpec } from '../helpers/paths.js';
import { tempDir } from '../helpers/project.js';
import { proofSteps, proveCacheIdentical } from '../helpers/regeneration-proof.js';

// The cache signs with a key in the user's cache folder: the tests keep theirs in a temporary one.
const saved = process.env['XDG_CACHE_HOME'];
beforeAll(async () => {
  process.env['XDG_CACHE_HOME'] = await tempDir('regen-cache-home');
});
afterAll(() => {
  if (saved === undefined) delete process.env['XDG_CACHE_HOME'];
  else process.env['XDG_CACHE_HOME'] = saved;
});

describe('regeneration cache on a vendored description', () => {
  it('leaves the output byte-identical to a full run after every kind of change, and is used when nothing changed', async () => {
    const document = load(await readFile(path.join(FIXTURE_SPECS, 'redocly-museum.yaml'), 'utf8')) as Parameters<typeof proofSteps>[0];
    await proveCacheIdentical(await tempDir('regen-cache-proof'), proofSteps(document));
    // Fifteen steps, each generated twice: several minutes on a loaded machine.
  }, 300_000);
});

describe('regeneration cache of the real bin on a description the validation worker checks', () => {
  it('validates a changed item alone and replays the model’s other items, writing what --no-cache writes', async () => {
    const work = await tempDir('regen-cache-worker');
    await mkdir(work, { recursive: true });
    type Document = { paths: Record<string, Record<string, unknown>> };
    const document = JSON.parse(gunzipSync(await readFile(fixtureSpec('discord-openapi.json.gz'))).toString('utf8')) as Document;
    const spec = path.join(work, 'discord.json');
    const [cached, full] = [path.join(work, 'cached'), path.join(work, 'full')];
    const keys = Object.keys(document.paths);
    const [first, middle] = [keys[0] as string, keys[Math.floor(keys.length / 2)] as string];
    const edited = (edit: (draft: Document) => void) => {
      const draft = structuredClone(document);
      edit(draft);
      return draft;
    };
    const steps: Array<[string, Document]> = [
      ['first generation', document],
      [
        'one changed operation',
        edited((draft) => void ((Object.values(draft.paths[middle]!)[0] as Record<string, unknown>)['summary'] = 'Changed by the proof')),
      ],
      ['an item that breaks the schema', edited((draft) => void (draft.paths[first]!['bogus'] = 1))],
      ['mended', document],
    ];
    for (const [index, [name, step]] of steps.entries()) {
      // Indented wide, the text is over the 2 MB from which a worker validates it.
      await writeFile(spec, JSON.stringify(step, null, 8));
      await rm(full, { recursive: true, force: true });
      if (index > 0) {
        await cp(cached, full, { recursive: true });
        await rm(path.join(full, CACHE_DIR), { recursive: true, force: true });
      }
      const [withCache, without] = [await runBin([spec, '-o', cached, '--json']), await runBin([spec, '-o', full, '--json', '--no-cache'])];
      expect(withCache.json?.ok, name).toBe(true);
      expect(withCache.json?.diagnostics, name).toEqual(without.json?.diagnostics);
      if (name === 'an item that breaks the schema') expect(JSON.stringify(withCache.json?.diagnostics)).toContain('bogus');
      const files = async (dir: string) => (await readdir(dir, { recursive: true })).filter((file) => !file.startsWith(CACHE_DIR)).sort();
      expect(await files(cached), name).toEqual(await files(full));
      for (const file of await files(full))
        if (!file.endsWith('/') && path.extname(file) !== '')
          expect(await readFile(path.join(cached, file), 'utf8'), `${name}: ${file}`).toBe(await readFile(path.join(full, file), 'utf8'));
      const kept = await readdir(path.join(cached, CACHE_DIR));
      expect(kept, name).toEqual(expect.arrayContaining(['check.json', 'model.json']));
    }
  }, 300_000);
});

describe('a watch session on a vendored description', () => {
  it('gives the output and plan of a fresh run after every kind of change, its work carried in memory', async () => {
    const document = load(await readFile(path.join(FIXTURE_SPECS, 'redocly-museum.yaml'), 'utf8')) as Parameters<typeof proofSteps>[0];
    await proveCacheIdentical(await tempDir('watch-session-proof'), proofSteps(document), { session: new WatchSession() });
  }, 300_000);

  it('does so saved as YAML, a changed item parsed and validated alone', async () => {
    const document = load(await readFile(path.join(FIXTURE_SPECS, 'redocly-museum.yaml'), 'utf8')) as Parameters<typeof proofSteps>[0];
    const session = new WatchSession();
    await proveCacheIdentical(await tempDir('watch-session-yaml-proof'), proofSteps(document), { session, format: 'yaml' });
  }, 300_000);
});
