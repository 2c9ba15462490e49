import { request as httpRequest } from 'node:http';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSpec } from '../helpers/paths.js';
import {
  buildProject,
  connectHttp,
  connectStdio,
  generateProject,
  linkDependencies,
  run,
  startHttpServer,
  tempDir,
  textOf,
  type HttpServer,
} from '../helpers/project.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/**
 * The generated server as a user runs it: generated from a real description, built with tsc, started over stdio
 * and over HTTP, driven by the official MCP client against a real HTTP server standing in for the API.
 */
describe('Swagger Petstore 3.0, generated and driven by the official client', () => {
  let dir: string;
  let upstream: Upstream;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = await tempDir('petstore-e2e');
    await generateProject({ spec: fixtureSpec('swaggerio-petstore-v3.yaml'), out: dir });
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
    env = {
      SWAGGER_PETSTORE_BASE_URL: `${upstream.url}/api/v3`,
      SWAGGER_PETSTORE_API_KEY: 'key-0123456789',
      SWAGGER_PETSTORE_PETSTORE_AUTH_ACCESS_TOKEN: 'token-0123456789',
    };
  });

  afterAll(async () => {
    await upstream?.close();
  });

  const calls = (client: () => Client) => {
    it('lists tools with valid names, schemas and cache hints', async () => {
      const listed = await client().listTools();
      const names = listed.tools.map((tool) => tool.name);
      expect(names).toEqual([...names].sort());
      expect(names).toEqual(expect.arrayContaining(['pet_read', 'pet_write', 'pet_delete', 'store_order_read', 'user_read', 'user_write']));
      for (const tool of listed.tools) {
        expect(tool.name).toMatch(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/);
        expect(tool.inputSchema.type).toBe('object');
        expect(Object.keys(tool.inputSchema)).not.toContain('oneOf');
        expect((tool.description ?? '').split(/(?<=[.!?])\s/).length).toBeGreaterThanOrEqual(3);
      }
    });

    it('reads a pet: path argument, api key header', async () => {
      upstream.requests.length = 0;
      upstream.reply = () => ({ body: JSON.stringify({ id: 7, name: 'Rex', status: 'sold' }) });
      const result = await client().callTool({ name: 'pet_read', arguments: { action: 'get', petId: 7 } });
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toEqual({ id: 7, name: 'Rex', status: 'sold' });
      const [request] = upstream.requests;
      expect(request?.method).toBe('GET');
      expect(request?.path).toBe('/api/v3/pet/7');
      expect(request?.headers['api_key']).toBe('key-0123456789');
    });

    it('finds pets by tags: exploded form array in the query', async () => {
      upstream.requests.length = 0;
      upstream.reply = () => ({ body: '[]' });
      const result = await client().callTool({ name: 'pet_read', arguments: { action: 'find_by_tags', tags: ['a b', 'c'] } });
      expect(result.isError ?? false).toBe(false);
      expect(upstream.requests[0]?.url).toBe('/api/v3/pet/findByTags?tags=a%20b&tags=c');
    });

    it('adds a pet: JSON body from flattened arguments, OAuth bearer token', async () => {
      upstream.requests.length = 0;
      upstream.reply = () => ({ body: JSON.stringify({ id: 1 }) });
      const pet = { name: 'Rex', photoUrls: ['https://example.com/rex.png'], status: 'available', tags: [{ id: 1, name: 'good' }] };
      const result = await client().callTool({ name: 'pet_write', arguments: { action: 'add', ...pet } });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const [request] = upstream.requests;
      expect(request?.method).toBe('POST');
      expect(request?.path).toBe('/api/v3/pet');
      expect(request?.headers['content-type']).toBe('application/json');
      expect(request?.headers['authorization']).toBe('Bearer token-0123456789');
      expect(JSON.parse(request?.body.toString() ?? '{}')).toEqual(pet);
    });

    it('uploads a file: octet-stream body from base64, query parameter', async () => {
      upstream.requests.length = 0;
      upstream.reply = () => ({ body: JSON.stringify({ code: 200 }) });
      const result = await client().callTool({
        name: 'pet_write',
        arguments: {
          action: 'upload_file',
          petId: 3,
          additionalMetadata: 'front view',
          request_body: Buffer.from('hello').toString('base64'),
        },
      });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const [request] = upstream.requests;
      expect(request?.url).toBe('/api/v3/pet/3/uploadImage?additionalMetadata=front%20view');
      expect(request?.headers['content-type']).toBe('application/octet-stream');
      expect(request?.body.toString()).toBe('hello');
    });

    it('deletes a pet with the destructive tool', async () => {
      upstream.requests.length = 0;
      upstream.reply = () => ({ status: 200, body: '' });
      const listed = await client().listTools();
      const tool = listed.tools.find((candidate) => candidate.name === 'pet_delete');
      expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      const result = await client().callTool({ name: 'pet_delete', arguments: { petId: 9 } });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(upstream.requests[0]?.method).toBe('DELETE');
      expect(upstream.requests[0]?.path).toBe('/api/v3/pet/9');
    });

    it('reports an upstream 404 as an actionable tool error without leaking the key', async () => {
      upstream.reply = (request) => ({ status: 404, body: JSON.stringify({ message: 'Pet not found', echo: request.headers['api_key'] }) });
      const result = await client().callTool({ name: 'pet_read', arguments: { action: 'get', petId: 404 } });
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toContain('404');
      expect(text).toContain('Pet not found');
      expect(text).not.toContain('key-0123456789');
    });

    it('validates arguments against the input schema (compiled on first use) before calling the API', async () => {
      upstream.requests.length = 0;
      const wrongAction = await client().callTool({ name: 'pet_read', arguments: { action: 'no_such_action', petId: 1 } });
      expect(wrongAction.isError).toBe(true);
      expect(textOf(wrongAction)).toMatch(/action/);
      const wrongType = await client().callTool({ name: 'pet_read', arguments: { action: 'get', petId: 'seven' } });
      expect(wrongType.isError).toBe(true);
      expect(textOf(wrongType)).toMatch(/petId|integer/);
      expect(upstream.requests).toHaveLength(0);
    });

    it('refuses a missing argument with a message naming it', async () => {
      upstream.requests.length = 0;
      const result = await client().callTool({ name: 'pet_read', arguments: { action: 'get' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('petId');
      expect(upstream.requests).toHaveLength(0);
    });
  };

  describe('over stdio', () => {
    let client: Client;
    beforeAll(async () => {
      client = await connectStdio(dir, env);
    });
    afterAll(async () => {
      await client?.close();
    });
    calls(() => client);
  });

  describe('over Streamable HTTP', () => {
    let server: HttpServer;
    let client: Client;
    beforeAll(async () => {
      server = await startHttpServer(dir, env);
      client = await connectHttp(server.url);
    });
    afterAll(async () => {
      await client?.close();
      await server?.stop();
    });
    calls(() => client);

    it('refuses a foreign Host header (DNS rebinding)', async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          server.url,
          { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on('error', reject);
        request.end('{}');
      });
      expect(status).toBe(403);
    });

    it('answers the health check', async () => {
      const response = await fetch(new URL('/healthz', server.url));
      expect(await response.json()).toEqual({ status: 'ok' });
    });
  });

  it("passes the generated project's own test suite", async () => {
    const result = await run(process.execPath, [path.join(dir, 'node_modules/vitest/vitest.mjs'), 'run'], { cwd: dir });
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });
});
