#!/usr/bin/env node
// The answerer's two commands, behind the `tools` and `call` scripts of a handout folder. Each starts the run's
// generated server over stdio (the official client drives it) against the task's scripted upstream, whose answers
// depend on the session's earlier calls, and ends it again: nothing runs between calls.
//
//   node eval/multistep/desk.mjs tools <session> [page]          the exact tools/list result, pretty-printed, in pages
//   node eval/multistep/desk.mjs call <session> <tool> [json|-]  one tools/call; the result text and isError
//
// A call is refused once the session has made MAX_CALLS (8); two calls of one session never run at once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from '../lib/apis.mjs';
import { sha256 } from '../lib/run-folder.mjs';
import { connect, exactToolsList, serverEnv, serverReady } from '../lib/server.mjs';
import { MAX_CALLS, appendCall, appendOverLimit, readCalls, readSession, withSessionLock } from './lib/session.mjs';
import { startUpstream } from './lib/upstream.mjs';
import { loadWorld } from './lib/world.mjs';

/** Characters per page of the tool list: well under what shells and model harnesses cut a command's output at. */
const PAGE_CHARS = 20_000;
const CALL_TIMEOUT_MS = 60_000;

const [command, sessionArg, ...rest] = process.argv.slice(2);
if (!['tools', 'call'].includes(command ?? '') || !sessionArg) usage();
const dir = path.resolve(sessionArg);
const session = readSession(dir);
const serverDir = path.join(REPO, session.server);
if (!serverReady(serverDir))
  operatorProblem(`the server ${session.server} is not built; run eval/multistep/prepare.mjs for this run again`);

if (command === 'tools') await printTools(rest[0]);
else await withSessionLock(dir, () => makeCall(rest[0], rest[1]));

async function printTools(pageArg) {
  const connection = await connect(serverDir, serverEnv(serverDir, 'http://127.0.0.1:9'));
  let text;
  try {
    text = `${JSON.stringify((await exactToolsList(connection)).result, null, 2)}\n`;
  } finally {
    await connection.close();
  }
  if (sha256(text) !== session.toolsSha256)
    operatorProblem('the server now lists other tools than the run was prepared with; prepare the run again');
  const pages = paginate(text);
  const number = pageArg === undefined ? 1 : Number(pageArg);
  if (!Number.isInteger(number) || number < 1 || number > pages.length) {
    console.error(`There are ${pages.length} pages: ./tools 1 … ./tools ${pages.length}.`);
    process.exit(2);
  }
  const page = pages[number - 1];
  const next = number < pages.length ? ` Next: ./tools ${number + 1}` : ' This is the last page.';
  console.log(`--- tools/list result, page ${number} of ${pages.length} (lines ${page.first}–${page.last} of ${page.total}).${next} ---`);
  process.stdout.write(page.text);
  console.log(`--- end of page ${number} of ${pages.length}.${next} ---`);
}

/** Pages of at most PAGE_CHARS characters, cut between lines. */
function paginate(text) {
  const lines = text.split('\n').slice(0, -1);
  const pages = [];
  let current = [];
  let size = 0;
  let first = 1;
  lines.forEach((line, index) => {
    if (size + line.length + 1 > PAGE_CHARS && current.length > 0) {
      pages.push({ text: `${current.join('\n')}\n`, first, last: index });
      current = [];
      size = 0;
      first = index + 1;
    }
    current.push(line);
    size += line.length + 1;
  });
  pages.push({ text: `${current.join('\n')}\n`, first, last: lines.length });
  return pages.map((page) => ({ ...page, total: lines.length }));
}

async function makeCall(tool, argumentText) {
  if (!tool) usage();
  const args = parseArguments(argumentText === '-' ? readFileSync(0, 'utf8') : (argumentText ?? '{}'));
  const calls = readCalls(dir);
  if (calls.length >= MAX_CALLS) {
    appendOverLimit(dir, { at: new Date().toISOString(), tool, arguments: args });
    console.log(`Refused: this task allows ${MAX_CALLS} calls and all ${MAX_CALLS} are made. Make no more calls; write DONE.md.`);
    process.exitCode = 3;
    return;
  }
  const world = await loadWorld(session.api, session.task);
  const upstream = await startUpstream(
    world,
    calls.flatMap((call) => call.upstream),
  );
  const started = Date.now();
  let response;
  try {
    const connection = await connect(serverDir, serverEnv(serverDir, upstream.url));
    try {
      // The call must reach the server whose list the answerer read: a run prepared again in between is refused.
      if (sha256(`${JSON.stringify((await exactToolsList(connection)).result, null, 2)}\n`) !== session.toolsSha256) {
        operatorProblem('the server now lists other tools than the run was prepared with; prepare the run again');
      }
      const before = connection.raw.length;
      let thrown;
      await connection.client.callTool({ name: tool, arguments: args }, { timeout: CALL_TIMEOUT_MS }).catch((error) => (thrown = error));
      response = connection.raw
        .slice(before)
        .filter((message) => 'id' in message && ('result' in message || 'error' in message))
        .at(-1) ?? { error: { code: 'no-response', message: thrown instanceof Error ? thrown.message : String(thrown) } };
    } finally {
      await connection.close();
    }
  } finally {
    await upstream.close();
  }
  const number = calls.length + 1;
  appendCall(dir, {
    n: number,
    at: new Date().toISOString(),
    ms: Date.now() - started,
    tool,
    arguments: args,
    response,
    upstream: upstream.records,
  });
  console.log(`[call ${number} of at most ${MAX_CALLS}]`);
  if (response.error) {
    console.log(`protocol error ${response.error.code}: ${response.error.message}`);
    return;
  }
  console.log(`isError: ${response.result.isError === true}`);
  for (const block of response.result.content ?? []) console.log(blockText(block));
}

function parseArguments(text) {
  let args;
  try {
    args = JSON.parse(text);
  } catch (error) {
    console.error(`The arguments are not JSON (${error.message}). No call was made. Example: ./call <tool> '{"name": "value"}'`);
    process.exit(2);
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) {
    console.error('The arguments must be one JSON object. No call was made.');
    process.exit(2);
  }
  return args;
}

function blockText(block) {
  if (block.type === 'text') return block.text;
  if (block.type === 'image' || block.type === 'audio')
    return `[${block.type} content, ${block.mimeType}, ${Buffer.from(block.data ?? '', 'base64').length} bytes]`;
  if (block.type === 'resource') return `[resource ${block.resource?.uri ?? ''}]${block.resource?.text ? `\n${block.resource.text}` : ''}`;
  if (block.type === 'resource_link') return `[resource link ${block.uri}]`;
  return JSON.stringify(block);
}

function usage() {
  console.error("usage: tools [page] | call <tool> '<JSON arguments>' (or - to read them from standard input)");
  process.exit(2);
}

/** Something only the person running the evaluation can fix: said so, so that the answerer stops instead of guessing. */
function operatorProblem(message) {
  console.error(`This evaluation is not set up right (${message}). Stop here and write DONE.md saying so.`);
  process.exit(5);
}
