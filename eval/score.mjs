#!/usr/bin/env node
// Scores a model's first calls (no model needed).
//
// full:  starts the run's generated server over stdio, its base URL pointed at a recording upstream on 127.0.0.1,
//        sends each answer as tools/call, resolves the first recorded request to an operation of the description and
//        scores right operation / right arguments / error.
// names: a choice is right when it names the tool that holds the truth's operation (from the run's plan.json).
//
//   node eval/score.mjs <run-folder> <answers.json> --mode full|names [--out FILE] [--tasks FILE]
// --tasks scores against another task list than eval/tasks/<set>/<api>.json (the self-test's cases).
// Answers: { "<id>": { "tool": "...", "arguments": { ... } } } (names mode needs only "tool").
// Writes score.<mode>.json into the run folder (or --out) and prints one markdown line.
import path from 'node:path';
import { REPO, descriptionFile, fail, loadTasks, parseArgs } from './lib/apis.mjs';
import { listOperations, loadDescription, resolveRequest } from './lib/description.mjs';
import { pathDifference, queryDifference, subsetDifference } from './lib/compare.mjs';
import { decodeRequest, startRecorder } from './lib/recorder.mjs';
import { FILES, commitMeasured, readJson, runName, sha256, writeJson } from './lib/run-folder.mjs';
import { buildServer, connect, exactToolsList, serverEnv, serverReady } from './lib/server.mjs';
import { readFileSync } from 'node:fs';

const CALL_TIMEOUT_MS = 30_000;

const { options, positional } = parseArgs(process.argv.slice(2), { mode: 'value', out: 'value', tasks: 'value' });
const [folderArg, answersArg] = positional;
const mode = options.mode;
if (!folderArg || !answersArg || !['full', 'names'].includes(mode ?? '')) {
  fail('usage: node eval/score.mjs <run-folder> <answers.json> --mode full|names [--out FILE]');
}
const folder = path.resolve(folderArg);
const meta = readJson(path.join(folder, FILES.meta));
if (meta.skipped) fail(`${folderArg} was not prepared: ${meta.skipped}`);
const answers = readJson(path.resolve(answersArg));
if (!answers || typeof answers !== 'object' || Array.isArray(answers)) fail('the answers must be one JSON object keyed by request id');
const tasks = options.tasks ? readJson(path.resolve(options.tasks)) : loadTasks(meta.api);
const unknown = Object.keys(answers).filter((id) => !tasks.some((task) => task.id === id));
if (unknown.length > 0) console.error(`note: answers for unknown ids ignored: ${unknown.join(', ')}`);

const verdicts = mode === 'names' ? scoreNames() : await scoreFull();
const totals = totalsOf(verdicts);
const markdown = markdownLine(totals);
const out = options.out ? path.resolve(options.out) : path.join(folder, `score.${mode}.json`);
writeJson(out, {
  api: meta.api,
  strategy: meta.strategy,
  label: meta.label,
  mode,
  runCommit: meta.commit,
  generatorCommit: meta.generatorCommit,
  scorerCommit: commitMeasured().commit,
  answers: path.relative(folder, path.resolve(answersArg)),
  scored: new Date().toISOString(),
  totals,
  markdown,
  verdicts,
});
console.log(markdown);

function scoreNames() {
  const plan = readJson(path.join(folder, FILES.plan));
  const toolsByOperation = new Map();
  for (const tool of plan.tools) {
    for (const operation of tool.operations) {
      const key = `${operation.method.toUpperCase()} ${operation.path.replace(/#.*$/, '')}`;
      toolsByOperation.set(key, [...(toolsByOperation.get(key) ?? []), tool.name]);
    }
  }
  return tasks.map((task) => {
    const expected = [...new Set(toolsByOperation.get(truthKey(task)) ?? [])];
    if (expected.length === 0) fail(`${task.id}: the plan holds no tool for ${truthKey(task)}`);
    const chosen = answers[task.id]?.tool;
    return { id: task.id, tool: chosen ?? null, expected, right: typeof chosen === 'string' && expected.includes(chosen) };
  });
}

