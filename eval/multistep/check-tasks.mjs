#!/usr/bin/env node
// Checks the multi-step tasks against the description by program, as eval/check-truth.mjs does for first calls:
//   - every operation a rule, an expectation or a solution names exists, and every argument it names is one of that
//     operation's query, form or body arguments;
//   - every scripted body, every common rule and the API's answer to an unscripted request of each of the
//     description's operations has the operation's response shape (lib/shape.mjs);
//   - the request copies no operationId, summary or compound path segment of the operations it needs;
//   - the solution and every other right sequence (`alsoRight`, and `verified`: ones that read their work back),
//     replayed request by request against the script, are answered by the script (refused only where a step says so,
//     with bodies of the right shape once filled) and score as completed in as many calls as they have steps; none is
//     shorter than the solution;
//   - a read that names facts (`shows`, `hides`) has them once the writes before it were accepted, and not in the world
//     before any write: the script shows the writes' effect, so a model that checks its work sees it done.
// Exit 1 when anything is flagged.
//
//   node eval/multistep/check-tasks.mjs [api …]     (default: every API with multi-step tasks)
import { copiedWords } from '../lib/copied-words.mjs';
import { collectProperties } from '../lib/schema-check.mjs';
import { factProblems } from './lib/match.mjs';
import { responseProblems } from './lib/shape.mjs';
import { recordOf } from './lib/upstream.mjs';
import { verdictOf } from './lib/verdict.mjs';
import { MULTISTEP_APIS, loadApiDescription, loadTaskModule } from './lib/world.mjs';

