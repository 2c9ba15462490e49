// The APIs of the evaluation, where their descriptions come from, and the folders the tooling writes to. Vendor
// descriptions are read from `$OPENAPI_TO_MCP_SPECS` or `../shared/specs` beside the repository; GitHub's comes from
// the npm package @octokit/openapi, fetched with `npm pack` into eval/.work (gitignored); the renamed API is made by
// rename.mjs from Slack's description.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const EVAL_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const REPO = path.dirname(EVAL_DIR);
export const WORK = path.join(EVAL_DIR, '.work');
export const BIN = path.join(REPO, 'bin/openapi-to-mcp.js');
export const OCTOKIT = '@octokit/openapi@23.0.2';

/** id → where its description comes from and whether the planner may be tuned on it. */
export const APIS = {
  github: { set: 'tuning', source: 'octokit' },
  asana: { set: 'tuning', source: 'specs', file: 'asana-api.yaml' },
  pagerduty: { set: 'tuning', source: 'specs', file: 'pagerduty-rest.json' },
  box: { set: 'heldout', source: 'specs', file: 'box-platform.json' },
  sendgrid: { set: 'heldout', source: 'specs', file: 'sendgrid-v3.json' },
  twilio: { set: 'heldout', source: 'specs', file: 'twilio-api-v2010.yaml' },
  murmel: { set: 'heldout', source: 'renamed', from: 'slack-web.json' },
};

export function apiIds() {
  return Object.keys(APIS);
}

export function requireApi(id) {
  const api = APIS[id];
  if (!api) fail(`unknown API "${id}"; known: ${apiIds().join(', ')}`);
  return { id, ...api };
}

export function tasksFile(id) {
  return path.join(EVAL_DIR, 'tasks', requireApi(id).set, `${id}.json`);
}

export function loadTasks(id) {
  return JSON.parse(readFileSync(tasksFile(id), 'utf8'));
}

/** The folder of vendor descriptions: `$OPENAPI_TO_MCP_SPECS`, else `../shared/specs` beside the repository. */
export function specsDir() {
  const candidates = [process.env.OPENAPI_TO_MCP_SPECS, path.resolve(REPO, '../shared/specs')].filter(Boolean);
  const found = candidates.find((dir) => existsSync(path.join(dir, 'MANIFEST.md')) || existsSync(path.join(dir, 'slack-web.json')));
  if (!found) fail(`no folder of descriptions found (looked in ${candidates.join(', ')}); set OPENAPI_TO_MCP_SPECS`);
  return found;
}

/** The description file of an API, fetched or made when it is not there yet. */
export async function descriptionFile(id) {
  const api = requireApi(id);
  if (api.source === 'specs') return path.join(specsDir(), api.file);
  if (api.source === 'octokit') return fetchGithub();
  const renamed = path.join(WORK, 'specs', 'murmel-web.json');
  if (!existsSync(renamed)) {
    const { renameSlack } = await import('../rename.mjs');
    renameSlack(path.join(specsDir(), api.from), renamed);
  }
  return renamed;
}

function fetchGithub() {
  const dir = path.join(WORK, 'octokit');
  const file = path.join(dir, 'package/generated/api.github.com.json');
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  console.error(`fetching ${OCTOKIT} with npm pack`);
  const packed = spawnSync('npm', ['pack', OCTOKIT, '--silent'], { cwd: dir, encoding: 'utf8' });
  const tarball = packed.stdout.trim().split('\n').pop() ?? '';
  if (packed.status !== 0 || !tarball) fail(`npm pack ${OCTOKIT} failed: ${packed.stderr}`);
  const unpacked = spawnSync('tar', ['-xzf', tarball, 'package/generated/api.github.com.json'], { cwd: dir, encoding: 'utf8' });
  rmSync(path.join(dir, tarball), { force: true });
  if (unpacked.status !== 0) fail(`could not unpack ${tarball}: ${unpacked.stderr}`);
  return file;
}

export function fail(message) {
  console.error(`error: ${message}`);
  process.exit(1);
}

/** Reads `--name value` options and positional arguments. */
export function parseArgs(argv, known) {
  const options = {};
  const positional = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const name = arg.slice(2);
    if (!(name in known))
      fail(
        `unknown option ${arg}; known: ${Object.keys(known)
          .map((key) => `--${key}`)
          .join(', ')}`,
      );
    if (known[name] === 'flag') options[name] = true;
    else {
      const value = argv[++index];
      if (value === undefined) fail(`${arg} needs a value`);
      options[name] = value;
    }
  }
  return { options, positional };
}
