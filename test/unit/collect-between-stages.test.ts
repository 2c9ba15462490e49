import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { runGenerate } from '../../src/pipeline.js';
import { tempDir } from '../helpers/project.js';

/** A one-operation description, padded to `characters` with a long API description. */
async function description(dir: string, characters: number): Promise<string> {
  const file = path.join(dir, '..', `${path.basename(dir)}-spec.json`);
  const ok = { 200: { description: 'ok' } };
  const spec = {
    openapi: '3.0.3',
    info: { title: 'Shop', version: '1', description: '' },
    paths: { '/orders': { get: { responses: ok } } },
  };
  spec.info.description = 'x'.repeat(Math.max(0, characters - JSON.stringify(spec).length));
  await writeFile(file, JSON.stringify(spec));
  return file;
}

/** The full collections asked for (not V8's own) while a generation of a description of `characters` runs. */
async function forcedCollections(characters: number): Promise<number> {
  const dir = await tempDir('collect-between-stages');
  const spec = await description(dir, characters);
  return collectionsDuring(() => runGenerate({ spec, out: dir, validate: false }));
}

/** The full collections asked for (not V8's own) while `generate` runs. */
async function collectionsDuring(generate: () => Promise<{ ok: boolean }>): Promise<number> {
  const entries: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  try {
    expect((await generate()).ok).toBe(true);
    // GC entries are delivered after the collection, on a later turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    observer.disconnect();
  }
  const flagsOf = (entry: PerformanceEntry) => (entry as PerformanceEntry & { detail?: { flags?: number } }).detail?.flags ?? 0;
  return entries.filter((entry) => (flagsOf(entry) & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0).length;
}

describe('full collections between the stages of a generation', () => {
  it('are left out for a small description, whose garbage is a few megabytes', async () => {
    expect(await forcedCollections(200 * 1024)).toBe(0);
  });

  it('are made after parsing, before planning and before emitting a larger one', async () => {
    expect(await forcedCollections(300 * 1024)).toBe(3);
  });

  it("are one when a regeneration resumes the last run's model, which leaves only the text as large garbage", async () => {
    const dir = await tempDir('collect-resumed');
    const spec = await description(dir, 300 * 1024);
    expect((await runGenerate({ spec, out: dir })).ok).toBe(true);
    // One path item's text changed: the model resumes the last run's builds of the others.
    const text = await readFile(spec, 'utf8');
    await writeFile(spec, text.replace('"responses"', '"summary":"List orders","responses"'));
    expect(await collectionsDuring(() => runGenerate({ spec, out: dir }))).toBe(1);
    // A description changed outside its paths is modelled anew, between collections.
    await writeFile(spec, text.replace('"title":"Shop"', '"title":"Shops"'));
    expect(await collectionsDuring(() => runGenerate({ spec, out: dir }))).toBe(3);
  });
});
