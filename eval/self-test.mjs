#!/usr/bin/env node
// Proves the scorer can fail: hand-made right and wrong answers (eval/self-test/<api>.json) go through prepare.mjs and
// score.mjs like a model's, and every verdict must be the one the case expects. Exit 1 on any mismatch.
//
//   node eval/self-test.mjs [api]     (default: pagerduty; the run goes to eval/.work/self-test)
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { EVAL_DIR, WORK, fail, loadTasks } from './lib/apis.mjs';
import { readJson, writeJson } from './lib/run-folder.mjs';

const api = process.argv[2] ?? 'pagerduty';
const spec = JSON.parse(readFileSync(path.join(EVAL_DIR, 'self-test', `${api}.json`), 'utf8'));
const work = path.join(WORK, 'self-test', api);
const runFolder = path.join(work, 'run');
rmSync(work, { recursive: true, force: true });

node(['prepare.mjs', api, '--label', 'self-test', '--out', runFolder]);
const plan = readJson(path.join(runFolder, 'plan.json'));
const toolOf = (operation) => {
  for (const tool of plan.tools) {
    const found = tool.operations.find((candidate) => `${candidate.method.toUpperCase()} ${candidate.path}` === operation);
    if (found) return { tool: tool.name, action: found.action };
  }
  fail(`the plan holds no operation ${operation}`);
};

const tasks = new Map(loadTasks(api).map((task) => [task.id, task]));
const caseTasks = [];
const answers = {};
const problems = [];
for (const entry of spec.cases) {
  const task = tasks.get(entry.task);
  if (!task) fail(`case ${entry.id}: no task ${entry.task}`);
  caseTasks.push({ ...task, id: entry.id });
  if (!entry.answer) continue;
  const target = entry.answer.operation ? toolOf(entry.answer.operation) : { tool: entry.answer.tool, action: '' };
  const action = entry.answer.action ?? target.action;
  answers[entry.id] = { tool: target.tool, arguments: { ...(action ? { action } : {}), ...entry.answer.arguments } };
  if (entry.sameToolAs && toolOf(entry.sameToolAs).tool !== target.tool) {
    problems.push(
      `${entry.id}: ${entry.answer.operation} is not in the tool of ${entry.sameToolAs} any more; the case no longer tests a wrong action`,
    );
  }
}
writeJson(path.join(work, 'tasks.json'), caseTasks);
writeJson(path.join(work, 'answers.json'), answers);

const scores = {};
for (const mode of ['full', 'names']) {
  const out = path.join(work, `score.${mode}.json`);
  node(['score.mjs', runFolder, path.join(work, 'answers.json'), '--mode', mode, '--tasks', path.join(work, 'tasks.json'), '--out', out]);
  scores[mode] = new Map(readJson(out).verdicts.map((verdict) => [verdict.id, verdict]));
}

for (const entry of spec.cases) {
  const full = scores.full.get(entry.id);
  const names = scores.names.get(entry.id);
  const got = { rightOperation: full.rightOperation, rightArguments: full.rightArguments, error: full.error, name: names.right };
  const wrong = Object.keys(entry.expect).filter((key) => got[key] !== entry.expect[key]);
  const line = `${wrong.length === 0 ? 'ok  ' : 'FAIL'} ${entry.id.padEnd(32)} ${format(got)}${full.problem ? `  (${full.problem.slice(0, 110)})` : ''}`;
  console.log(line);
  if (wrong.length > 0) problems.push(`${entry.id}: expected ${format(entry.expect)}, got ${format(got)}`);
}
console.log(
  problems.length === 0 ? `self-test: ${spec.cases.length} cases, every verdict as expected` : `self-test: ${problems.length} problems`,
);
for (const problem of problems) console.log(`  ${problem}`);
process.exitCode = problems.length === 0 ? 0 : 1;

function format(verdict) {
  return `operation ${mark(verdict.rightOperation)} arguments ${mark(verdict.rightArguments)} error ${mark(verdict.error)} name ${mark(verdict.name)}`;
}

function mark(value) {
  return value ? 'yes' : 'no ';
}

function node(args) {
  const result = spawnSync(process.execPath, [path.join(EVAL_DIR, args[0]), ...args.slice(1)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (result.status !== 0) fail(`${args[0]} exited with ${result.status}:\n${result.stdout}`);
  return result.stdout;
}
