#!/usr/bin/env node
// Hands one task of a prepared run to one fresh answerer: makes the session folder in the run
// (runs/<label>/<run>/<task>/) and, in an empty folder outside the repository, PROMPT.md with the user's request and
// exactly two commands: `./tools [page]` prints the server's tool list, `./call <tool> '<JSON>'` makes one tools/call.
// Start a fresh model session in that folder and give it PROMPT.md; then score the run with score.mjs.
//
//   node eval/multistep/handout.mjs <run-folder> <task-id> <empty-folder> [--session NAME] [--replace]
//   node eval/multistep/handout.mjs <run-folder> --all <parent-folder> [--replace]     every task, <parent>/<task-id>
// --session names the session folder (default: the task id), for a second answerer on the same task;
// --replace throws away an earlier session of that name in this run (its calls and score) and starts a new one.
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO, fail, parseArgs } from '../lib/apis.mjs';
import { readJson, writeJson } from '../lib/run-folder.mjs';
import { MAX_CALLS, RUN_FILES, SESSION_FILES } from './lib/session.mjs';
import { MULTISTEP_DIR, loadTaskModule, loadWorld } from './lib/world.mjs';

const USAGE =
  'usage: node eval/multistep/handout.mjs <run-folder> <task-id> <empty-folder> [--session NAME] [--replace]\n' +
  '       node eval/multistep/handout.mjs <run-folder> --all <parent-folder> [--replace]';
const { options, positional } = parseArgs(process.argv.slice(2), { replace: 'flag', session: 'value', all: 'flag' });
const runArg = positional[0];
if (!runArg || positional.length !== (options.all ? 2 : 3)) fail(USAGE);
const runFolder = path.resolve(runArg);
const meta = readJson(path.join(runFolder, RUN_FILES.meta));
if (meta.skipped) fail(`${runArg} was not prepared: ${meta.skipped}`);
if (options.all) {
  if (options.session) fail('--session names one session; it does not go with --all');
  for (const task of (await loadTaskModule(meta.api)).tasks)
    await handOut(task.id, path.join(path.resolve(positional[1]), task.id), task.id);
} else {
  await handOut(positional[1], path.resolve(positional[2]), options.session ?? positional[1]);
}

async function handOut(taskId, target, sessionName) {
  const world = await loadWorld(meta.api, taskId);
  if (!path.relative(REPO, target).startsWith('..'))
    fail('the folder must be outside the repository, so that the answerer cannot find the scripts and expectations');
  if (existsSync(target) && readdirSync(target).length > 0) fail(`${target} is not empty`);
  if (!/^[A-Za-z0-9._-]+$/.test(sessionName) || ['.', '..'].includes(sessionName))
    fail('--session takes letters, digits, ".", "_" and "-" only');
  const sessionDir = path.join(runFolder, sessionName);
  if (existsSync(path.join(sessionDir, SESSION_FILES.session))) {
    if (!options.replace)
      fail(`${path.relative(process.cwd(), sessionDir)} holds a session already; --replace starts it afresh (its calls are lost)`);
    rmSync(sessionDir, { recursive: true, force: true });
  }
  mkdirSync(sessionDir, { recursive: true });
  // Paths relative to the repository: a session is committed, and no path of this machine goes into the repository.
  writeJson(path.join(sessionDir, SESSION_FILES.session), {
    api: meta.api,
    strategy: meta.strategy,
    label: meta.label,
    task: taskId,
    run: path.relative(REPO, runFolder),
    server: meta.server,
    toolsSha256: meta.toolsSha256,
    handout: path.relative(REPO, target),
    created: new Date().toISOString(),
    maxCalls: MAX_CALLS,
  });

  mkdirSync(target, { recursive: true });
  const desk = path.join(MULTISTEP_DIR, 'desk.mjs');
  const script = (comment, command) =>
    `#!/bin/sh\n# ${comment}\nexec ${quote(process.execPath)} ${quote(desk)} ${command} ${quote(sessionDir)} "$@"\n`;
  writeFileSync(path.join(target, 'tools'), script("Prints the MCP server's tool list, one page at a time: ./tools [page]", 'tools'));
  writeFileSync(
    path.join(target, 'call'),
    script("Makes one tools/call: ./call <tool> '<JSON arguments>' (or - to read them from standard input)", 'call'),
  );
  chmodSync(path.join(target, 'tools'), 0o755);
  chmodSync(path.join(target, 'call'), 0o755);
  writeFileSync(path.join(target, 'PROMPT.md'), prompt(world.task.request));
  console.log(`${target}: PROMPT.md, tools, call — session ${path.relative(process.cwd(), sessionDir)}`);
}

function quote(text) {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function prompt(request) {
  return `# Task

You are an assistant connected to an MCP server that offers the tools of a web API. A user typed this request:

> ${request}

Carry it out with the server's tools. This folder holds exactly two commands for that:

- \`./tools [page]\` prints the server's complete \`tools/list\` result (every tool with its name, title, description
  and input schema) as pretty-printed JSON, one page at a time; each page says how many there are.
- \`./call <tool> '<JSON arguments>'\` makes one \`tools/call\` and prints what the server returned: \`isError\` and the
  result text. \`./call <tool> -\` reads the JSON arguments from standard input instead.

Rules:

1. First read the whole tool list, every page, before your first call.
2. Use only these two commands. Read no other file, do not look inside the commands, and do not search or browse.
3. Make one call at a time and read its result before you decide the next one.
4. You have at most ${MAX_CALLS} calls; a call after that is refused.
5. Do what the user asked and nothing else. Nobody will answer questions: where the request leaves something open,
   find it out with the tools, or do what the user most likely meant.
6. When you are done, or cannot go on, write \`DONE.md\` in this folder: one or two sentences saying what you did, or
   why you could not.
`;
}
