#!/usr/bin/env node
// Hands a fresh answerer what a model serving the search surface sees: the `search_actions` tool as the generated
// server lists it, and people's requests (without their truths). The answerer writes one query per request into
// queries.json; `search-recall.mjs --queries <folder>` then measures those instead of the queries in search/queries.
//
//   node eval/query-handout.mjs <api> <generated search project> <empty folder>
//
// The project is one search-recall.mjs generated (eval/.work/search-recall/<label>/<api>/project).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EVAL_DIR, fail } from './lib/apis.mjs';

const [api, project, out] = process.argv.slice(2);
if (!api || !project || !out) fail('usage: node eval/query-handout.mjs <api> <generated search project> <empty folder>');
const entry = JSON.parse(readFileSync(path.join(EVAL_DIR, 'search/apis.json'), 'utf8')).apis.find((candidate) => candidate.id === api);
if (!entry) fail(`unknown API ${api}: see eval/search/apis.json`);
if (existsSync(out) && readdirSync(out).length > 0) fail(`${out} is not empty`);

// The search surface's tools as the built project defines them (search-recall.mjs compiles the project).
const built = path.join(project, 'dist/search/surface.js');
if (!existsSync(built)) fail(`${project} is not built: ${built} is missing`);
const { surface } = await import(pathToFileURL(built).href);
const tool = surface.tools.find((candidate) => candidate.name.endsWith('search_actions'));
if (!tool) fail(`${project} serves no search_actions tool`);
const tasksFile = entry.tasks ? path.join(EVAL_DIR, entry.tasks) : path.join(EVAL_DIR, 'search/tasks', `${api}.json`);
const requests = JSON.parse(readFileSync(tasksFile, 'utf8')).map((task) => ({ id: task.id, request: task.request }));

mkdirSync(out, { recursive: true });
const { name, title, description, inputSchema } = tool;
writeFileSync(path.join(out, 'search-tool.json'), `${JSON.stringify({ name, title, description, inputSchema }, null, 2)}\n`);
writeFileSync(path.join(out, 'requests.json'), `${JSON.stringify(requests, null, 2)}\n`);
writeFileSync(
  path.join(out, 'PROMPT.md'),
  `# Task

Besides this prompt, this folder holds two files. \`search-tool.json\` is the only tool you have for finding what an
API can do: its name, title, description and input schema, exactly as an MCP server lists it. \`requests.json\` holds
requests that users typed, each with an \`id\`.

1. Read \`search-tool.json\` first, then \`requests.json\`.
2. Read no other file, and do not search, browse or run anything. Everything you may use is in these two files.
3. For each request, write the \`query\` you would pass to this tool as your first call to carry the request out, as
   the tool's description asks. One query per request; you will see no results.
4. Write one JSON object to \`queries.json\` in this folder, with one entry for every request id:

   \`\`\`json
   { "queries": { "<id>": "<query>" } }
   \`\`\`
`,
);
console.log(`${out}: search-tool.json, requests.json, PROMPT.md — queries come back as <folder>/${api}.json for --queries`);
