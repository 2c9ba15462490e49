import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/load/openapi-document.js';
import { sampleArguments } from '../../src/emit/test-cases.js';
import type { ToolModel, ToolPlan } from '../../src/plan/tool-plan.js';
import { vendorEntry } from '../helpers/corpus.js';
import { buildProject, generateProject, linkDependencies, startHttpServer, tempDir, textOf, type HttpServer } from '../helpers/project.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/**
 * Routing headers end to end: servers generated from vendor descriptions with routing parameters, built, started
 * over Streamable HTTP and driven by the official client. The client must keep every tool (it drops tools whose
 * x-mcp-header markings break SEP-2243), send the Mcp-Param-* headers, and the server must hold them against the
 * body; the API must receive the value intact.
 */
const APIS = [
  {
    name: 'Twilio',
    spec: 'twilio-api-v2010',
    property: 'AccountSid',
    header: 'Account-Sid',
    value: `AC${'0123456789abcdef'.repeat(2)}`,
  },
  { name: 'Xero', spec: 'xero-accounting', property: 'xero-tenant-id', header: 'Xero-Tenant-Id', value: 'tenant-42' },
  { name: 'SendGrid', spec: 'sendgrid-v3', property: 'on-behalf-of', header: 'On-Behalf-Of', value: 'account-id 1234' },
  { name: 'Adyen', spec: 'adyen-management-v3', property: 'merchantId', header: 'Merchant-Id', value: 'Händler_01' },
  { name: 'Asana', spec: 'asana-api', property: 'workspace_gid', header: 'Workspace-Gid', value: 'Arbeitsbereich-ß 9' },
] as const;

const PROTOCOL = '2026-07-28';

type Sent = { headers: Headers; body: string };

/** A fetch for the client transport that records what the client sends. */
function recordingFetch(sent: Sent[]): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (url, init) => {
    sent.push({ headers: new Headers(init?.headers), body: typeof init?.body === 'string' ? init.body : '' });
    return fetch(url, init);
  };
}

/** The client-side encoding of SEP-2243: plain ASCII as is, anything else as a Base64 sentinel of its UTF-8. */
function encoded(value: string): string {
  return /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** A `tools/call` as a conforming client would send it, with the Mcp-Param headers given. */
function rawCall(url: string, tool: string, args: Record<string, JsonValue>, extra: Record<string, string>, token?: string) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      'mcp-method': 'tools/call',
      'mcp-name': tool,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...extra,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: tool,
        arguments: args,
        _meta: { 'io.modelcontextprotocol/protocolVersion': PROTOCOL, 'io.modelcontextprotocol/clientCapabilities': {} },
      },
    }),
  });
}

/** The Mcp-Param headers a conforming client sends for these arguments: one per marked property with a value. */
function paramHeaders(tool: ToolModel, args: Record<string, JsonValue>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const decision of tool.headers.marked) {
    const value = args[decision.property];
    if (value !== undefined && value !== null) headers[`Mcp-Param-${decision.header}`] = encoded(String(value));
  }
  return headers;
}

/** The first tool and action that use the marked property, with sample arguments around the given value. */
function pickCall(plan: ToolPlan, property: string, value: string): { tool: ToolModel; args: Record<string, JsonValue> } {
  for (const tool of plan.tools) {
    if (!tool.headers.marked.some((decision) => decision.property === property)) continue;
    for (const action of tool.actions) {
      if (!action.route.arguments.some((argument) => argument.arg === property)) continue;
      // Valid against the action's full rules, which the server checks: the input schema may leave some out.
      const args = sampleArguments(tool, action.name, 'required', plan.argumentDefs as JsonObject);
      if (args) return { tool, args: { ...args, [property]: value } };
    }
  }
  throw new Error(`no action takes ${property}`);
}

function envFor(plan: ToolPlan, upstream: Upstream, secret: string): Record<string, string> {
  const env: Record<string, string> = { [`${plan.api.envPrefix}_BASE_URL`]: `${upstream.url}/api` };
  for (const credential of plan.api.credentials) for (const name of credential.env.slice(0, 2)) env[name] = secret;
  return env;
}

function foreignHostStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end('{}');
  });
}

