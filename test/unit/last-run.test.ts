import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { storeCheck } from '../../src/cache/check-store.js';
import { readLastRun, storeKept } from '../../src/cache/last-run.js';
import { PathItemReplay, type StoredReplay } from '../../src/cache/path-item-replay.js';
import type { RunCache } from '../../src/cache/run-cache.js';
import { CACHE_DIR, wholeBody, writeSigned } from '../../src/cache/signed-store.js';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import type { KeptCheck } from '../../src/load/last-check.js';
import { documentSpans } from '../../src/load/path-item-spans.js';
import { textPieces } from '../../src/load/text-pieces.js';
import { buildApiModel } from '../../src/model/build-api-model.js';
import { tempDir } from '../helpers/project.js';

const root = {
  openapi: '3.0.3',
  info: { title: 'Kept', version: '1' },
  paths: {
    '/a': {
      get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } } } },
    },
    '/b': { post: { responses: { '204': { description: 'none' } } } },
  },
  components: { schemas: { A: { type: 'object', properties: { n: { type: 'integer' } } } } },
};

async function cacheIn(name: string): Promise<RunCache> {
  const outDir = await tempDir(name);
  await mkdir(outDir, { recursive: true });
  return { outDir, key: 'k', signer: { secret: randomBytes(32), fingerprint: 'test' } };
}

/** A run's check and builds of `root`'s text, as a generation keeps them. */
function keptOf(): { text: string; check: KeptCheck; replay: PathItemReplay } {
  const text = JSON.stringify(root, null, 2);
  const replay = new PathItemReplay(false);
  buildApiModel(
    { version: '3.0', versionString: '3.0.3', root: JSON.parse(text), source: { kind: 'file', location: 'k.json' } },
    new Diagnostics(),
    replay,
  );
  const check = {
    pieces: textPieces(text, documentSpans(text) ?? { items: [] }),
    check: { errors: [{ instancePath: '/paths/~1b', message: 'broken' }] },
    nodes: 42,
    refs: { allInternal: true, noneIntoPaths: false },
  };
  return { text, check, replay };
}

describe('what a run keeps for the next run into its folder', () => {
  it('reads back the check and the builds it stored, as a pair', async () => {
    const cache = await cacheIn('last-run');
    const { check, replay } = keptOf();
    await storeKept(cache, { digest: 'd1', check: Promise.resolve(check), replay });
    const last = await readLastRun(cache);
    expect(last?.check).toEqual(check);
    expect(last?.model).toEqual(JSON.parse(JSON.stringify(replay.stored())));
    expect(last?.model?.items.map(([key]) => key)).toEqual(['/a', '/b']);
  });

  it('starts from no builds of another text, and from nothing signed by another key or edited', async () => {
    const cache = await cacheIn('last-run-pairs');
    const { check, replay } = keptOf();
    await storeKept(cache, { digest: 'd1', check: Promise.resolve(check), replay });
    // A later run's check whose builds were not stored (they could not be): the builds are another text's.
    await storeCheck(cache, 'd2', check);
    expect(await readLastRun(cache)).toEqual({ check });
    expect(await readLastRun({ ...cache, signer: { ...cache.signer, secret: randomBytes(32) } })).toBeUndefined();
    const file = path.join(cache.outDir, CACHE_DIR, 'check.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace('broken', 'forged'));
    expect(await readLastRun(cache)).toBeUndefined();
  });

  it('trusts no outline whose spans do not lie within one another, one after the other', async () => {
    const cache = await cacheIn('last-run-outline');
    const { check } = keptOf();
    const outline = check.pieces.outline ?? [];
    expect(outline.map((member) => member.key)).toEqual(['openapi', 'info', 'paths', 'components']);
    const components = outline[3]!;
    for (const broken of [
      [...outline.slice(0, 3), { ...components, entries: [{ key: 'schemas', start: components.start - 1, end: components.end }] }],
      [outline[1]!, outline[0]!, ...outline.slice(2)],
      [...outline.slice(0, 3), { ...components, end: check.pieces.length + 1 }],
    ]) {
      await storeCheck(cache, 'd1', { ...check, pieces: { ...check.pieces, outline: broken } });
      expect(await readLastRun(cache)).toBeUndefined();
    }
    await storeCheck(cache, 'd1', check);
    expect((await readLastRun(cache))?.check).toEqual(check);
  });

  it('keeps nothing when the check could not be kept', async () => {
    const cache = await cacheIn('last-run-none');
    const { replay } = keptOf();
    await storeKept(cache, { digest: 'd1', check: Promise.resolve(undefined), replay });
    expect(await readLastRun(cache)).toBeUndefined();
  });

  it('writes back the items a resumed model replays as they were read, and reads its own lines only', async () => {
    const cache = await cacheIn('last-run-lines');
    const { check, replay } = keptOf();
    await storeKept(cache, { digest: 'd1', check: Promise.resolve(check), replay });
    const file = path.join(cache.outDir, CACHE_DIR, 'model.json');
    const written = await readFile(file, 'utf8');
    const last = await readLastRun(cache);
    // The next run's model: /b's text changed, /a is replayed from what was read.
    const resumed = PathItemReplay.resumed(last?.model as StoredReplay, '/b');
    const changed = structuredClone(root);
    (changed.paths['/b'].post as { responses: object }).responses = { '202': { description: 'accepted' } };
    buildApiModel(
      { version: '3.0', versionString: '3.0.3', root: changed, source: { kind: 'file', location: 'k.json' } },
      new Diagnostics(),
      resumed,
    );
    const [a, b] = resumed.stored()?.items ?? [];
    expect(a?.[2]).toBe(last?.model?.items[0]?.[2]);
    const printed = vi.spyOn(JSON, 'stringify');
    await storeKept(cache, { digest: 'd2', check: Promise.resolve(check), replay: resumed });
    // Items are printed as [key, state, build]; the other arrays printed are the named schemas and schemes.
    const printedKeys = printed.mock.calls.flatMap(([value]) => (Array.isArray(value) && value.length === 3 ? [value[0]] : []));
    printed.mockRestore();
    expect(printedKeys).toEqual(['/b']);
    const rewritten = await readFile(file, 'utf8');
    // The file's lines: its header, the first line of the body, the items, the body's end and the signature.
    const itemLines = (text: string) => text.split('\n').slice(2, -2);
    expect(itemLines(rewritten)[0]).toBe(itemLines(written)[0]);
    expect(itemLines(rewritten)[1]).not.toBe(itemLines(written)[1]);
    expect((await readLastRun(cache))?.model?.items).toEqual(JSON.parse(JSON.stringify([a, b])));

    // The same builds signed on one line, as JSON allows but storeModel never writes: not read.
    await writeSigned(cache.outDir, 'model.json', wholeBody({ digest: 'd2', ...resumed.stored() }), cache.signer);
    expect(await readLastRun(cache)).toEqual({ check });
  });
});
