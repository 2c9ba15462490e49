import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
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
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/**
 * The generated server's request path, over Streamable HTTP against a recording upstream that misbehaves on demand:
 * echoes of its credentials in JSON escapes, a write whose connection breaks after the API read it, redirects off
 * the base path and in a loop, argument keys that would shadow credentials, arguments too large or too deep,
 * JSON-RPC batches of the older protocol, idle connections, and callers that share the process.
 */
const SPEC = path.join(REPO_ROOT, 'test/fixtures/hostile/request-path.yaml');
const CANARY = { apiKey: 'canary-apikey-3e7d1c9a', query: 'canary-query-8b2f6e04', cookie: 'canary-cookie-5a9c3d71' };

/** A JSON-RPC POST to /mcp of the older protocol (stateless), from a given local address. */
function post(url: string, body: string, localAddress = '127.0.0.1'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      {
        method: 'POST',
        localAddress,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
      },
      (incoming) => {
        let text = '';
        incoming.on('data', (chunk: Buffer) => (text += chunk.toString()));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('the request path of a generated server', () => {
  let dir: string;
  let upstream: Upstream;
  let env: Record<string, string>;
  let server: HttpServer;
  let client: Client;
  let inFlight = 0;
  let mostInFlight = 0;

  const call = async (name: string, args: Record<string, unknown>) => {
    upstream.requests.length = 0;
    const result = await client.callTool({ name, arguments: args });
    return {
      result,
      text: textOf(result),
      visible: `${textOf(result)}\n${JSON.stringify(result.structuredContent ?? null)}`,
      requests: [...upstream.requests],
    };
  };

  beforeAll(async () => {
    dir = await tempDir('request-path');
    const plan = (await generateProject({ spec: SPEC, out: dir })).plan as ToolPlan;
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
    upstream.reply = async (request) => {
      if (request.path === '/api/v1/things/escaped')
        // A .NET or Go encoder's echo: the key's first letter as a \u escape, which no byte scrubbing sees.
        return { body: `{"echo":"\\u0063${CANARY.apiKey.slice(1)}","headers":"${request.headers['x-api-key']}"}` };
      if (request.path === '/api/v1/things' && request.method === 'POST') return { raw: (response) => response.socket?.destroy() };
      if (request.path === '/api/v1/things/out') return { status: 302, headers: { location: '/admin/steal' } };
      if (request.path === '/api/v1/things/loop') return { status: 302, headers: { location: '/api/v1/things/loop' } };
      if (request.path.startsWith('/api/v1/things/slow')) {
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 300));
        inFlight--;
      }
      return { body: JSON.stringify({ path: request.path }) };
    };
    const byScheme = Object.fromEntries(plan.api.credentials.map((credential) => [credential.scheme, credential.env[0] ?? '']));
    env = {
      REQUEST_PATH_BASE_URL: `${upstream.url}/api/v1`,
      [byScheme['apiKey'] ?? '']: CANARY.apiKey,
      [byScheme['queryKey'] ?? '']: CANARY.query,
      [byScheme['sessionCookie'] ?? '']: CANARY.cookie,
      REQUEST_PATH_MAX_CONCURRENCY: '2',
      REQUEST_PATH_RATE_LIMIT: '0',
    };
    server = await startHttpServer(dir, env);
    client = await connectHttp(server.url);
  }, 300_000);

  afterAll(async () => {
    await client?.close();
    await server?.stop();
    await upstream?.close();
  });

  it('never hands the model a credential the API echoes with JSON escapes', async () => {
    const { result, visible, requests } = await call('things_read', { action: 'get', id: 'escaped' });
    expect(result.isError ?? false, visible).toBe(false);
    expect(requests[0]?.headers['x-api-key']).toBe(CANARY.apiKey);
    for (const secret of Object.values(CANARY)) expect(visible).not.toContain(secret);
    expect(result.structuredContent).toEqual({ echo: '[redacted]', headers: '[redacted]' });
  });

  it('reports a write whose connection broke after the API read it as possibly applied, and sends it once', async () => {
    const { result, text, requests } = await call('things_write', { name: 'a thing' });
    expect(result.isError).toBe(true);
    expect(text).toContain('may have been applied — check before retrying');
    expect(text).not.toContain('try again');
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('does not follow a redirect off the base path with its credentials, and takes a loop for an error', async () => {
    const out = await call('things_read', { action: 'get', id: 'out' });
    expect(out.result.isError).toBe(true);
    expect(out.text).toContain("outside the API's base URL");
    expect(out.requests.map((request) => request.path)).toEqual(['/api/v1/things/out']);
    const loop = await call('things_read', { action: 'get', id: 'loop' });
    expect(loop.result.isError).toBe(true);
    expect(loop.text).toContain('kept redirecting');
  });

  it('refuses argument keys that would shadow a credential, and encodes cookie keys', async () => {
    const shadow = await call('things_read', { action: 'list', filter: { api_key: 'attacker' } });
    expect(shadow.result.isError).toBe(true);
    expect(shadow.text).toContain('cannot hold the key "api_key"');
    expect(shadow.requests).toEqual([]);
    const cookie = await call('things_read', { action: 'list', prefs: { 'theme; session': 'attacker' } });
    expect(cookie.result.isError ?? false, cookie.text).toBe(false);
    expect(cookie.requests[0]?.headers.cookie).toBe(`theme%3B%20session=attacker; session=${CANARY.cookie}`);
  });

  it('answers arguments too large or too deep with what to do instead, without parsing or walking them whole', async () => {
    const keys = Object.fromEntries(Array.from({ length: 250_000 }, (_, index) => [`k${index}`, 1]));
    const large = await post(server.url, JSON.stringify(toolCall(1, 'things_write', { name: 'x', meta: keys })));
    expect(large.status).toBe(413);
    expect(large.text).toContain('more than 100,000 values');
    let deep: unknown = 'bottom';
    for (let level = 0; level < 200; level++) deep = { a: deep };
    const nested = await call('things_write', { name: 'x', meta: deep as Record<string, unknown> });
    expect(nested.result.isError).toBe(true);
    expect(nested.text).toContain('nest deeper than 64 levels');
    expect(nested.text).not.toContain('not caused by the arguments');
    expect(nested.requests).toEqual([]);
  });

  it('counts every call of a JSON-RPC batch against MAX_CONCURRENCY', async () => {
    mostInFlight = 0;
    const batch = Array.from({ length: 6 }, (_, index) => toolCall(index + 1, 'things_read', { action: 'get', id: `slow-${index}` }));
    const answer = await post(server.url, JSON.stringify(batch));
    expect(answer.status).toBe(200);
    for (let index = 1; index <= 6; index++) expect(answer.text).toContain(`/api/v1/things/slow-${index - 1}`);
    expect(mostInFlight).toBeGreaterThan(0);
    expect(mostInFlight).toBeLessThanOrEqual(2);
  });

  it('keeps an idle connection longer than a load balancer does (past Node’s 5 s default)', async () => {
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    const responses: string[] = [];
    socket.on('data', (chunk: Buffer) => responses.push(chunk.toString()));
    const ask = () => socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`);
    await new Promise((resolve) => socket.once('connect', resolve));
    ask();
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(socket.destroyed).toBe(false);
    ask();
    await new Promise((resolve) => setTimeout(resolve, 500));
    socket.destroy();
    expect(responses.join('').match(/HTTP\/1\.1 200/g)).toHaveLength(2);
  }, 20_000);

  it('limits calls per minute per caller, not for the whole process', async () => {
    const limited = await startHttpServer(dir, { ...env, REQUEST_PATH_RATE_LIMIT: '2' });
    try {
      const get = (localAddress: string) =>
        post(limited.url, JSON.stringify(toolCall(1, 'things_read', { action: 'get', id: 'a' })), localAddress);
      for (let index = 0; index < 2; index++) expect((await get('127.0.0.1')).text).toContain('/api/v1/things/a');
      expect((await get('127.0.0.1')).text).toContain('Too many tool calls');
      // Another caller (another address of this machine) has calls of its own.
      expect((await get('127.0.0.2')).text).toContain('/api/v1/things/a');
    } finally {
      await limited.stop();
    }
  });

  it('does not listen on a public interface without the host names it answers for', async () => {
    await expect(startHttpServer(dir, env, ['--host', '0.0.0.0'])).rejects.toThrow(
      /needs the names clients reach this server by: set REQUEST_PATH_ALLOWED_HOSTS/,
    );
    const open = await startHttpServer(dir, { ...env, REQUEST_PATH_ALLOWED_HOSTS: '*' }, ['--host', '0.0.0.0']);
    await open.stop();
  });
});