describe.each(APIS)('$name: routing headers over Streamable HTTP', (api) => {
  let dir: string;
  let plan: ToolPlan;
  let upstream: Upstream;
  let server: HttpServer;
  let client: Client;
  const sent: Sent[] = [];

  beforeAll(async () => {
    dir = await tempDir(`headers-${api.name.toLowerCase()}`);
    plan = (await generateProject({ spec: vendorEntry(api.spec).spec, out: dir })).plan as ToolPlan;
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
    server = await startHttpServer(dir, envFor(plan, upstream, 'api-credential-0123456789'));
    client = new Client({ name: 'headers-e2e', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: recordingFetch(sent) }));
  });

  afterAll(async () => {
    await client?.close();
    await server?.stop();
    await upstream?.close();
  });

  it('lists every tool, with the marking on the routing property', async () => {
    const { tools } = await client.listTools();
    // The client drops any tool whose markings break SEP-2243: keeping them all proves every marking valid.
    expect(tools.map((tool) => tool.name)).toEqual(plan.tools.map((tool) => tool.name));
    const { tool } = pickCall(plan, api.property, api.value);
    const listed = tools.find((candidate) => candidate.name === tool.name);
    const properties = listed?.inputSchema['properties'] as Record<string, Record<string, unknown>>;
    expect(properties[api.property]?.['x-mcp-header']).toBe(api.header);
    expect(server.stderr()).not.toMatch(/excluded by conforming/);
  });

  it('sends the Mcp-Param header, and the value reaches the API intact', async () => {
    await client.listTools();
    const { tool, args } = pickCall(plan, api.property, api.value);
    sent.length = 0;
    upstream.requests.length = 0;
    const result = await client.callTool({ name: tool.name, arguments: args });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const call = sent.find((entry) => entry.headers.get('mcp-method') === 'tools/call');
    expect(call?.headers.get(`mcp-param-${api.header}`)).toBe(encoded(api.value));
    expect(call?.headers.get('mcp-name')).toBe(tool.name);
    const [received] = upstream.requests;
    const route = tool.actions.flatMap((action) => action.route.arguments).find((argument) => argument.arg === api.property);
    if (route?.in === 'path') expect(decodeURIComponent(received?.path ?? '')).toContain(`/${api.value}`);
    else if (route?.in === 'header') expect(received?.headers[route.name.toLowerCase()]).toBe(api.value);
    else if (route?.in === 'query') expect(received?.query.get(route.name)).toBe(api.value);
    else throw new Error(`marked property in ${route?.in}`);
  });

  it('answers a header that disagrees with the body with 400 / -32020', async () => {
    const { tool, args } = pickCall(plan, api.property, api.value);
    const header = `Mcp-Param-${api.header}`;
    const { [header]: _value, ...others } = paramHeaders(tool, args);
    const agreeing = await rawCall(server.url, tool.name, args, { ...others, [header]: encoded(api.value) });
    expect(agreeing.status).toBe(200);
    for (const headers of [{ ...others, [header]: 'someone-else' }, others]) {
      const response = await rawCall(server.url, tool.name, args, headers);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error?: { code?: number } };
      expect(body.error?.code).toBe(-32020);
    }
  });

  it('refuses a foreign Host header', async () => {
    expect(await foreignHostStatus(server.url)).toBe(403);
  });
});

describe('Asana behind bearer-token protection', () => {
  const clientToken = 'mcp-client-token-5f0c2a9e';
  const apiToken = 'asana-api-token-77d1b3';
  let dir: string;
  let plan: ToolPlan;
  let upstream: Upstream;
  let server: HttpServer;

  beforeAll(async () => {
    dir = await tempDir('headers-auth');
    plan = (await generateProject({ spec: vendorEntry('asana-api').spec, out: dir })).plan as ToolPlan;
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
    server = await startHttpServer(dir, {
      ...envFor(plan, upstream, apiToken),
      [`${plan.api.envPrefix}_MCP_AUTH_TOKENS`]: `other-token-000000,${clientToken}`,
      [`${plan.api.envPrefix}_MCP_AUTH_ISSUER`]: 'https://auth.example.com',
      [`${plan.api.envPrefix}_MCP_AUTH_SCOPES`]: 'mcp',
    });
  });

  afterAll(async () => {
    await server?.stop();
    await upstream?.close();
  });

  it('answers a request without a valid token with 401 and a challenge naming the metadata', async () => {
    const { tool, args } = pickCall(plan, 'workspace_gid', '123');
    for (const token of [undefined, 'wrong-token-123456']) {
      const response = await rawCall(server.url, tool.name, args, paramHeaders(tool, args), token);
      expect(response.status).toBe(401);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer /);
      expect(challenge).toContain('error="invalid_token"');
      expect(challenge).toContain(`resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', server.url).href}"`);
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it('serves the protected-resource metadata', async () => {
    const response = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', server.url));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      resource: server.url,
      authorization_servers: ['https://auth.example.com'],
      scopes_supported: ['mcp'],
    });
  });

  it('serves a client with a valid token, and never forwards that token to the API', async () => {
    const client = new Client({ name: 'headers-e2e-auth', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${clientToken}` } } }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(plan.tools.length);
      upstream.requests.length = 0;
      const { tool, args } = pickCall(plan, 'workspace_gid', 'Zürich-1');
      const result = await client.callTool({ name: tool.name, arguments: args });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(upstream.requests.length).toBeGreaterThan(0);
      for (const request of upstream.requests) {
        const everything = JSON.stringify(request.headers) + request.url + request.body.toString('latin1');
        expect(everything).not.toContain(clientToken);
        expect(everything).not.toContain(Buffer.from(clientToken).toString('base64'));
      }
      expect(upstream.requests[0]?.headers['authorization']).toBe(`Bearer ${apiToken}`);
    } finally {
      await client.close();
    }
  });
});
