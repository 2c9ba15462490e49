// Regenerating after a one-operation change, against a full generation of the same description.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runOurs, STAGES } from './generation.mjs';
import { median } from './stats.mjs';

/** The description with one operation changed: a new optional query parameter and a new summary. */
function changeOneOperation(document) {
  const [pathKey, method] = Object.entries(document.paths)
    .flatMap(([key, item]) => (item.get ? [[key, 'get']] : []))
    .sort(([a], [b]) => (a < b ? -1 : 1))[0];
  const operation = structuredClone(document.paths[pathKey][method]);
  operation.summary = `${operation.summary ?? ''} (changed)`;
  operation.parameters = [
    ...(operation.parameters ?? []),
    { name: 'bench_flag', in: 'query', required: false, schema: { type: 'boolean' } },
  ];
  return {
    document: { ...document, paths: { ...document.paths, [pathKey]: { ...document.paths[pathKey], [method]: operation } } },
    changed: `${method.toUpperCase()} ${pathKey}`,
  };
}

/**
 * Each run, in fresh folders: a full generation without the cache (the baseline) and one with it (which also writes
 * the cache); the changed description regenerated into the folder of each; the unchanged description regenerated
 * twice more into a folder of its own, with and without the cache (with it, the first regeneration plans under the
 * lock file's pins and caches that; the second is timed).
 */
export async function measureRegeneration({ repo, spec, work, runs, log }) {
  const dir = path.join(work, 'regeneration');
  mkdirSync(dir, { recursive: true });
  const { document, changed } = changeOneOperation(JSON.parse(readFileSync(spec, 'utf8')));
  const changedSpec = path.join(dir, `${path.basename(spec, '.json')}-changed.json`);
  writeFileSync(changedSpec, JSON.stringify(document, null, 2));
  const rows = { full: [], fullCached: [], regen: [], regenCached: [], same: [], sameCached: [] };
  const folder = (name) => {
    const out = path.join(dir, name);
    rmSync(out, { recursive: true, force: true });
    return out;
  };
  const noCache = ['--no-cache'];
  for (let run = 0; run < runs; run++) {
    const plain = folder('out');
    const cached = folder('out-cached');
    const unchanged = folder('out-unchanged');
    const unchangedCached = folder('out-unchanged-cached');
    const results = {
      full: await runOurs(repo, spec, plain, noCache),
      fullCached: await runOurs(repo, spec, cached),
    };
    results.regen = await runOurs(repo, changedSpec, plain, noCache);
    results.regenCached = await runOurs(repo, changedSpec, cached);
    await runOurs(repo, spec, unchanged, noCache);
    results.same = await runOurs(repo, spec, unchanged, noCache);
    await runOurs(repo, spec, unchangedCached);
    await runOurs(repo, spec, unchangedCached);
    results.sameCached = await runOurs(repo, spec, unchangedCached);
    const failed = Object.values(results).find((result) => !result.ok);
    if (failed) throw new Error(`regeneration run failed:\n${failed.stderr.slice(-2000)}`);
    for (const [name, result] of Object.entries(results)) rows[name].push(result);
    log(
      `  run ${run + 1}/${runs}: full ${Math.round(results.full.wallMs)} ms (cached ${Math.round(results.fullCached.wallMs)}), ` +
        `one operation changed ${Math.round(results.regen.wallMs)} ms (cached ${Math.round(results.regenCached.wallMs)}), ` +
        `unchanged ${Math.round(results.same.wallMs)} ms (cached ${Math.round(results.sameCached.wallMs)})`,
    );
  }
  const written = (name) => (JSON.parse(rows[name][0].stdout).changes ?? []).length;
  const summarize = (results) => ({
    wallMs: median(results.map((result) => result.wallMs)),
    peakRssKb: median(results.map((result) => result.peakRssKb)),
    stages: Object.fromEntries(STAGES.map((stage) => [stage, median(results.map((result) => result.timings[stage]))])),
  });
  return {
    changed,
    filesWritten: written('regen'),
    unchangedWrites: written('same'),
    ...Object.fromEntries(Object.entries(rows).map(([name, results]) => [name, summarize(results)])),
  };
}
