import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, UpstreamFailure } from '../../../templates/runtime/requests/http.js';
import type { Settings } from '../../../templates/runtime/config/settings.js';
import { loadSettings } from '../../../templates/runtime/config/settings.js';
import type { ActionRoute, OutgoingRequest } from '../../../templates/runtime/core/types.js';
import { failureResult } from '../../../templates/runtime/results/upstream-errors.js';

const settings: Settings = {
  timeoutMs: 800,
  totalTimeoutMs: 3000,
  retries: 5,
  maxResponseBytes: 1024 * 1024,
  maxResultTokens: 1000,
  rateLimitPerMinute: 0,
  maxConcurrentCalls: 4,
  maxRequestBytes: 1024 * 1024,
  logLevel: 'error',
  confirmation: { policy: 'off', tools: new Map(), keys: { keys: [], source: 'process' } },
  handleKeys: { keys: [], source: 'process' },
};

type Seen = { method: string; path: string; authorization?: string; body: string };

/** A local API that misbehaves by path; every request it gets is recorded. */
let server: Server;
let origin: string;
const seen: Seen[] = [];
const routes: Record<string, (request: IncomingMessage, response: ServerResponse, body: string) => void> = {
  '/api/v1/hang': () => undefined,
  '/api/v1/break-after-read': (request) => request.socket.destroy(),
  '/api/v1/out': (_request, response) => response.writeHead(302, { location: '/other/steal' }).end(),
  '/api/v1/in': (_request, response) => response.writeHead(307, { location: '/api/v1/landed' }).end(),
  '/api/v1/landed': (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
  '/api/v1/loop': (_request, response) => response.writeHead(302, { location: '/api/v1/loop' }).end(),
};

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      seen.push({
        method: request.method ?? '',
        path,
        body,
        ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
      });
      (routes[path] ?? ((_q, r) => r.writeHead(404).end()))(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const request = (method: string, path: string, body?: string): OutgoingRequest => ({
  method,
  url: new URL(`${origin}${path}`),
  headers: new Headers({ authorization: 'Bearer operator-secret-0123' }),
  ...(body !== undefined ? { body } : {}),
  baseUrl: new URL(`${origin}/api/v1`),
});
const route = (method: ActionRoute['method'], path: string): ActionRoute => ({
  operationId: 'op',
  method,
  path,
  arguments: [],
  required: [],
  security: [],
  accepts: [],
});
const context = (method: ActionRoute['method'], path: string) => ({
  toolName: 'things_write',
  actionName: '',
  route: route(method, path),
  siblings: [],
});
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as UpstreamFailure,
  );
const text = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((block) => block.text ?? '').join(' ');

describe('the time a call takes', () => {
  it('is bounded as a whole, retries included, by default under the 60 s after which clients give up', async () => {
    const defaults = loadSettings({ http: false, help: false, version: false }, {});
    expect(defaults.totalTimeoutMs).toBeLessThan(60_000);
    seen.length = 0;
    const failed = await failure(send(request('GET', '/api/v1/hang'), settings));
    expect(failed).toBeInstanceOf(UpstreamFailure);
    expect(failed?.kind).toBe('timeout');
    // Five retries of 800 ms each were allowed, but the call had 3 s in all: no attempt starts that could only time out.
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.length).toBeLessThanOrEqual(2);
  });
});

describe('a write whose connection broke after it was sent', () => {
  it('is not retried, and is reported as possibly applied: check before retrying', async () => {
    seen.length = 0;
    const failed = await failure(send(request('POST', '/api/v1/break-after-read', '{"text":"hello"}'), settings));
    expect(failed?.mayHaveArrived).toBe(true);
    expect(seen.map((item) => item.method)).toEqual(['POST']);
    const result = failureResult(failed as UpstreamFailure, context('post', '/break-after-read'));
    expect(text(result)).toContain('it may have been applied — check before retrying');
    expect(text(result)).not.toContain('then try again');
  });

  it('that never reached the API is reported as unreachable, to be tried again', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const failed = await failure(
      send({ method: 'POST', url: new URL(`http://127.0.0.1:${port}/x`), headers: new Headers(), body: '{}' }, settings),
    );
    expect(failed?.mayHaveArrived).toBe(false);
    expect(text(failureResult(failed as UpstreamFailure, context('post', '/x')))).toContain('could not be reached');
  });
});

describe('redirects', () => {
  it('that leave the base URL are not followed, even on the same origin: no credential, no body goes there', async () => {
    seen.length = 0;
    const response = await send(request('POST', '/api/v1/out', '{"secret":"body"}'), settings);
    expect(response.redirectedTo).toBe(`${origin}/other/steal`);
    expect(seen.map((item) => item.path)).toEqual(['/api/v1/out']);
  });

  it('inside the base URL are followed, a 307 with its body', async () => {
    seen.length = 0;
    const response = await send(request('POST', '/api/v1/in', '{"a":1}'), settings);
    expect(response.status).toBe(200);
    expect(seen.map((item) => [item.path, item.body])).toEqual([
      ['/api/v1/in', '{"a":1}'],
      ['/api/v1/landed', '{"a":1}'],
    ]);
  });

  it('that loop are an error, not a result', async () => {
    const failed = await failure(send(request('GET', '/api/v1/loop'), settings));
    expect(failed?.kind).toBe('redirects');
    expect(text(failureResult(failed as UpstreamFailure, context('get', '/loop')))).toContain('kept redirecting');
  });
});
