import { readFile } from 'node:fs/promises';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolPlan } from '../../src/plan/tool-plan.js';
import { REPO_ROOT } from '../helpers/paths.js';
import {
  buildProject,
  connectHttp,
  generateProject,
  linkDependencies,
  startHttpServer,
  tempDir,
  textOf,
  type HttpServer,
} from '../helpers/project.js';
import { startUpstream, type RecordedRequest, type Upstream } from '../helpers/upstream.js';

/**
 * The generated server under attack, over Streamable HTTP, against a recording upstream that misbehaves on demand:
 * arguments that try to leave the base URL or inject headers, an upstream that echoes the credentials it receives,
 * upstream faults of every kind, and more calls than the server allows.
 */

const SPEC = path.join(REPO_ROOT, 'test/fixtures/hostile/attack-target.yaml');

const CANARY = {
  apiKey: 'canary-apikey-7f3a9c2e51',
  bearer: 'canary-bearer-1b8d4e6f93',
  query: 'canary-query-5c2e7a1d44',
  cookie: 'canary-cookie-9e4b3f0a27',
  user: 'canary-user-2d6f8b',
  password: 'canary-pass-8a1c3e5b66',
};
/** Every form a credential can take on the wire: as set, URL-encoded, and Basic's base64 of user:password. */
const SECRET_FORMS = [
  ...Object.values(CANARY),
  Buffer.from(`${CANARY.user}:${CANARY.password}`).toString('base64'),
  Buffer.from(`${CANARY.password}`).toString('base64'),
];

function leaks(text: string): string[] {
  return SECRET_FORMS.filter((secret) => text.includes(secret));
}

/** Every text a client sees in a result: content blocks (resource blobs decoded) and structured content. */
function visible(result: { content?: unknown; structuredContent?: unknown }): string {
  const blocks = (result.content ?? []) as Array<{ type: string; text?: string; resource?: { blob?: string; text?: string } }>;
  const decoded = blocks.map((block) =>
    block.resource?.blob ? Buffer.from(block.resource.blob, 'base64').toString('latin1') : (block.text ?? block.resource?.text ?? ''),
  );
  return `${decoded.join('\n')}\n${JSON.stringify(result.structuredContent ?? null)}`;
}

