// Regenerating after a one-operation change, against a full generation of the same description.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { runOurs, STAGES } from './generation.mjs';
import { statusKb } from './processes.mjs';
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
  log('  --watch: saves of the changed and the original description, alternately, into one running process');
  const watched = await measureWatch({ repo, spec, changedSpec, dir, saves: 2 * runs });
  const extra = watched.extraRuns > 0 ? ` (${watched.extraRuns} saves seen half-written also ran again)` : '';
  log(`  --watch: save → report ${watched.saves.map((ms) => Math.round(ms)).join(', ')} ms${extra}`);
  // The same saves of the description written as YAML, as most descriptions are kept.
  const yamlSpec = path.join(dir, `${path.basename(spec, '.json')}.yaml`);
  const yamlChanged = path.join(dir, `${path.basename(spec, '.json')}-changed.yaml`);
  writeFileSync(yamlSpec, stringify(JSON.parse(readFileSync(spec, 'utf8')), { aliasDuplicateObjects: false }));
  writeFileSync(yamlChanged, stringify(document, { aliasDuplicateObjects: false }));
  const watchedYaml = await measureWatch({ repo, spec: yamlSpec, changedSpec: yamlChanged, dir, saves: 2 * runs });
  log(`  --watch, YAML: save → report ${watchedYaml.saves.map((ms) => Math.round(ms)).join(', ')} ms`);
  const written = (name) => (JSON.parse(rows[name][0].stdout).changes ?? []).length;
  const summarize = (results) => ({
    wallMs: median(results.map((result) => result.wallMs)),
    peakRssKb: median(results.map((result) => result.peakRssKb)),
    stages: Object.fromEntries(STAGES.map((stage) => [stage, median(results.map((result) => result.timings[stage]))])),
  });
  const watchRow = (session) => ({
    wallMs: median(session.saves),
    peakRssKb: session.peakRssKb,
    stages: Object.fromEntries(STAGES.map((stage) => [stage, median(session.reports.map((report) => report.timings[stage]))])),
    saves: session.saves.length,
  });
  return {
    changed,
    filesWritten: written('regen'),
    unchangedWrites: written('same'),
    ...Object.fromEntries(Object.entries(rows).map(([name, results]) => [name, summarize(results)])),
    watch: watchRow(watched),
    watchYaml: watchRow(watchedYaml),
  };
}

/**
 * `--watch --json` on a copy of the description: after the first generation, `saves` saves alternate the changed and
 * the original text (each a one-operation change); each is timed from the write to the run's JSON line, which
 * includes the watch's settling delay. Peak RSS is the process's high-water mark over the whole session.
 */
export async function measureWatch({ repo, spec, changedSpec, dir, saves }) {
  const work = path.join(dir, 'watch');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const texts = [readFileSync(changedSpec), readFileSync(spec)];
  const target = path.join(work, `description${path.extname(spec)}`);
  writeFileSync(target, texts[1]);
  const child = spawn(
    process.execPath,
    [path.join(repo, 'bin/openapi-to-mcp.js'), target, '-o', path.join(work, 'out'), '--json', '--watch'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on('close', resolve));
  const lines = () => stdout.split('\n').slice(0, -1);
  const untilLines = async (count) => {
    while (lines().length < count) {
      if (child.exitCode !== null) throw new Error(`--watch exited ${child.exitCode}:\n${stderr.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  await untilLines(1);
  const times = [];
  const answers = [];
  const quiet = async (ms) => {
    for (let count = lines().length; ; count = lines().length) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (lines().length === count) return;
    }
  };
  for (let save = 0; save < saves; save++) {
    // Apart from the previous run as separate saves are: past the run a save seen half-written adds (the watch runs
    // again on the finished file), whose report is not this save's, and past the cache writes the watch makes once it
    // has been idle for a second (a user who pauses that long waits for none of it).
    await quiet(1500);
    // The first report after the write answers it.
    const before = lines().length;
    const started = performance.now();
    writeFileSync(target, texts[save % 2]);
    await untilLines(before + 1);
    times.push(performance.now() - started);
    answers.push(before);
  }
  const peakRssKb = statusKb(child.pid, 'VmHWM');
  child.kill('SIGINT');
  await exited;
  const all = lines().map((line) => JSON.parse(line));
  if (all.some((report) => !report.ok)) throw new Error(`a --watch run failed:\n${stderr.slice(-2000)}\n${stdout.slice(0, 3000)}`);
  const reports = answers.map((index) => all[index]);
  return { saves: times, peakRssKb, reports, extraRuns: all.length - 1 - saves };
}
