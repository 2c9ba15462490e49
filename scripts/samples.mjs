#!/usr/bin/env node
// Regenerates the checked-in sample servers (`update`) or fails when they are stale or do not type-check (`check`).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = path.join(root, 'bin/openapi-to-mcp.js');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

/** Each sample: a description copied from ../shared/specs (with its licence) and the server generated from it. */
export const SAMPLES = [
  {
    name: 'petstore',
    spec: 'openapi.yaml',
    // `--deploy` shapes the generated project only; `plan` does not take it.
    generateOptions: ['--deploy'],
    what: 'OpenAPI 3.0: Swagger Petstore (apiKey and OAuth, forms, file upload), with the deployment files (--deploy)',
  },
  { name: 'museum', spec: 'openapi.yaml', what: 'OpenAPI 3.1: Redocly Museum (basic auth, image responses, webhooks ignored)' },
  { name: 'uber', spec: 'swagger.json', what: 'Swagger 2.0: Uber (no operationIds, host and basePath)' },
  { name: 'xero-accounting', spec: 'openapi.yaml', what: 'OpenAPI 3.0 at scale: 235 operations grouped into tools, tenant header' },
  {
    name: 'petstore-search',
    spec: '../petstore/openapi.yaml',
    options: ['--surface', 'search'],
    what: "The search surface of petstore's description: find an action, call it by safety class",
  },
];

const mode = process.argv[2] ?? 'check';
if (mode !== 'check' && mode !== 'update') {
  console.error('usage: node scripts/samples.mjs check|update');
  process.exit(2);
}
let failed = false;
for (const sample of SAMPLES) {
  const dir = path.join(root, 'samples', sample.name);
  const args = [
    bin,
    path.join(dir, sample.spec),
    '-o',
    path.join(dir, 'server'),
    ...(sample.options ?? []),
    ...(sample.generateOptions ?? []),
    '--quiet',
    ...(mode === 'check' ? ['--check'] : ['--force']),
  ];
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  process.stderr.write(run.stderr);
  if (run.status !== 0) {
    console.error(`${sample.name}: ${mode === 'check' ? 'stale — run npm run samples:update' : 'generation failed'}`);
    failed = true;
    continue;
  }
  // The plan, as JSON: grouping and naming changes show up as reviewable diffs.
  const plan = spawnSync(process.execPath, [bin, 'plan', path.join(dir, sample.spec), ...(sample.options ?? []), '--json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (plan.status !== 0) {
    console.error(`${sample.name}: plan failed\n${plan.stdout}${plan.stderr}`);
    failed = true;
    continue;
  }
  const planFile = path.join(dir, 'plan.json');
  if (mode === 'update') writeFileSync(planFile, plan.stdout);
  else if (!existsSync(planFile) || readFileSync(planFile, 'utf8') !== plan.stdout) {
    console.error(`${sample.name}: plan.json is stale — run npm run samples:update`);
    failed = true;
    continue;
  }
  if (!existsSync(path.join(dir, 'server', 'tsconfig.json'))) continue;
  const typecheck = spawnSync(process.execPath, [tsc, '-p', path.join(dir, 'server', 'tsconfig.json'), '--noEmit'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (typecheck.status !== 0) {
    console.error(`${sample.name}: the generated server does not type-check\n${typecheck.stdout}${typecheck.stderr}`);
    failed = true;
    continue;
  }
  console.log(`${sample.name}: ${mode === 'check' ? 'up to date, type-checks' : 'regenerated'}`);
}
process.exit(failed ? 1 : 0);
