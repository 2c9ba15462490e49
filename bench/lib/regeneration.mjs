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

export async function measureRegeneration({ repo, spec, work, runs, log }) {
  const dir = path.join(work, 'regeneration');
  mkdirSync(dir, { recursive: true });
  const { document, changed } = changeOneOperation(JSON.parse(readFileSync(spec, 'utf8')));
  const changedSpec = path.join(dir, `${path.basename(spec, '.json')}-changed.json`);
  writeFileSync(changedSpec, JSON.stringify(document, null, 2));
  const full = [];
  const regen = [];
  const same = [];
  const out = path.join(dir, 'out');
  const unchanged = path.join(dir, 'out-unchanged');
  for (let run = 0; run < runs; run++) {
    rmSync(out, { recursive: true, force: true });
    rmSync(unchanged, { recursive: true, force: true });
    const first = await runOurs(repo, spec, out);
    const second = await runOurs(repo, changedSpec, out);
    // The same description again into a folder it generated: what a regeneration costs when nothing changed.
    await runOurs(repo, spec, unchanged);
    const third = await runOurs(repo, spec, unchanged);
    const failed = [first, second, third].find((result) => !result.ok);
    if (failed) throw new Error(`regeneration run failed:\n${failed.stderr.slice(-2000)}`);
    full.push(first);
    regen.push(second);
    same.push(third);
    log(
      `  run ${run + 1}/${runs}: full ${Math.round(first.wallMs)} ms, regeneration ${Math.round(second.wallMs)} ms, unchanged ${Math.round(third.wallMs)} ms`,
    );
  }
  const changes = JSON.parse(regen[0].stdout).changes ?? [];
  const unchangedWrites = (JSON.parse(same[0].stdout).changes ?? []).length;
  const summarize = (results) => ({
    wallMs: median(results.map((result) => result.wallMs)),
    stages: Object.fromEntries(STAGES.map((stage) => [stage, median(results.map((result) => result.timings[stage]))])),
  });
  return { changed, filesWritten: changes.length, unchangedWrites, full: summarize(full), regen: summarize(regen), same: summarize(same) };
}
