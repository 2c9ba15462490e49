#!/usr/bin/env node
// Checks that every ground truth of a run can be reached through its generated server: for each task it builds the
// call straight from the truth and the server's own routes (tool and action holding the operation; path, query and
// body values under the argument names the routes give them; a dummy value for other required arguments), scores
// those calls with score.mjs, and lists every task that does not come out right. A task flagged here is a truth the
// surface cannot express, or a scorer bug — not a model's mistake. Writes only into eval/.work.
//
//   node eval/check-reachable.mjs <run-folder>
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EVAL_DIR, REPO, WORK, fail, loadTasks } from './lib/apis.mjs';
import { FILES, readJson, writeJson } from './lib/run-folder.mjs';
import { serverReady } from './lib/server.mjs';

const [folderArg] = process.argv.slice(2);
if (!folderArg) fail('usage: node eval/check-reachable.mjs <run-folder>');
const folder = path.resolve(folderArg);
const meta = readJson(path.join(folder, FILES.meta));
const serverDir = path.join(REPO, meta.server);
if (!serverReady(serverDir)) fail(`${meta.server} is not built; run prepare.mjs or score.mjs first`);

const routes = [];
for (const file of readdirSync(path.join(serverDir, 'dist/tools')).filter((name) => name.endsWith('.js'))) {
  const module = await import(pathToFileURL(path.join(serverDir, 'dist/tools', file)).href);
  for (const value of Object.values(module)) {
    if (!value || typeof value !== 'object' || !value.actions) continue;
    for (const [action, route] of Object.entries(value.actions)) routes.push({ tool: value.name, action, route });
  }
}

const answers = {};
for (const task of loadTasks(meta.api)) {
  const { method, path: template, pathParams = {}, query = {}, body } = task.truth;
  // Box keeps several operations on one method and path: take the one whose arguments carry every truth name.
  const candidates = routes.filter(({ route }) => route.method.toUpperCase() === method && route.path.replace(/#.*$/, '') === template);
  const names = [...Object.keys(pathParams), ...Object.keys(query), ...Object.keys(body ?? {})];
  const found =
    candidates.find(({ route }) => names.every((name) => route.arguments.some((argument) => argument.name === name))) ?? candidates[0];
  if (!found) {
    console.log(`${task.id}: no route for ${method} ${template}`);
    continue;
  }
  const args = found.action ? { action: found.action } : {};
  const byName = (where, name) => found.route.arguments.find((argument) => argument.in === where && argument.name === name)?.arg;
  for (const [name, value] of Object.entries(pathParams)) args[byName('path', name) ?? name] = value;
  for (const [name, value] of Object.entries(query)) args[byName('query', name) ?? name] = value;
  if (body !== undefined) {
    const whole = found.route.arguments.find((argument) => argument.in === 'body-whole');
    if (whole) args[whole.arg] = body;
    else for (const [name, value] of Object.entries(body)) args[byName('body', name) ?? name] = value;
  }
  for (const name of found.route.required) if (!(name in args)) args[name] = /^from$/i.test(name) ? 'eval@example.com' : 'x';
  answers[task.id] = { tool: found.tool, arguments: args };
}
const work = path.join(WORK, 'reachable', `${meta.label}-${path.basename(folder)}`);
writeJson(path.join(work, 'answers.json'), answers);
const scored = spawnSync(
  process.execPath,
  [path.join(EVAL_DIR, 'score.mjs'), folder, path.join(work, 'answers.json'), '--mode', 'full', '--out', path.join(work, 'score.json')],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
if (scored.status !== 0) fail(`score.mjs exited with ${scored.status}`);
const result = readJson(path.join(work, 'score.json'));
for (const verdict of result.verdicts)
  if (!verdict.rightArguments || verdict.error) console.log(`${verdict.id}: ${verdict.problem ?? 'error'}`);
console.log(
  `${meta.api}: ${result.totals.rightArguments} / ${result.totals.requests} truths reached with right arguments, ${result.totals.errors} errors`,
);
process.exitCode = result.totals.rightArguments === result.totals.requests && result.totals.errors === 0 ? 0 : 1;
