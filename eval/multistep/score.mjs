#!/usr/bin/env node
// Scores the sessions of a run from the requests that reached the scripted upstream (no model needed): per task,
// completed or not (lib/verdict.mjs says when), calls, errors, and why not. Copies each answerer's DONE.md from its
// handout folder into the session as done.md. Writes <session>/score.json and the run's score.json, prints a table.
//
//   node eval/multistep/score.mjs <run-folder> [task-id …]     (default: every session in the run)
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { REPO, fail } from '../lib/apis.mjs';
import { commitMeasured, readJson, runName, writeJson } from '../lib/run-folder.mjs';
import { RUN_FILES, SESSION_FILES, readCalls, readOverLimit, readSession } from './lib/session.mjs';
import { verdictOf } from './lib/verdict.mjs';
import { loadWorld } from './lib/world.mjs';

const [runArg, ...only] = process.argv.slice(2);
if (!runArg) fail('usage: node eval/multistep/score.mjs <run-folder> [task-id …]');
const runFolder = path.resolve(runArg);
const meta = readJson(path.join(runFolder, RUN_FILES.meta));
if (meta.skipped) fail(`${runArg} was not prepared: ${meta.skipped}`);
const sessions = readdirSync(runFolder, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(runFolder, entry.name, SESSION_FILES.session)))
  .map((entry) => entry.name)
  .filter((name) => only.length === 0 || only.includes(name))
  .sort();
if (sessions.length === 0) fail(`no sessions${only.length ? ` of ${only.join(', ')}` : ''} in ${runArg}; make them with handout.mjs`);

const verdicts = [];
for (const name of sessions) {
  const dir = path.join(runFolder, name);
  const session = readSession(dir);
  const done = path.join(REPO, session.handout, 'DONE.md');
  if (existsSync(done)) copyFileSync(done, path.join(dir, SESSION_FILES.done));
  const world = await loadWorld(session.api, session.task);
  const verdict = {
    session: name,
    ...verdictOf(world, readCalls(dir), readOverLimit(dir).length),
    done: existsSync(path.join(dir, SESSION_FILES.done)),
  };
  writeJson(path.join(dir, SESSION_FILES.score), { scored: new Date().toISOString(), scorerCommit: commitMeasured().commit, ...verdict });
  verdicts.push(verdict);
}

const all = readdirSync(runFolder, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(runFolder, entry.name, SESSION_FILES.score)))
  .map((entry) => readJson(path.join(runFolder, entry.name, SESSION_FILES.score)));
const sum = (key) => all.reduce((total, verdict) => total + verdict[key], 0);
const totals = {
  tasks: all.length,
  completed: all.filter((verdict) => verdict.completed).length,
  calls: sum('calls'),
  callsOfCompleted: all.filter((verdict) => verdict.completed).reduce((total, verdict) => total + verdict.calls, 0),
  minimumCallsOfCompleted: all.filter((verdict) => verdict.completed).reduce((total, verdict) => total + verdict.minimumCalls, 0),
  errors: sum('errors'),
  toolErrors: sum('toolErrors'),
  apiRefusals: sum('apiRefusals'),
  overLimit: sum('overLimit'),
  unscripted: sum('unscripted'),
};
writeJson(path.join(runFolder, SESSION_FILES.score), {
  api: meta.api,
  strategy: meta.strategy,
  label: meta.label,
  generatorCommit: meta.generatorCommit,
  totals,
});

console.log(
  `| ${meta.label}/${runName(meta.api, meta.strategy)} | session | completed | calls (shortest) | errors | unscripted | why not |`,
);
console.log('|---|---|---|---:|---:|---:|---|');
for (const verdict of verdicts) {
  console.log(
    `| | ${verdict.session} | ${verdict.completed ? 'yes' : 'no'} | ${verdict.calls} (${verdict.minimumCalls}) | ${verdict.errors} | ${verdict.unscripted} | ${verdict.reasons.join('; ').replace(/\|/g, '\\|')} |`,
  );
}
console.log(
  `${totals.completed} of ${totals.tasks} tasks completed, ${totals.calls} calls, ${totals.errors} with errors (all sessions scored in this run)`,
);
