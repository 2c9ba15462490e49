import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countToolTokens } from '../../src/plan/budget/count-tokens.js';
import { fixtureSpec } from '../helpers/paths.js';
import {
  buildProject,
  connectHttp,
  connectStdio,
  generateProject,
  linkDependencies,
  runProjectTests,
  startHttpServer,
  tempDir,
  textOf,
  type HttpServer,
} from '../helpers/project.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

type Found = { action: string; summary: string; method: string; path: string; call: string; inputSchema: { properties?: object } };

/**
 * The search surface as a user runs it: generated with `--surface search` from a real description, built, started
 * over stdio and HTTP, and driven by the official client against a recording upstream: find an action, then call
 * it through the tool of its safety class, which refuses the other classes and checks the arguments first.
 */
describe('the search surface of Swagger Petstore 3.0', () => {
  let dir: string;
  let upstream: Upstream;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = await tempDir('search-surface-e2e');
    await generateProject({ spec: fixtureSpec('swaggerio-petstore-v3.yaml'), out: dir, surface: 'search' });
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

  const search = async (client: Client, query: string): Promise<Found[]> => {
    const result = await client.callTool({ name: 'search_actions', arguments: { query } });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const results = (result.structuredContent as { results: Found[] }).results;
    expect(JSON.parse(textOf(result))).toEqual({ results });
    return results;
  };

  const calls = (client: () => Client) => {
    it('lists four tools with true annotations, well within 2,500 tokens', async () => {
      const { tools } = await client().listTools();
      expect(tools.map((tool) => [tool.name, tool.annotations])).toEqual([
        ['search_actions', { readOnlyHint: true, openWorldHint: false }],
        ['call_read_action', { readOnlyHint: true }],
        ['call_write_action', { readOnlyHint: false, destructiveHint: false }],
        ['call_delete_action', { readOnlyHint: false, destructiveHint: true }],
      ]);
      const tokens = tools.reduce(
        (sum, tool) =>
          sum +
          countToolTokens({
            name: tool.name,
            title: tool.title ?? '',
            description: tool.description ?? '',
            inputSchema: tool.inputSchema as never,
            annotations: tool.annotations as never,
          }),
        0,
      );
      expect(tokens).toBeLessThanOrEqual(2500);
    });

    it('finds an action from a plain request, with what a call needs', async () => {
      upstream.requests.length = 0;
      const [best] = await search(client(), 'which pets are sold');
      expect(best).toMatchObject({
        action: 'pet_read.find_by_status',
        method: 'GET',
        path: '/pet/findByStatus',
        call: 'call_read_action',
      });
      expect(Object.keys(best?.inputSchema.properties ?? {})).toEqual(['status', 'response_format']);
      expect(upstream.requests).toHaveLength(0);
    });

    it('runs a read through call_read_action: query, OAuth bearer token', async () => {
      upstream.requests.length = 0;
      upstream.reply = () => ({ body: '[{"id":1,"name":"Rex","status":"sold"}]' });
      const result = await client().callTool({
        name: 'call_read_action',
        arguments: { action: 'pet_read.find_by_status', arguments: { status: 'sold' } },
      });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const [request] = upstream.requests;
      expect(request?.url).toBe('/api/v3/pet/findByStatus?status=sold');
      expect(request?.headers['authorization']).toBe('Bearer token-0123456789');
    });

    it('runs a write through call_write_action: JSON body, bearer token', async () => {
      upstream.requests.length = 0;
      upstream.reply = () => ({ body: '{"id":1}' });
      const [found] = await search(client(), 'add a new pet to the store');
      expect(found?.call).toBe('call_write_action');
      const pet = { name: 'Rex', photoUrls: ['https://example.com/rex.png'], status: 'available' };
      const result = await client().callTool({ name: 'call_write_action', arguments: { action: found?.action, arguments: pet } });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const [request] = upstream.requests;
      expect(request?.method).toBe('POST');
      expect(request?.path).toBe('/api/v3/pet');
      expect(request?.headers['authorization']).toBe('Bearer token-0123456789');
      expect(JSON.parse(request?.body.toString() ?? '{}')).toEqual(pet);
    });

    it('runs a deletion through call_delete_action', async () => {
      upstream.requests.length = 0;
      upstream.reply = () => ({ body: '' });
      const result = await client().callTool({ name: 'call_delete_action', arguments: { action: 'pet_delete', arguments: { petId: 9 } } });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(upstream.requests[0]?.method).toBe('DELETE');
      expect(upstream.requests[0]?.path).toBe('/api/v3/pet/9');
    });

    it('refuses an action of another safety class and names the right tool, sending nothing', async () => {
      upstream.requests.length = 0;
      const asRead = await client().callTool({ name: 'call_read_action', arguments: { action: 'pet_delete', arguments: { petId: 9 } } });
      expect(asRead.isError).toBe(true);
      expect(textOf(asRead)).toContain(
        'pet_delete deletes (DELETE /pet/{petId}), so call_read_action does not run it: call call_delete_action',
      );
      const asWrite = await client().callTool({
        name: 'call_write_action',
        arguments: { action: 'pet_read.get', arguments: { petId: 1 } },
      });
      expect(asWrite.isError).toBe(true);
      expect(textOf(asWrite)).toContain('call call_read_action');
      expect(upstream.requests).toHaveLength(0);
    });

    it("validates the arguments against the action's schema before calling the API", async () => {
      upstream.requests.length = 0;
      const wrongType = await client().callTool({
        name: 'call_read_action',
        arguments: { action: 'pet_read.get', arguments: { petId: 'seven' } },
      });
      expect(wrongType.isError).toBe(true);
      expect(textOf(wrongType)).toMatch(/inputSchema of pet_read\.get: .*integer/);
      const missing = await client().callTool({ name: 'call_read_action', arguments: { action: 'pet_read.get', arguments: {} } });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toContain('petId');
      const foreign = await client().callTool({
        name: 'call_read_action',
        arguments: { action: 'pet_read.get', arguments: { petId: 1, color: 'red' } },
      });
      expect(foreign.isError).toBe(true);
      expect(textOf(foreign)).toContain('pet_read.get does not take "color"; it takes "petId"');
      expect(upstream.requests).toHaveLength(0);
    });

    it('answers an unknown id with close matches', async () => {
      const result = await client().callTool({ name: 'call_read_action', arguments: { action: 'get_pet', arguments: {} } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/There is no action "get_pet"\. Close matches: .*pet_read\.get/);
    });

    it('reports an upstream error as an actionable tool error without leaking the key', async () => {
      upstream.reply = (request) => ({ status: 404, body: JSON.stringify({ message: 'Pet not found', echo: request.headers['api_key'] }) });
      const result = await client().callTool({
        name: 'call_read_action',
        arguments: { action: 'pet_read.get', arguments: { petId: 404 } },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('Pet not found');
      expect(textOf(result)).not.toContain('key-0123456789');
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
  });

  it("passes the generated project's own test suite: every action found by its summary and called through its tool", async () => {
    const result = await runProjectTests(dir);
    expect(result.code, `${result.stdout}\n${result.stderr}`.slice(-4000)).toBe(0);
  });
});
