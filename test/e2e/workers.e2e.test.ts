import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/oauth-user.js';
import { type AuthorizationServer, resourceServerClient, signInClient, startAuthorizationServer } from '../helpers/oidc.js';
import { fixtureSpec } from '../helpers/paths.js';
import { connectHttp, generateProject, linkDependencies, tempDir, textOf } from '../helpers/project.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/** Wrangler needs Node 22; like the conformance suite, both come from the npm registry through npx. */
const WRANGLER = ['-y', '-p', 'node@22', '-p', 'wrangler@4.164.0', '--', 'wrangler'];

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Wrangler = { url: string; log: () => string; stop: () => Promise<void> };

/** `wrangler dev` on a free port of 127.0.0.1, with `vars` as its .dev.vars (local secrets); resolves once ready. */
async function startWrangler(dir: string, vars: Record<string, string>, port?: number): Promise<Wrangler> {
  await writeFile(
    path.join(dir, '.dev.vars'),
    Object.entries(vars)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(''),
  );
  const listen = port ?? (await freePort());
  const inspector = await freePort();
  const child = spawn('npx', [...WRANGLER, 'dev', '--ip', '127.0.0.1', '--port', String(listen), '--inspector-port', String(inspector)], {
    cwd: dir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // No fetch of Cloudflare's request metadata and no telemetry: this machine reaches no network but loopback.
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' },
  });
  let log = '';
  const collect = (chunk: Buffer) => (log += chunk.toString());
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // npx runs wrangler in its own process group: end the group so workerd goes too.
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev did not start:\n${log}`)), 240_000);
    const check = () => {
      if (/Ready on http/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', (code) => reject(new Error(`wrangler dev exited with ${code}:\n${log}`)));
  });
  return { url: `http://127.0.0.1:${listen}`, log: () => log, stop };
}

/**
 * `--target workers`, exercised in workerd itself: `wrangler dev` serves src/worker.ts locally, the official MCP
 * client lists the tools and calls one, and the call reaches a mock of the API with the credential from a secret;
 * arguments that break the description are refused by the argument checks generated with the project.
 */
describe('--target workers under wrangler dev', () => {
  let dir: string;
  let wrangler: Wrangler | undefined;
  let upstream: Server;
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
    await wrangler?.stop();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('lists the generated tools and calls the API through the Worker', async () => {
    const { port: upstreamPort } = upstream.address() as AddressInfo;
    // Secrets for local development live in .dev.vars, under the names .env.example lists.
    wrangler = await startWrangler(dir, {
      SWAGGER_PETSTORE_BASE_URL: `http://127.0.0.1:${upstreamPort}/v1`,
      SWAGGER_PETSTORE_API_KEY: 'key-from-a-secret',
    });
    const health = await fetch(`${wrangler.url}/healthz`);
    expect(await health.json()).toStrictEqual({ status: 'ok' });
    const client = await connectHttp(`${wrangler.url}/mcp`);
    try {
      const expected = JSON.parse(await readFile(path.join(dir, 'test/cases.json'), 'utf8')) as { tools: string[] };
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toStrictEqual(expected.tools);
      const result = await client.callTool({ name: 'store_inventory_read', arguments: {} });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(textOf(result)).toContain('Rex');
      // The credential came from a Worker secret (nodejs_compat fills process.env from vars and secrets).
      expect(received).toMatchObject([{ method: 'GET', url: '/v1/store/inventory', headers: { api_key: 'key-from-a-secret' } }]);
      // Input validation runs in workerd too (the SDK's @cfworker/json-schema validator there).
      const invalid = await client.callTool({ name: 'pet_read', arguments: { action: 'get', petId: 'two' } });
      expect(invalid.isError).toBe(true);
      expect(received).toHaveLength(1);
      // The description's rules are checked by the validators generated with the project (no code generation in a
      // request), and answered in the server's own words.
      const breach = await client.callTool({ name: 'pet_read', arguments: { action: 'find_by_status', status: 'lost' } });
      expect(breach.isError).toBe(true);
      expect(textOf(breach)).toContain('Nothing was sent to the API');
      expect(textOf(breach)).toContain('- status must be one of "available", "pending", "sold". For example: "available".');
      expect(received).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});

/**
 * `<PREFIX>_UPSTREAM_AUTH=oauth` in workerd: the authorization server (jose's sealing, oauth4webapi's discovery and
 * ID-token validation with nonce and signature, pages, cookies) runs in the Worker as it does in Node. One user signs
 * in through the official client; the call reaches the API with the token oidc-provider issued for that user.
 */
describe('--target workers: per-user OAuth under wrangler dev', () => {
  let dir: string;
  let wrangler: Wrangler | undefined;
  let authorizationServer: AuthorizationServer;
  let api: Upstream;

  beforeAll(async () => {
    dir = await tempDir('workers-oauth');
    await generateProject({ spec: fixtureSpec('oai-tictactoe.yaml'), out: dir, target: 'workers' });
    await linkDependencies(dir);
  });
  afterAll(async () => {
    await wrangler?.stop();
    await api?.close();
    await authorizationServer?.close();
  });

  it('signs a user in and calls the API with that user’s token', async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const secret = 'worker-client-secret-0123';
    authorizationServer = await startAuthorizationServer({
      clients: [signInClient('mcp-worker', secret, `${publicUrl}/oauth/callback`), resourceServerClient('api', 'api-secret-0123')],
      resources: { 'https://tictactoe.example/api': { scope: 'board:read board:write', accessTokenTTL: 300 } },
      defaultResource: 'https://tictactoe.example/api',
      scopes: ['openid', 'board:read', 'board:write'],
    });
    api = await startUpstream();
    const subjects: unknown[] = [];
    api.reply = async (request) => {
      const token = String(request.headers['authorization'] ?? '').replace(/^Bearer /, '');
      subjects.push((await authorizationServer.introspect(token, 'api', 'api-secret-0123'))['sub']);
      return { body: JSON.stringify('X') };
    };
    wrangler = await startWrangler(
      dir,
      {
        TIC_TAC_TOE_BASE_URL: api.url,
        TIC_TAC_TOE_UPSTREAM_AUTH: 'oauth',
        TIC_TAC_TOE_PUBLIC_URL: publicUrl,
        TIC_TAC_TOE_OAUTH_SEALING_KEYS: randomBytes(32).toString('base64'),
        TIC_TAC_TOE_UPSTREAM_CLIENT_ID: 'mcp-worker',
        TIC_TAC_TOE_UPSTREAM_CLIENT_SECRET: secret,
        TIC_TAC_TOE_UPSTREAM_ISSUER: authorizationServer.issuer,
        TIC_TAC_TOE_UPSTREAM_SCOPES: 'openid board:read board:write',
      },
      port,
    );
    const dana = await signIn(new URL(`${publicUrl}/mcp`), 'dana');
    try {
      const result = await dana.client.callTool({ name: 'board_read', arguments: { action: 'get_square', row: 1, column: 1 } });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(subjects).toEqual(['dana']);
      const forged = await fetch(`${publicUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer forged-token-0123456789' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}',
      });
      expect(forged.status).toBe(401);
      expect(forged.headers.get('www-authenticate')).toContain(`resource_metadata="${publicUrl}/.well-known/oauth-protected-resource/mcp"`);
    } finally {
      await dana.client.close();
    }
  });
});
