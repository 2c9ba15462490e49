#!/usr/bin/env node
// Runs the MCP conformance suite's 2026-07-28 HTTP scenarios against a server generated from a vendor description:
// generates and builds the server, starts it over Streamable HTTP with a local stand-in for the API (so no call
// leaves the machine), runs each scenario with Node 22 and the suite from the npm registry, and compares the
// results with expected-failures.yml. Exit 0 when every failure is expected and no expected failure passes.
//
//   npm run test:conformance [-- --spec path/to/openapi.yaml]
//
// Needs dist/ (npm ci builds it). The default description is the Xero sample shipped in samples/, so the run does not
// depend on where the shared corpus is.

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HERE = fileURLToPath(new URL('./', import.meta.url));
const CONFORMANCE = ['-y', '-p', 'node@22', '-p', '@modelcontextprotocol/conformance@0.2.0-alpha.12', 'conformance'];
const SCENARIOS = [
  'tools-list',
  'http-header-validation',
  'http-custom-header-server-validation',
  'dns-rebinding-protection',
  'server-stateless',
];
// Xero marks the string header parameter xero-tenant-id, which http-custom-header-server-validation needs.
const DEFAULT_SPEC = path.join(ROOT, 'samples/xero-accounting/openapi.yaml');

const specIndex = process.argv.indexOf('--spec');
const spec = specIndex > 0 ? path.resolve(process.argv[specIndex + 1] ?? '') : DEFAULT_SPEC;
const work = path.join(ROOT, 'test/.tmp', `conformance-${process.pid}`);
const results = path.join(work, 'results');

function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Answers every request with 200 and an empty JSON object: the API the generated tools would call. */
async function startStandIn() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Starts the generated server on a free port and resolves with its MCP URL and a stop function. */
function startServer(dir, env) {
  const child = spawn(process.execPath, [path.join(dir, 'dist/main.js'), '--http', '--port', '0'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${stderr}`)), 20_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1],
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', done);
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`the server exited with ${code}:\n${stderr}`)));
  });
}

async function main() {
  const { runGenerate } = await import(path.join(ROOT, 'dist/pipeline.js'));
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const dir = path.join(work, 'server');
  console.log(`generating a server from ${path.relative(ROOT, spec)}`);
  const generated = await runGenerate({ spec, out: dir });
  if (!generated.ok) throw new Error(generated.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
  const marked = generated.plan.tools.reduce((sum, tool) => sum + tool.headers.marked.length, 0);
  console.log(`${generated.plan.tools.length} tools, ${marked} x-mcp-header markings`);
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const built = await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: dir });
  if (built.code !== 0) throw new Error(`tsc failed:\n${built.output}`);
  // The rest of the project's `npm run build`: the bundle in dist/main.js, which users run.
  const bundled = await run(process.execPath, [path.join(ROOT, 'node_modules/rolldown/bin/cli.mjs'), '-c', 'rolldown.config.mjs'], {
    cwd: dir,
  });
  if (bundled.code !== 0) throw new Error(`rolldown failed:\n${bundled.output}`);

  const standIn = await startStandIn();
  const server = await startServer(dir, { [`${generated.plan.api.envPrefix}_BASE_URL`]: standIn.url });
  console.log(`server listening on ${server.url}\n`);
  const outcomes = [];
  try {
    for (const scenario of SCENARIOS) {
      const { code, output } = await run('npx', [
        ...CONFORMANCE,
        'server',
        '--url',
        server.url,
        '--scenario',
        scenario,
        '--spec-version',
        '2026-07-28',
        '--expected-failures',
        path.join(HERE, 'expected-failures.yml'),
        '-o',
        results,
      ]);
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
      const expected = output.includes('Baseline check passed') ? 'baseline ok' : 'baseline NOT ok';
      console.log(
        `${code === 0 ? '✓' : '✗'} ${scenario}: ${summary ? `${summary[1]}/${summary[2]} checks passed, ${summary[3]} failed` : 'no summary'} (${expected})`,
      );
      if (code !== 0)
        console.log(
          output
            .split('\n')
            .filter((line) => !/EBADENGINE|npm warn/.test(line))
            .join('\n'),
        );
      outcomes.push(code === 0);
    }
  } finally {
    await server.stop();
    await standIn.close();
  }
  const passed = outcomes.filter(Boolean).length;
  console.log(`\nresults in ${path.relative(ROOT, results)}`);
  console.log(`conformance: ${passed} passed, ${outcomes.length - passed} failed`);
  return passed === outcomes.length ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