function echoOf(request: RecordedRequest) {
  return { method: request.method, url: request.url, headers: request.headers, body: request.body.toString('utf8') };
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

describe('attacks on a generated server', () => {
  let dir: string;
  let plan: ToolPlan;
  let upstream: Upstream;
  let env: Record<string, string>;
  let server: HttpServer;
  let client: Client;

  const call = async (name: string, args: Record<string, unknown>) => {
    upstream.requests.length = 0;
    const started = Date.now();
    const result = await client.callTool({ name, arguments: args });
    return { result, text: textOf(result), requests: [...upstream.requests], elapsedMs: Date.now() - started };
  };

  beforeAll(async () => {
    dir = await tempDir('attacks');
    plan = (await generateProject({ spec: SPEC, out: dir })).plan as ToolPlan;
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
    const byScheme = Object.fromEntries(plan.api.credentials.map((credential) => [credential.scheme, credential.env]));
    env = {
      ATTACK_TARGET_BASE_URL: `${upstream.url}/api/v1`,
      [byScheme['apiKey']?.[0] ?? '']: CANARY.apiKey,
      [byScheme['bearer']?.[0] ?? '']: CANARY.bearer,
      [byScheme['queryKey']?.[0] ?? '']: CANARY.query,
      [byScheme['sessionCookie']?.[0] ?? '']: CANARY.cookie,
      [byScheme['basic']?.[0] ?? '']: CANARY.user,
      [byScheme['basic']?.[1] ?? '']: CANARY.password,
      ATTACK_TARGET_TIMEOUT_MS: '1500',
      ATTACK_TARGET_RETRIES: '2',
      ATTACK_TARGET_MAX_RESPONSE_BYTES: String(1024 * 1024),
      ATTACK_TARGET_RATE_LIMIT: '0',
      ATTACK_TARGET_LOG_LEVEL: 'debug',
    };
    server = await startHttpServer(dir, env);
    client = await connectHttp(server.url);
  });

  afterAll(async () => {
    await client?.close();
    await server?.stop();
    await upstream?.close();
  });

  describe('requests never leave the base URL', () => {
    const escapes = [
      '../admin',
      '../../../../etc/passwd',
      '%2e%2e',
      '%2e%2e%2fadmin',
      '..%2f..%2fadmin',
      '/etc/passwd',
      'a/b',
      '?admin=true',
      '#fragment',
      'a?b=c#d',
      '..\\..\\admin',
      'http://evil.example/x',
      '//evil.example',
      '@evil.example:8080',
      '...',
      ' ',
      '🙂',
      '\u0000',
    ];

    it.each(escapes)('a path argument of %j stays one segment under the base', async (value) => {
      const { result, requests } = await call('files_read', { path: value });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(requests).toHaveLength(1);
      const [request] = requests as [RecordedRequest];
      expect(request.headers.host).toBe(new URL(upstream.url).host);
      expect(request.path.startsWith('/api/v1/files/')).toBe(true);
      const segment = request.path.slice('/api/v1/files/'.length);
      expect(segment).not.toContain('/');
      expect(decodeURIComponent(segment)).toBe(value);
      // The only query parameter is the API key the server adds: nothing from the path argument became a query.
      expect([...request.query.keys()]).toEqual(['api_key']);
    });

    it.each(['.', '..'])('refuses the dot segment %j with an error naming the argument, sending nothing', async (value) => {
      const { result, text, requests } = await call('files_read', { path: value });
      expect(result.isError).toBe(true);
      expect(text).toContain('"path"');
      expect(requests).toHaveLength(0);
    });

    it('keeps two path arguments apart whatever they hold', async () => {
      const { result, requests } = await call('users_repos_read', { userId: '../..', repo: '../../admin?x=1' });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(requests[0]?.path).toBe('/api/v1/users/..%2F../repos/..%2F..%2Fadmin%3Fx%3D1');
    });

    it.each([
      { host: 'evil.example' },
      { baseUrl: 'http://evil.example' },
      { url: 'http://evil.example/' },
      { port: 1 },
      { scheme: 'file' },
    ])('takes no argument that sets the host, scheme or port: %j', async (extra) => {
      const { result, requests } = await call('files_read', { path: 'a', ...extra });
      expect(result.isError).toBe(true);
      expect(requests).toHaveLength(0);
    });

    it('sends a header argument named like a routing header to the configured API only', async () => {
      const { result, requests } = await call('search_read', { q: 'x', 'X-Forwarded-Host': 'evil.example' });
      expect(result.isError ?? false).toBe(false);
      expect(requests[0]?.headers.host).toBe(new URL(upstream.url).host);
    });
  });

  describe('header values', () => {
    it.each(['abc\r\nX-Injected: 1', 'abc\nX-Injected: 1', 'abc\rx', 'a\u0000b', 'a\u007fb', 'a\u001bb'])(
      'refuses %j in a header argument with an error naming it, sending nothing',
      async (value) => {
        const { result, text, requests } = await call('search_read', { q: 'x', 'X-Request-Id': value });
        expect(result.isError).toBe(true);
        expect(text).toContain('"X-Request-Id"');
        expect(text).toMatch(/line break or control character/);
        expect(requests).toHaveLength(0);
      },
    );

    it('refuses non-ASCII header text, saying what to do', async () => {
      const { result, text, requests } = await call('search_read', { 'X-Request-Id': 'café' });
      expect(result.isError).toBe(true);
      expect(text).toMatch(/non-ASCII/);
      expect(requests).toHaveLength(0);
    });

    it('cannot add a cookie through a cookie argument', async () => {
      const { result, requests } = await call('search_read', { pref: 'dark; session=stolen; admin=1' });
      expect(result.isError ?? false).toBe(false);
      const cookies = String(requests[0]?.headers.cookie ?? '')
        .split(/;\s*/)
        .map((pair) => pair.split('=')[0]);
      expect(cookies.sort()).toEqual(['pref', 'session']);
      expect(requests[0]?.headers.cookie).toContain(`session=${CANARY.cookie}`);
    });
  });

  describe('credentials come from the environment and never come back', () => {
    it('are sent to the API where the description puts them', async () => {
      const { requests } = await call('things_read', { id: '1' });
      const [request] = requests as [RecordedRequest];
      expect(request.headers['x-api-key']).toBe(CANARY.apiKey);
      expect(request.headers.authorization).toBe(`Bearer ${CANARY.bearer}`);
      expect(request.query.get('api_key')).toBe(CANARY.query);
      expect(request.headers.cookie).toContain(`session=${CANARY.cookie}`);
    });

    it('are not in tools/list', async () => {
      const { tools } = await client.listTools();
      expect(leaks(JSON.stringify(tools))).toEqual([]);
      for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {})).not.toContain('api_key');
    });

    it.each([
      { name: 'JSON', type: 'application/json', body: (request: RecordedRequest) => JSON.stringify(echoOf(request)) },
      { name: 'text', type: 'text/plain', body: (request: RecordedRequest) => JSON.stringify(echoOf(request), null, 2) },
      { name: 'HTML', type: 'text/html', body: (request: RecordedRequest) => `<pre>${JSON.stringify(echoOf(request))}</pre>` },
      { name: 'binary', type: 'application/octet-stream', body: (request: RecordedRequest) => JSON.stringify(echoOf(request)) },
    ])('are redacted from a successful $name answer that echoes the request', async ({ type, body }) => {
      upstream.reply = (request) => ({ status: 200, headers: { 'content-type': type }, body: body(request) });
      const { result } = await call('things_read', { id: 'echo' });
      expect(result.isError ?? false).toBe(false);
      expect(leaks(visible(result))).toEqual([]);
      expect(visible(result)).toContain('[redacted]');
    });

    it.each([401, 403, 404, 422, 500, 502])('are redacted from a %i error that echoes the request', async (status) => {
      upstream.reply = (request) => ({ status, body: JSON.stringify({ message: 'echo', request: echoOf(request) }) });
      const { result, text } = await call('things_read', { id: 'echo' });
      expect(result.isError).toBe(true);
      expect(text).toContain(String(status));
      expect(leaks(visible(result))).toEqual([]);
    });

    it('are redacted from an echo of HTTP Basic authentication (user:password in base64)', async () => {
      upstream.reply = (request) => ({ status: 200, body: JSON.stringify({ authorization: request.headers.authorization }) });
      const { result, requests } = await call('basic_echo_read', {});
      expect(requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from(`${CANARY.user}:${CANARY.password}`).toString('base64')}`);
      expect(leaks(visible(result))).toEqual([]);
    });

    it('are redacted from a redirect to another site that carries them', async () => {
      upstream.reply = () => ({ status: 302, headers: { location: `http://other.example/steal?key=${CANARY.apiKey}` }, body: '' });
      const { result } = await call('things_read', { id: 'redirect' });
      expect(visible(result)).toContain('other.example');
      expect(leaks(visible(result))).toEqual([]);
    });

    it('leave no prefix behind when the size cap cuts a body in the middle of one', async () => {
      const cap = 1024 * 1024;
      upstream.reply = () => ({
        status: 200,
        headers: { 'content-type': 'application/octet-stream' },
        body: Buffer.concat([Buffer.alloc(cap - 12, 'a'), Buffer.from(CANARY.apiKey)]),
      });
      const { result } = await call('download_read', { id: 'split' });
      const text = visible(result);
      expect(text).toContain('larger than the server reads');
      expect(text).not.toContain(CANARY.apiKey.slice(0, 12));
    });

    it('never reach the logs, even at debug level', () => {
      expect(server.stderr().length).toBeGreaterThan(0);
      expect(leaks(server.stderr())).toEqual([]);
    });
  });

  describe('upstream faults give a bounded, actionable error and leave the server healthy', () => {
    const healthy = async () => {
      upstream.reply = () => ({ body: '{"ok":true}' });
      const { result } = await call('things_read', { id: 'after' });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect((await fetch(new URL('/healthz', server.url))).status).toBe(200);
      expect(server.process.exitCode).toBeNull();
    };

    it('a timeout: retried for a read, then reported', async () => {
      upstream.reply = () => ({ raw: () => undefined });
      const { result, text, requests, elapsedMs } = await call('things_read', { id: 'slow' });
      expect(result.isError).toBe(true);
      expect(text).toMatch(/no complete answer .* in time/);
      expect(requests).toHaveLength(3);
      expect(elapsedMs).toBeLessThan(12_000);
      await healthy();
    });

    it('a timeout on a create: sent once, never retried', async () => {
      upstream.reply = () => ({ raw: () => undefined });
      const { result, requests } = await call('things_write', { action: 'create', name: 'x' });
      expect(result.isError).toBe(true);
      expect(requests).toHaveLength(1);
      await healthy();
    });

    it('a connection reset', async () => {
      upstream.reply = () => ({ raw: (response) => response.socket?.destroy() });
      const { result, text } = await call('things_read', { id: 'reset' });
      expect(result.isError).toBe(true);
      expect(text).toMatch(/could not be reached/);
      expect(text).toContain('ATTACK_TARGET_BASE_URL');
      await healthy();
    });

    it('429 with Retry-After: waits as told, retries a read, then says how long to wait', async () => {
      upstream.reply = () => ({ status: 429, headers: { 'retry-after': '1' }, body: '{"message":"slow down"}' });
      const { result, text, requests, elapsedMs } = await call('things_read', { id: 'limited' });
      expect(result.isError).toBe(true);
      expect(text).toMatch(/rate limiting: wait 1 seconds/);
      expect(requests).toHaveLength(3);
      expect(elapsedMs).toBeGreaterThanOrEqual(2_000);
      await healthy();
    });

    it('503 with a Retry-After too long to wait: answered at once, not retried', async () => {
      upstream.reply = () => ({ status: 503, headers: { 'retry-after': '120' }, body: 'maintenance' });
      const { result, text, requests, elapsedMs } = await call('things_read', { id: 'down' });
      expect(result.isError).toBe(true);
      expect(text).toMatch(/503/);
      expect(text).toMatch(/try again later/);
      expect(requests).toHaveLength(1);
      expect(elapsedMs).toBeLessThan(3_000);
      await healthy();
    });

    it.each([
      { action: 'get', tool: 'things_read', args: { id: '1' }, sent: 3 },
      { action: 'put (idempotent)', tool: 'things_write', args: { action: 'replace', id: '1', name: 'x' }, sent: 3 },
      { action: 'post (not idempotent)', tool: 'things_write', args: { action: 'create', name: 'x' }, sent: 1 },
    ])('503 without Retry-After: a $action is sent $sent times', async ({ tool, args, sent }) => {
      upstream.reply = () => ({ status: 503, body: '{"error":"unavailable"}' });
      const { result, requests } = await call(tool, args);
      expect(result.isError).toBe(true);
      expect(requests).toHaveLength(sent);
      await healthy();
    });

    it('malformed JSON', async () => {
      upstream.reply = () => ({ status: 200, body: '{"items": [1, 2,' });
      const { result, text } = await call('things_read', { id: 'broken' });
      expect(result.isError).toBe(true);
      expect(text).toMatch(/invalid JSON/);
      await healthy();
    });

    it('a content type that does not match the body', async () => {
      upstream.reply = () => ({ status: 200, headers: { 'content-type': 'image/png' }, body: '{"not": "an image"}' });
      const { result } = await call('things_read', { id: 'png' });
      expect(result.content).toBeDefined();
      await healthy();
    });

    it('a 100 MB body: read up to the cap, cut, with memory bounded', async () => {
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      upstream.reply = () => ({
        raw: (response) => {
          response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(100 * chunk.length + 2) });
          response.write('["');
          let sent = 0;
          const pump = () => {
            while (sent < 100) {
              sent++;
              if (!response.write(chunk)) return void response.once('drain', pump);
            }
            response.end();
          };
          pump();
        },
      });
      const before = await rssMb(server.process.pid as number);
      const { result, text, elapsedMs } = await call('things_read', { id: 'huge' });
      expect(result.isError ?? false).toBe(false);
      expect(text).toMatch(/larger than the server reads .* it was cut/);
      expect(text.length).toBeLessThan(100_000);
      expect(elapsedMs).toBeLessThan(10_000);
      expect((await rssMb(server.process.pid as number)) - before).toBeLessThan(150);
      await healthy();
    });

    it('a body that never ends', async () => {
      const timers: NodeJS.Timeout[] = [];
      upstream.reply = () => ({
        raw: (response) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.write('[');
          const timer = setInterval(() => response.write('1,'), 50);
          timers.push(timer);
          response.on('close', () => clearInterval(timer));
        },
      });
      const { result, text, elapsedMs } = await call('things_read', { id: 'endless' });
      timers.forEach(clearInterval);
      expect(result.isError).toBe(true);
      expect(text).toMatch(/no complete answer/);
      expect(elapsedMs).toBeLessThan(12_000);
      await healthy();
    });

    it('connection refused', async () => {
      // A port that was free a moment ago: nothing listens there.
      const closed = await new Promise<number>((resolve) => {
        const probe = createNetServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as AddressInfo;
          probe.close(() => resolve(port));
        });
      });
      const refused = await startHttpServer(dir, {
        ...env,
        ATTACK_TARGET_BASE_URL: `http://127.0.0.1:${closed}/api/v1`,
        ATTACK_TARGET_RETRIES: '0',
      });
      const other = await connectHttp(refused.url);
      try {
        const result = await other.callTool({ name: 'things_read', arguments: { id: '1' } });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/could not be reached .*ECONNREFUSED/);
        expect((await other.listTools()).tools.length).toBe(plan.tools.length);
      } finally {
        await other.close();
        await refused.stop();
      }
    });
  });

  describe('limits on tool calls over HTTP', () => {
    it('rate-limits tool calls per minute with an error that says how long to wait', async () => {
      const limited = await startHttpServer(dir, { ...env, ATTACK_TARGET_RATE_LIMIT: '5' });
      const other = await connectHttp(limited.url);
      upstream.reply = () => ({ body: '{"ok":true}' });
      upstream.requests.length = 0;
      try {
        const results = [];
        for (let index = 0; index < 7; index++)
          results.push(await other.callTool({ name: 'things_read', arguments: { id: String(index) } }));
        expect(results.slice(0, 5).every((result) => !result.isError)).toBe(true);
        expect(results[5]?.isError).toBe(true);
        expect(textOf(results[5] ?? {})).toMatch(/Too many tool calls: this server allows 5 per minute\. Wait \d+ seconds/);
        expect(upstream.requests).toHaveLength(5);
      } finally {
        await other.close();
        await limited.stop();
      }
    });

    it('keeps at most the configured number of calls in flight, and answers every call', async () => {
      const bounded = await startHttpServer(dir, { ...env, ATTACK_TARGET_MAX_CONCURRENCY: '2' });
      let inFlight = 0;
      let most = 0;
      upstream.reply = async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 300));
        inFlight--;
        return { body: '{"ok":true}' };
      };
      const clients = await Promise.all(Array.from({ length: 8 }, () => connectHttp(bounded.url)));
      try {
        const results = await Promise.all(
          clients.map((other, index) => other.callTool({ name: 'things_read', arguments: { id: String(index) } })),
        );
        expect(results.every((result) => !result.isError)).toBe(true);
        expect(most).toBeLessThanOrEqual(2);
        expect(most).toBeGreaterThan(0);
      } finally {
        await Promise.all(clients.map((other) => other.close()));
        await bounded.stop();
      }
    });
  });
});