const ids = process.argv.slice(2).length > 0 ? process.argv.slice(2) : MULTISTEP_APIS;
let flagged = 0;
for (const id of ids) {
  const description = await loadApiDescription(id);
  const { api, tasks } = await loadTaskModule(id);
  const byKey = new Map(description.operations.map((operation) => [operation.key, operation]));
  const problems = [];
  const flag = (where, problem) => problems.push(`${where}: ${problem}`);
  const argumentNames = (key) => {
    const operation = byKey.get(key);
    const names = operation.parameters
      .filter((parameter) => !['header', 'path', 'body'].includes(parameter.in))
      .map((parameter) => parameter.name);
    return new Set([...names, ...Object.keys(operation.body?.schema ? collectProperties(description.doc, operation.body.schema) : {})]);
  };
  const checkNamed = (where, key, names = []) => {
    if (!byKey.has(key)) return flag(where, `no operation ${key}`);
    const known = argumentNames(key);
    for (const name of names) if (!known.has(name)) flag(where, `${name} is no argument of ${key}`);
  };
  const checkBody = (where, key, status, body, options) => {
    const raw = description.rawOperations.get(key);
    if (!raw) return;
    for (const problem of responseProblems(description.doc, raw, status, body, options).slice(0, 3)) flag(where, problem);
  };

  for (const key of api.getWrites) checkNamed(`${id} getWrites`, key);
  for (const [key, raw] of description.rawOperations) checkBody(`${id} unscripted ${key}`, key, 200, api.unscripted(raw).body);
  api.common.forEach((rule, index) => {
    checkNamed(`${id} common ${index}`, rule.op, Object.keys(rule.params ?? {}));
    checkBody(`${id} common ${index} (${rule.op})`, rule.op, rule.status ?? 200, rule.body, { placeholders: true });
  });

  const seen = new Set();
  for (const task of tasks) {
    const where = task.id;
    const before = problems.length;
    if (seen.has(task.id)) flag(where, 'id repeated');
    seen.add(task.id);
    if (typeof task.request !== 'string' || task.request.length < 10) flag(where, 'request text missing');
    if (!Array.isArray(task.kind) || task.kind.length === 0) flag(where, 'kind missing');
    if (task.solution.length < 2 || task.solution.length > 4) flag(where, `the solution takes ${task.solution.length} calls, not 2–4`);
    task.script.forEach((rule, index) => {
      checkNamed(`${where} script ${index}`, rule.op, Object.keys(rule.params ?? {}));
      for (const condition of rule.after ?? [])
        checkNamed(`${where} script ${index} after`, condition.op, Object.keys(condition.params ?? {}));
      checkBody(`${where} script ${index} (${rule.op})`, rule.op, rule.status ?? 200, rule.body, { placeholders: true });
    });
    for (const [key, fallback] of Object.entries(task.fallbacks ?? {}))
      checkBody(`${where} fallback ${key}`, key, fallback.status ?? 200, fallback.body);
    for (const group of ['writes', 'allowed', 'forbidden']) {
      (task.expect[group] ?? []).forEach((entry, index) => {
        checkNamed(`${where} expect.${group} ${index}`, entry.op, [...Object.keys(entry.params ?? {}), ...(entry.served ?? [])]);
        if (group !== 'allowed' && typeof entry.why !== 'string') flag(`${where} expect.${group} ${index}`, 'says no why');
      });
    }
    if (task.expect.writes.length === 0) flag(where, 'requires no write');
    const sequences = [
      [task.solution, 'solution'],
      ...(task.alsoRight ?? []).map((steps, index) => [steps, `alsoRight ${index + 1}`]),
      ...(task.verified ?? []).map((steps, index) => [steps, `verified ${index + 1}`]),
    ];
    (task.verified ?? []).forEach((steps, index) => {
      if (!steps.some((step) => step.shows || step.hides)) flag(`${where} verified ${index + 1}`, 'reads back no fact');
    });
    for (const step of sequences.flatMap(([steps]) => steps)) {
      checkNamed(`${where} solution`, step.op, Object.keys(step.args));
      const operation = byKey.get(step.op);
      if (operation) for (const copied of copiedWords(task.request, operation)) flag(where, copied);
    }
    if (problems.length === before) sequences.forEach(([steps, name]) => replay(task, steps, name));
  }

  function replay(task, steps, name) {
    const world = { ...description, api, task };
    const calls = [];
    steps.forEach((step, index) => {
      const record = recordOf(
        world,
        simulatedRequest(step),
        calls.flatMap((call) => call.upstream),
      );
      const where = `${task.id} ${name} ${index + 1} (${step.op})`;
      if (!/^(script|common) /.test(record.rule)) flag(where, `answered by ${record.rule}: ${JSON.stringify(record.response.body)}`);
      if (api.refused(record.response) !== (step.refused === true))
        flag(where, `${step.refused ? 'meant to be refused, accepted' : 'refused'}: ${JSON.stringify(record.response.body)}`);
      checkBody(where, step.op, record.response.status, record.response.body);
      if (step.shows || step.hides) {
        for (const problem of factProblems(record.response.body, step)) flag(where, problem);
        const unwritten = recordOf(world, simulatedRequest(step), []);
        if (factProblems(unwritten.response.body, step).length === 0) flag(where, 'shows the same before any write: it checks nothing');
      }
      calls.push({ response: { result: { isError: false } }, upstream: [record] });
    });
    const verdict = verdictOf(world, calls);
    if (!verdict.completed) flag(`${task.id} ${name}`, `does not score as completed: ${verdict.reasons.join('; ')}`);
    if (verdict.calls !== steps.length) flag(`${task.id} ${name}`, `scores ${verdict.calls} calls for ${steps.length} steps`);
    if (steps.length < task.solution.length) flag(`${task.id} ${name}`, 'is shorter than the solution, which must be a shortest one');
  }

  for (const problem of problems) console.log(`  FLAG ${problem}`);
  flagged += problems.length;
  const calls = tasks.map((task) => task.solution.length);
  console.log(
    `${id}: ${tasks.length} tasks, ${calls.reduce((a, b) => a + b, 0)} calls in their shortest solutions (${Math.min(...calls)}–${Math.max(...calls)} each), ${description.rawOperations.size} unscripted answers checked, ${problems.length} flagged`,
  );
}
process.exitCode = flagged > 0 ? 1 : 0;

/** A request as the generated server would send the step: a GET's arguments in the query, a POST's as a form. */
function simulatedRequest(step) {
  const [method, path] = step.op.split(' ');
  const text = (value) => (Array.isArray(value) ? value.join(',') : String(value));
  const pairs = Object.entries(step.args).map(([key, value]) => [key, text(value)]);
  const form = new URLSearchParams(pairs).toString();
  if (method === 'GET') return { method, url: `${path}${form ? `?${form}` : ''}`, contentType: '', body: Buffer.alloc(0) };
  return { method, url: path, contentType: 'application/x-www-form-urlencoded', body: Buffer.from(form) };
}
