#!/usr/bin/env node
// Copies what one answerer may see into an empty folder outside the repository: the definitions file of the run
// (full: tools.full.json, names: tools.names.json), requests.json, and PROMPT.md with the instructions to give it.
// Start a fresh model session in that folder, give it PROMPT.md, and copy its answers.json back into the run folder
// as answers.<mode>.json.
//
//   node eval/handout.mjs <run-folder> full|names <empty-folder>
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO, fail } from './lib/apis.mjs';
import { FILES, readJson } from './lib/run-folder.mjs';

const [folderArg, mode, targetArg] = process.argv.slice(2);
if (!folderArg || !['full', 'names'].includes(mode ?? '') || !targetArg)
  fail('usage: node eval/handout.mjs <run-folder> full|names <empty-folder>');
const folder = path.resolve(folderArg);
const meta = readJson(path.join(folder, FILES.meta));
if (meta.skipped) fail(`${folderArg} was not prepared: ${meta.skipped}`);
const target = path.resolve(targetArg);
if (!path.relative(REPO, target).startsWith('..'))
  fail('the folder must be outside the repository, so that the answerer cannot find the ground truth');
if (existsSync(target) && readdirSync(target).length > 0) fail(`${target} is not empty`);
mkdirSync(target, { recursive: true });
const definitions = mode === 'full' ? FILES.full : FILES.names;
copyFileSync(path.join(folder, definitions), path.join(target, definitions));
copyFileSync(path.join(folder, FILES.requests), path.join(target, FILES.requests));
writeFileSync(path.join(target, 'PROMPT.md'), prompt(definitions, mode));
console.log(
  `${target}: ${definitions}, ${FILES.requests}, PROMPT.md — answers come back as ${path.join(path.relative(process.cwd(), folder), `answers.${mode}.json`)}`,
);

function prompt(file, kind) {
  const what =
    kind === 'full'
      ? `\`${file}\` is the complete \`tools/list\` result of an MCP server: every tool with its name, title, description and input schema.`
      : `\`${file}\` lists the tools of an MCP server by \`name\` and \`title\` only; you see nothing else about them.`;
  const shape = kind === 'full' ? '{ "<id>": { "tool": "<tool name>", "arguments": { ... } } }' : '{ "<id>": { "tool": "<tool name>" } }';
  return `# Task

Besides this prompt, this folder holds two files. ${what} \`requests.json\` holds requests that users typed, each with an \`id\`.

1. Read the whole of \`${file}\` first, from the first line to the last (in parts if it is long), before you answer
   anything.
2. Read no other file, and do not search, browse or run anything. Everything you may use is in these two files.
3. For each request, decide the first tool call you would make to carry it out${kind === 'full' ? ': the tool and its arguments, exactly as you would send them in `tools/call`' : ': which tool you would call'}.
   One call per request. There are no retries and you will see no results. When a request leaves something open,
   make your best call with what it gives.
4. Write one JSON object to \`answers.json\` in this folder, with one entry for every request id:

   \`\`\`json
   ${shape}
   \`\`\`
`;
}
