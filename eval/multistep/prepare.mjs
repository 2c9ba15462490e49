#!/usr/bin/env node
// Prepares a multi-step run of one surface: generates the API's server with the current generator (as eval/prepare.mjs
// does), builds it, lists its tools over stdio with the official client, and writes
// eval/multistep/runs/<label>/<api>[-per-operation]/:
//   run.json    API, strategy, label, commits measured, where the server was built, token counts, the list's SHA-256
//   tools.json  the exact tools/list result, pretty-printed (what the answerer's `./tools` prints; gitignored)
//   plan.json   plan --json (the self-test finds each operation's tool and action in it; gitignored)
// Sessions, one per task and answerer, are made in that folder by handout.mjs.
//
//   node eval/multistep/prepare.mjs <api> [--strategy per-operation] [--label NAME] [--out DIR] [--max-tokens N]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO, WORK, descriptionFile, fail, parseArgs } from '../lib/apis.mjs';
import { commitMeasured, runName, sha256, tokens, writeJson } from '../lib/run-folder.mjs';
import { buildServer, connect, exactToolsList, planJson, serverEnv } from '../lib/server.mjs';
import { RUN_FILES } from './lib/session.mjs';
import { MULTISTEP_APIS, MULTISTEP_DIR, loadTaskModule, requireMultistepApi } from './lib/world.mjs';

const { options, positional } = parseArgs(process.argv.slice(2), {
  strategy: 'value',
  label: 'value',
  out: 'value',
  'max-tokens': 'value',
});
const [api] = positional;
if (!api) fail(`usage: node eval/multistep/prepare.mjs <${MULTISTEP_APIS.join('|')}> [--strategy per-operation] [--label NAME]`);
requireMultistepApi(api);
const strategy = options.strategy ?? 'auto';
if (!['auto', 'per-operation'].includes(strategy)) fail('--strategy takes auto or per-operation');
const measured = commitMeasured();
const label =
  options.label ?? `${new Date().toISOString().slice(0, 10)}-${measured.generatorCommit.slice(0, 7)}${measured.dirty ? '-dirty' : ''}`;
if (!/^[A-Za-z0-9._-]+$/.test(label)) fail('--label takes letters, digits, ".", "_" and "-" only');
// One tool per operation is measured only where its list fits a model's context next to the task (as in eval/prepare.mjs).
const maxTokens = Number(options['max-tokens'] ?? (strategy === 'per-operation' ? 150_000 : Infinity));
const run = runName(api, strategy);
const out = options.out ? path.resolve(options.out) : path.join(MULTISTEP_DIR, 'runs', label, run);
const serverDir = path.join(WORK, 'multistep', 'servers', options.out ? sha256(out).slice(0, 12) : label, run);
const log = (message) => console.error(`[multistep ${run}] ${message}`);

const { tasks } = await loadTaskModule(api);
const spec = await descriptionFile(api);
log('planning');
const plan = planJson(spec, strategy);
const skip = (why) => {
  log(`skipped: ${why}, over --max-tokens ${maxTokens} (does not fit a model's context)`);
  writeJson(path.join(out, RUN_FILES.meta), { api, strategy, label, ...measured, skipped: why });
  process.exit(0);
};
if (plan.totals.tokens >= maxTokens) skip(`the plan counts ${plan.totals.tokens} tokens`);
log(`generating and building ${path.relative(REPO, serverDir)}`);
buildServer(spec, serverDir, strategy);
log('listing tools over stdio');
const connection = await connect(serverDir, serverEnv(serverDir, 'http://127.0.0.1:9'));
let listed;
try {
  listed = await exactToolsList(connection);
} finally {
  await connection.close();
}
const listTokens = tokens(JSON.stringify(listed.result.tools));
if (listTokens >= maxTokens) skip(`tools/list counts ${listTokens} tokens`);
const toolsText = `${JSON.stringify(listed.result, null, 2)}\n`;
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, RUN_FILES.tools), toolsText);
writeJson(path.join(out, RUN_FILES.plan), plan);
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
  server: path.relative(REPO, serverDir),
  tools: listed.result.tools.length,
  operations: plan.totals.operations - plan.totals.excluded,
  tokens: { toolsList: listTokens, toolsFile: tokens(toolsText) },
  toolsSha256: sha256(toolsText),
  tasks: tasks.map((task) => task.id),
};
writeJson(path.join(out, RUN_FILES.meta), meta);
log(`${meta.tools} tools, ${listTokens} tokens in tools/list → ${path.relative(process.cwd(), out)}`);
