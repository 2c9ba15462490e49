#!/usr/bin/env node
// Proves the multi-step scorer can fail, through the whole path an answerer takes: prepares the run (both surfaces by
// default), makes a handout per hand-made case (self-test/<api>.mjs), makes every call with the handout's own
// `./call` command, scores the run with score.mjs and compares each verdict with the one the case expects, and each
// read that checks a write with the facts it must show. Writes only into eval/.work/multistep/self-test and a temporary
// folder. Exit 1 on any mismatch.
//
//   node eval/multistep/self-test.mjs [--strategy auto|per-operation] [--keep]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WORK, fail, parseArgs } from '../lib/apis.mjs';
import { readJson, runName } from '../lib/run-folder.mjs';
import { factProblems } from './lib/match.mjs';
import { RUN_FILES, SESSION_FILES, readCalls } from './lib/session.mjs';
import { MULTISTEP_APIS, MULTISTEP_DIR } from './lib/world.mjs';

const { options } = parseArgs(process.argv.slice(2), { strategy: 'value', keep: 'flag' });
const strategies = options.strategy ? [options.strategy] : ['auto', 'per-operation'];
const handouts = mkdtempSync(path.join(os.tmpdir(), 'otm-multistep-self-test-'));
const problems = [];
let checked = 0;
try {
  for (const api of MULTISTEP_APIS) {
    const { cases } = await import(pathToFileURL(path.join(MULTISTEP_DIR, 'self-test', `${api}.mjs`)).href);
    for (const strategy of strategies) await runCases(api, strategy, cases);
  }
} finally {
  if (!options.keep) rmSync(handouts, { recursive: true, force: true });
}
console.log(
  problems.length === 0
    ? `multi-step self-test: ${checked} cases, every verdict as expected`
    : `multi-step self-test: ${problems.length} problems`,
);
for (const problem of problems) console.log(`  ${problem}`);
process.exitCode = problems.length === 0 ? 0 : 1;

async function runCases(api, strategy, cases) {
  const runFolder = path.join(WORK, 'multistep', 'self-test', runName(api, strategy));
  rmSync(runFolder, { recursive: true, force: true });
  node('prepare.mjs', api, '--strategy', strategy, '--label', 'self-test', '--out', runFolder);
  const plan = readJson(path.join(runFolder, RUN_FILES.plan));
  const routeOf = (operation) => {
    for (const tool of plan.tools) {
      const found = tool.operations.find((candidate) => `${candidate.method.toUpperCase()} ${candidate.path}` === operation);
      if (found) return { tool: tool.name, action: found.action };
    }
    fail(`the ${strategy} plan holds no operation ${operation}`);
  };
  const mine = cases.filter((entry) => !entry.surfaces || entry.surfaces.includes(strategy));
  for (const entry of mine) {
    const handout = path.join(handouts, `${strategy}-${entry.id}`);
    node('handout.mjs', runFolder, entry.task, handout, '--session', entry.id);
    for (const step of entry.steps) {
      const route = step.op
        ? routeOf(step.op)
        : step.sameToolAs
          ? { tool: routeOf(step.sameToolAs).tool, action: '' }
          : { tool: step.tool, action: '' };
      const args = { ...(route.action ? { action: route.action } : {}), ...step.args };
      const result = spawnSync(path.join(handout, 'call'), [route.tool, JSON.stringify(args)], { encoding: 'utf8' });
      if (![0, 3].includes(result.status ?? -1)) fail(`${entry.id}: ./call exited with ${result.status}: ${result.stderr}`);
    }
  }
  node('score.mjs', runFolder);
  for (const entry of mine) {
    const score = JSON.parse(readFileSync(path.join(runFolder, entry.id, SESSION_FILES.score), 'utf8'));
    const got = Object.fromEntries(
      Object.keys(entry.expect).map((key) => [key, Array.isArray(score[key]) ? score[key].length : score[key]]),
    );
    const wrong = Object.keys(entry.expect).filter((key) => got[key] !== entry.expect[key]);
    const unseen = readBackProblems(entry.steps, readCalls(path.join(runFolder, entry.id)));
    checked++;
    console.log(
      `${wrong.length === 0 && unseen.length === 0 ? 'ok  ' : 'FAIL'} ${strategy.padEnd(13)} ${entry.id.padEnd(32)} ${format(got)}${score.reasons.length ? `  (${score.reasons.join('; ').slice(0, 120)})` : ''}`,
    );
    if (wrong.length > 0) problems.push(`${strategy} ${entry.id}: expected ${format(entry.expect)}, got ${format(got)}`);
    for (const problem of unseen) problems.push(`${strategy} ${entry.id}: ${problem}`);
  }
}

/** Where a step that reads a write back got an answer without the facts it must show (or with those it must not). */
function readBackProblems(steps, calls) {
  return steps.flatMap((step, index) => {
    if (!step.shows && !step.hides) return [];
    const answers = (calls[index]?.upstream ?? []).map((record) => factProblems(record.response.body, step));
    if (answers.some((problems) => problems.length === 0)) return [];
    return [`call ${index + 1} (${step.op}): ${answers.length === 0 ? 'sent no request' : answers.at(-1).join('; ')}`];
  });
}

function format(values) {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${value}`)
    .join(', ');
}

function node(script, ...args) {
  const result = spawnSync(process.execPath, [path.join(MULTISTEP_DIR, script), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0) fail(`${script} exited with ${result.status}:\n${result.stderr}${result.stdout}`);
  return result.stdout;
}
