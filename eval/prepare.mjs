#!/usr/bin/env node
// Prepares a run: generates the API's server with the current generator, builds it, lists its tools over stdio with
// the official client, and writes what the two answerers see into eval/runs/<label>/<api>[-per-operation]/:
//   tools.full.json   the exact tools/list result, pretty-printed (full run)
//   tools.names.json  each tool's name and title only (name-only run)
//   requests.json     request ids and texts only (no ground truth)
//   plan.json         plan --json (the name-only scorer finds each operation's tool in it)
//   run.json          commit measured, strategy, token counts, where the server was built
//
//   node eval/prepare.mjs <api> [--strategy per-operation] [--label NAME] [--npm-install] [--max-tokens N] [--out DIR]
// --out writes the run folder elsewhere (the self-test uses eval/.work); the server always goes to eval/.work/servers.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO, apiIds, descriptionFile, fail, loadTasks, parseArgs, requireApi } from './lib/apis.mjs';
import { buildServer, connect, exactToolsList, planJson, serverEnv } from './lib/server.mjs';
import { FILES, commitMeasured, runDir, serverDirOf, sha256, tokens, writeJson } from './lib/run-folder.mjs';

const { options, positional } = parseArgs(process.argv.slice(2), {
  strategy: 'value',
  label: 'value',
  'npm-install': 'flag',
  'max-tokens': 'value',
  out: 'value',
});
const [api] = positional;
if (!api) fail(`usage: node eval/prepare.mjs <${apiIds().join('|')}> [--strategy per-operation] [--label NAME]`);
requireApi(api);
const strategy = options.strategy ?? 'auto';
if (!['auto', 'per-operation'].includes(strategy)) fail('--strategy takes auto or per-operation');
const measured = commitMeasured();
const label =
  options.label ?? `${new Date().toISOString().slice(0, 10)}-${measured.generatorCommit.slice(0, 7)}${measured.dirty ? '-dirty' : ''}`;
if (!/^[A-Za-z0-9._-]+$/.test(label)) fail('--label takes letters, digits, ".", "_" and "-" only');
const maxTokens = Number(options['max-tokens'] ?? (strategy === 'per-operation' ? 150_000 : Infinity));

const tasks = loadTasks(api);
const spec = await descriptionFile(api);
const out = options.out ? path.resolve(options.out) : runDir(label, api, strategy);
const log = (message) => console.error(`[${api}${strategy === 'per-operation' ? ' per-operation' : ''}] ${message}`);

log('planning');
const plan = planJson(spec, strategy);
if (plan.totals.tokens >= maxTokens) {
  log(`skipped: the plan counts ${plan.totals.tokens} tokens, over --max-tokens ${maxTokens} (does not fit a model's context)`);
  writeJson(path.join(out, FILES.meta), { api, strategy, label, ...measured, skipped: `plan counts ${plan.totals.tokens} tokens` });
  process.exit(0);
}
const serverDir = serverDirOf(label, api, strategy);
log(`generating and building ${serverDir}`);
buildServer(spec, path.join(REPO, serverDir), strategy, { npmInstall: options['npm-install'] === true });

log('listing tools over stdio');
const connection = await connect(path.join(REPO, serverDir), serverEnv(path.join(REPO, serverDir), 'http://127.0.0.1:9'));
let listed;
try {
  listed = await exactToolsList(connection);
} finally {
  await connection.close();
}
const listTokens = tokens(JSON.stringify(listed.result.tools));
if (listTokens >= maxTokens) {
  log(`skipped: tools/list counts ${listTokens} tokens, over --max-tokens ${maxTokens} (does not fit a model's context)`);
  writeJson(path.join(out, FILES.meta), { api, strategy, label, ...measured, skipped: `tools/list counts ${listTokens} tokens` });
  process.exit(0);
}
const fullText = `${JSON.stringify(listed.result, null, 2)}\n`;
const namesText = `${JSON.stringify(
  listed.result.tools.map((tool) => ({ name: tool.name, title: tool.title })),
  null,
  2,
)}\n`;
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, FILES.full), fullText);
writeFileSync(path.join(out, FILES.names), namesText);
writeJson(
  path.join(out, FILES.requests),
  tasks.map((task) => ({ id: task.id, request: task.request })),
);
writeJson(path.join(out, FILES.plan), plan);
const meta = {
  api,
  strategy,
  label,
  commit: measured.commit,
  generatorCommit: measured.generatorCommit,
  dirty: measured.dirty,
  prepared: new Date().toISOString(),
  description: path.basename(spec),
  descriptionSha256: sha256(readFileSync(spec)),
  server: serverDir,
  tools: listed.result.tools.length,
  operations: plan.totals.operations - plan.totals.excluded,
  toolsListPages: listed.pages,
  tokens: {
    toolsList: listTokens,
    fullFile: tokens(fullText),
    namesFile: tokens(namesText),
    plan: plan.totals.tokens,
  },
  toolsSha256: sha256(fullText),
  requests: tasks.length,
};
writeJson(path.join(out, FILES.meta), meta);
log(`${meta.tools} tools, ${meta.tokens.toolsList} tokens in tools/list → ${path.relative(REPO, out)}`);
