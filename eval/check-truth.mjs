#!/usr/bin/env node
// Checks every ground truth against its description: the operation exists; every path parameter of the template has
// a value and no other is given; every query key and body field exists; values fit declared types, enums and
// patterns. Also checks the request text does not copy the operationId, the summary or a compound path segment.
// Missing required query keys or body fields are reported as notes. Exit 1 when any truth is flagged.
//
//   node eval/check-truth.mjs [api …]        (default: every API)
import { apiIds, descriptionFile, loadTasks, tasksFile } from './lib/apis.mjs';
import { listOperations, loadDescription, pathVariables } from './lib/description.mjs';
import { collectProperties, requiredProperties, valueProblems } from './lib/schema-check.mjs';
import { copiedWords } from './lib/copied-words.mjs';
import path from 'node:path';

const METHODS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);
/** What a request asks for; RPC APIs (all POST) make the method say little, so each task names its kind. */
const KINDS = new Set(['read', 'filtered read', 'create', 'update', 'delete']);
const ids = process.argv.slice(2).length > 0 ? process.argv.slice(2) : apiIds();
let flagged = 0;
let total = 0;
for (const api of ids) {
  const doc = loadDescription(await descriptionFile(api));
  const operations = listOperations(doc);
  const tasks = loadTasks(api);
  const seen = new Set();
  let apiFlagged = 0;
  const kinds = {};
  for (const task of tasks) {
    total++;
    const { problems, notes, kind } = checkTask(doc, operations, task, seen);
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    for (const note of notes) console.log(`  note ${task.id}: ${note}`);
    if (problems.length === 0) continue;
    apiFlagged++;
    for (const problem of problems) console.log(`  FLAG ${task.id}: ${problem}`);
  }
  flagged += apiFlagged;
  const spread = Object.entries(kinds)
    .map(([kind, count]) => `${count} ${kind}`)
    .join(', ');
  console.log(`${api}: ${tasks.length} tasks (${spread}), ${apiFlagged} flagged — ${path.relative(process.cwd(), tasksFile(api))}`);
}
console.log(`${total} truths checked, ${flagged} flagged`);
process.exitCode = flagged > 0 ? 1 : 0;

function checkTask(doc, operations, task, seen) {
  const problems = [];
  const notes = [];
  const truth = task.truth ?? {};
  if (typeof task.id !== 'string' || seen.has(task.id)) problems.push(`id missing or repeated`);
  seen.add(task.id);
  if (typeof task.request !== 'string' || task.request.trim().length < 10) problems.push('request text missing');
  if (!KINDS.has(task.kind)) problems.push(`kind ${task.kind} is not one of ${[...KINDS].join(', ')}`);
  const method = String(truth.method ?? '').toUpperCase();
  if (!METHODS.has(method)) problems.push(`method ${truth.method} is not an HTTP method`);
  const candidates = operations.filter((operation) => operation.method === method && operation.path === truth.path);
  if (candidates.length === 0) return { problems: [...problems, `no operation ${method} ${truth.path}`], notes, kind: kindOf(task) };
  // Box keeps several operations on one method and path (a #fragment tells them apart): the truth fits when it fits one.
  const results = candidates.map((operation) => checkAgainst(doc, operation, task, truth));
  const best = results.sort((a, b) => a.problems.length - b.problems.length)[0];
  return { problems: [...problems, ...best.problems], notes: best.notes, kind: kindOf(task) };
}

function checkAgainst(doc, operation, task, truth) {
  const problems = [];
  const notes = [];
  const variables = pathVariables(operation.path);
  const given = truth.pathParams ?? {};
  for (const name of variables) {
    if (!(name in given) || String(given[name]).trim() === '') problems.push(`path {${name}} has no value`);
  }
  for (const [name, value] of Object.entries(given)) {
    if (!variables.includes(name)) {
      problems.push(`path parameter ${name} is not in ${operation.path}`);
      continue;
    }
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
    if (parameter) problems.push(...valueProblems(doc, parameter.schema, value, `path {${name}}`));
  }
  const queryParameters = operation.parameters.filter((p) => p.in === 'query');
  for (const [key, value] of Object.entries(truth.query ?? {})) {
    const parameter = queryParameters.find((p) => p.name === key);
    if (!parameter) problems.push(`query ${key} is not a query parameter of ${operation.key}`);
    else problems.push(...valueProblems(doc, parameter.schema, value, `query ${key}`));
  }
  for (const parameter of queryParameters) {
    if (parameter.required && !(parameter.name in (truth.query ?? {})) && parameter.name !== 'token') {
      notes.push(`required query ${parameter.name} not in the truth`);
    }
  }
  if (truth.body !== undefined) {
    if (!operation.body?.schema) problems.push(`${operation.key} takes no request body`);
    else problems.push(...valueProblems(doc, operation.body.schema, truth.body, 'body'));
  }
  if (operation.body?.schema) {
    const properties = collectProperties(doc, operation.body.schema);
    for (const name of requiredProperties(doc, operation.body.schema)) {
      if (name in properties && !(name in (truth.body ?? {})) && name !== 'token')
        notes.push(`required body field ${name} not in the truth`);
    }
  }
  problems.push(...copiedWords(task.request, operation));
  return { problems, notes };
}

function kindOf(task) {
  const body = task.truth?.body;
  const nested = body && Object.values(body).some((value) => value && typeof value === 'object' && !Array.isArray(value));
  return nested ? `${task.kind} (nested body)` : task.kind;
}
