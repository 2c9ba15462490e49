import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSpec } from '../helpers/paths.js';
import { connectHttp, generateProject, linkDependencies, tempDir, textOf } from '../helpers/project.js';

/** Wrangler needs Node 22; like the conformance suite, both come from the npm registry through npx. */
const WRANGLER = ['-y', '-p', 'node@22', '-p', 'wrangler@4.164.0', '--', 'wrangler'];

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `--target workers`, exercised in workerd itself: `wrangler dev` serves src/worker.ts locally, the official MCP
 * client lists the tools and calls one, and the call reaches a mock of the API with the credential from a secret;
 * arguments that break the description are refused by the argument checks generated with the project.
 */
describe('--target workers under wrangler dev', () => {
  let dir: string;
  let wrangler: ChildProcess | undefined;
  let upstream: Server;
  let log = '';
  const received: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }> = [];

  beforeAll(async () => {
    upstream = createHttpServer((request, response) => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
      response.setHeader('content-type', 'application/json');
      response.end('{"pets":[{"id":1,"name":"Rex"}]}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    dir = await tempDir('workers');
    await generateProject({ spec: fixtureSpec('swaggerio-petstore-v3.yaml'), out: dir, target: 'workers' });
    await linkDependencies(dir);
  });
  afterAll(async () => {
    if (wrangler && wrangler.exitCode === null) {
      const exited = new Promise((resolve) => wrangler?.once('exit', resolve));
      // npx runs wrangler in its own process group: end the group so workerd goes too.
      if (wrangler.pid) process.kill(-wrangler.pid, 'SIGTERM');
      await exited;
    }
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('lists the generated tools and calls the API through the Worker', async () => {
    const { port: upstreamPort } = upstream.address() as AddressInfo;
    // Secrets for local development live in .dev.vars, under the names .env.example lists.
    await writeFile(
      path.join(dir, '.dev.vars'),
      `SWAGGER_PETSTORE_BASE_URL=http://127.0.0.1:${upstreamPort}/v1\nSWAGGER_PETSTORE_API_KEY=key-from-a-secret\n`,
    );
    const port = await freePort();
    const inspector = await freePort();
    wrangler = spawn('npx', [...WRANGLER, 'dev', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector)], {
      cwd: dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // No fetch of Cloudflare's request metadata and no telemetry: this machine reaches no network but loopback.
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' },
    });
    const collect = (chunk: Buffer) => (log += chunk.toString());
    wrangler.stdout?.on('data', collect);
    wrangler.stderr?.on('data', collect);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`wrangler dev did not start:\n${log}`)), 240_000);
      const check = () => {
        if (/Ready on http/.test(log)) {
          clearTimeout(timer);
          resolve();
        }
      };
      wrangler?.stdout?.on('data', check);
      wrangler?.stderr?.on('data', check);
      wrangler?.once('exit', (code) => reject(new Error(`wrangler dev exited with ${code}:\n${log}`)));
    });

    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(await health.json()).toStrictEqual({ status: 'ok' });
    const client = await connectHttp(`http://127.0.0.1:${port}/mcp`);
    try {
      const expected = JSON.parse(await readFile(path.join(dir, 'test/tools-list.json'), 'utf8')) as Array<{ name: string }>;
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toStrictEqual(expected.map((tool) => tool.name));
      const result = await client.callTool({ name: 'store_inventory_read', arguments: {} });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(textOf(result)).toContain('Rex');
      // The credential came from a Worker secret (nodejs_compat fills process.env from vars and secrets).
      expect(received).toMatchObject([{ method: 'GET', url: '/v1/store/inventory', headers: { api_key: 'key-from-a-secret' } }]);
      // Input validation runs in workerd too (the SDK's @cfworker/json-schema validator there).
      const invalid = await client.callTool({ name: 'pet_read', arguments: { action: 'get_pet_by_id', petId: 'two' } });
      expect(invalid.isError).toBe(true);
      expect(received).toHaveLength(1);
      // The description's rules are checked by the validators generated with the project (no code generation in a
      // request), and answered in the server's own words.
      const breach = await client.callTool({ name: 'pet_read', arguments: { action: 'find_pets_by_status', status: 'lost' } });
      expect(breach.isError).toBe(true);
      expect(textOf(breach)).toContain('Nothing was sent to the API');
      expect(textOf(breach)).toContain('- status must be one of "available", "pending", "sold". For example: "available".');
      expect(received).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