async function scoreFull() {
  const spec = await descriptionFile(meta.api);
  if (sha256(readFileSync(spec)) !== meta.descriptionSha256) {
    console.error(`note: ${path.basename(spec)} differs from the description the run was prepared with`);
  }
  const operations = listOperations(loadDescription(spec));
  const serverDir = path.join(REPO, meta.server);
  if (!serverReady(serverDir)) {
    console.error(`the server of this run is not built here: rebuilding ${meta.server} with the current generator`);
    buildServer(spec, serverDir, meta.strategy);
  }
  const recorder = await startRecorder();
  const connection = await connect(serverDir, serverEnv(serverDir, recorder.url));
  const verdicts = [];
  try {
    const listed = await exactToolsList(connection);
    if (sha256(`${JSON.stringify(listed.result, null, 2)}\n`) !== meta.toolsSha256) {
      fail(`the server's tools/list differs from the one this run showed the model (commit ${meta.commit}); rebuild at that commit`);
    }
    for (const task of tasks) verdicts.push(await scoreOne(task, connection, recorder, operations));
  } finally {
    await connection.close();
    await recorder.close();
  }
  return verdicts;
}

async function scoreOne(task, connection, recorder, operations) {
  const answer = answers[task.id];
  const verdict = { id: task.id, tool: answer?.tool ?? null, action: answer?.arguments?.action ?? null };
  const wrong = (error, problem, extra = {}) => ({ ...verdict, rightOperation: false, rightArguments: false, error, problem, ...extra });
  if (!answer || typeof answer.tool !== 'string') return wrong(true, 'no answer');
  recorder.take();
  let result;
  let protocolError;
  try {
    result = await connection.client.callTool({ name: answer.tool, arguments: answer.arguments ?? {} }, { timeout: CALL_TIMEOUT_MS });
  } catch (error) {
    protocolError = error instanceof Error ? error.message : String(error);
  }
  const [first] = recorder.take();
  const isError = protocolError !== undefined || result?.isError === true || !first;
  const errorText = protocolError ?? (result?.isError ? textOf(result).slice(0, 300) : undefined);
  if (!first) return wrong(true, errorText ? `no request: ${errorText}` : 'no request');
  const sent = decodeRequest(first);
  const resolved = resolveRequest(operations, sent.method, sent.path);
  const operation = resolved ? `${resolved.operation.method} ${resolved.operation.path}` : null;
  const record = { ...verdict, sent: { method: sent.method, path: sent.path, query: sent.query, body: sent.body }, operation };
  const rightOperation = operation === truthKey(task);
  const problem = !resolved
    ? `${sent.method} ${sent.path} is no operation of the description`
    : !rightOperation
      ? `operation ${operation}, expected ${truthKey(task)}`
      : (pathDifference(task.truth.pathParams, resolved.pathParams) ??
        queryDifference(task.truth.query, sent.query) ??
        (task.truth.body === undefined ? undefined : subsetDifference(task.truth.body, sent.body ?? {}, 'body')));
  return {
    ...record,
    rightOperation,
    rightArguments: rightOperation && problem === undefined,
    error: isError,
    ...(problem || errorText ? { problem: [problem, errorText && `error: ${errorText}`].filter(Boolean).join('; ') } : {}),
  };
}

function truthKey(task) {
  return `${task.truth.method.toUpperCase()} ${task.truth.path}`;
}

function textOf(result) {
  return (result.content ?? []).map((block) => block.text ?? '').join(' ');
}

function totalsOf(list) {
  if (mode === 'names') return { requests: list.length, right: list.filter((v) => v.right).length };
  return {
    requests: list.length,
    rightOperation: list.filter((v) => v.rightOperation).length,
    rightArguments: list.filter((v) => v.rightArguments).length,
    errors: list.filter((v) => v.error).length,
  };
}

function markdownLine(t) {
  const run = `${meta.label}/${runName(meta.api, meta.strategy)}`;
  if (mode === 'names') return `| ${run} | names | name-only right ${t.right} / ${t.requests} |`;
  return `| ${run} | full | right operation ${t.rightOperation} / ${t.requests} | right arguments ${t.rightArguments} / ${t.requests} | errors ${t.errors} |`;
}
