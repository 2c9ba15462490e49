import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleArguments } from '../../src/emit/test-cases.js';
import type { JsonObject } from '../../src/kernel/json.js';
import type { ToolPlan } from '../../src/plan/tool-plan.js';
import { vendorEntry } from '../helpers/corpus.js';
import { fragment } from '../helpers/paths.js';
import {
  buildProject,
  connectHttp,
  connectStdio,
  generateProject,
  linkDependencies,
  startHttpServer,
  tempDir,
  textOf,
  type HttpServer,
} from '../helpers/project.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/**
 * The server checks what the model was not told: generated servers, built and started as users run them, refuse
 * arguments that break the description's rules with an answer naming the argument, the rule and a valid value, and
 * send nothing to the API (a recording upstream proves it), while valid calls go through.
 */

/** A Sentry-like description: a 32-hex replay ID, enums, formats, bounds, nested bodies, unions, readOnly fields. */
const sentryLike = {
  openapi: '3.0.3',
  info: { title: 'Replays', version: '1.0.0' },
  servers: [{ url: 'https://sentry.example.com/api/0' }],
  paths: {
    '/organizations/{organization_id_or_slug}/replays/{replay_id}/': {
      get: {
        operationId: 'getReplay',
        summary: 'Retrieve a replay instance',
        parameters: [
          { name: 'organization_id_or_slug', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'replay_id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
          { name: 'statsPeriod', in: 'query', schema: { type: 'string', enum: ['1h', '24h', '14d'] } },
          { name: 'start', in: 'query', schema: { type: 'string', format: 'date-time' } },
          { name: 'per_page', in: 'query', schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 100 } },
          { name: 'filter[environment]', in: 'query', schema: { type: 'string', pattern: '^[a-z]+$', example: 'production' } },
        ],
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
    '/organizations/{organization_id_or_slug}/hooks/': {
      post: {
        operationId: 'createHook',
        summary: 'Create a service hook',
        parameters: [{ name: 'organization_id_or_slug', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Hook' } } } },
        responses: { 201: { description: 'created' } },
      },
    },
  },
  components: {
    schemas: {
      Hook: {
        type: 'object',
        required: ['id', 'config', 'events'],
        properties: {
          id: { type: 'string', readOnly: true },
          config: { $ref: '#/components/schemas/Config' },
          events: { type: 'array', minItems: 1, items: { type: 'string', enum: ['event.alert', 'event.created'] } },
          contact: { type: 'string', format: 'email', nullable: true },
          kind: { oneOf: [{ type: 'string', enum: ['push', 'pull'] }, { $ref: '#/components/schemas/Named' }] },
          parent: { $ref: '#/components/schemas/Node' },
        },
      },
      Config: {
        type: 'object',
        required: ['url', 'created'],
        additionalProperties: false,
        properties: {
          url: { type: 'string', format: 'uri', example: 'https://hooks.example.com/sentry' },
          secret: { type: 'string', minLength: 8, writeOnly: true },
          created: { type: 'string', format: 'date-time', readOnly: true },
        },
      },
      Named: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      Node: { type: 'object', properties: { name: { type: 'string', maxLength: 10 }, child: { $ref: '#/components/schemas/Node' } } },
    },
  },
};

type Project = { dir: string; plan: ToolPlan; upstream: Upstream; env: Record<string, string> };

async function project(
  name: string,
  spec: string,
  options: { budget?: { maxToolTokens?: number }; surface?: 'search' } = {},
): Promise<Project> {
  const dir = await tempDir(`checks-${name}`);
  const generated = await generateProject({ spec, out: dir, ...options });
  await linkDependencies(dir);
  await buildProject(dir);
  const plan = generated.plan as ToolPlan;
  const upstream = await startUpstream();
  const env: Record<string, string> = {
    [`${plan.api.envPrefix}_BASE_URL`]: `${upstream.url}/base`,
    [`${plan.api.envPrefix}_RETRIES`]: '0',
  };
  for (const credential of plan.api.credentials) for (const variable of credential.env) env[variable] = 'test-credential';
  return { dir, plan, upstream, env };
}

/** The tool and action of an operation, and valid arguments for what it requires (from its full schema). */
function callOf(plan: ToolPlan, operation: string, extra: Record<string, unknown> = {}) {
  for (const tool of plan.tools) {
    const action = tool.actions.find((candidate) => candidate.operation.key === operation);
    if (!action) continue;
    const args = sampleArguments(tool, action.name, 'required', plan.argumentDefs as JsonObject);
    if (!args) throw new Error(`no valid arguments for ${operation}`);
    return { tool, action, name: tool.name, arguments: { ...args, ...extra } };
  }
  throw new Error(`no action for ${operation}`);
}

/** Calls a tool and returns its text, whether it is an error, and the requests the API received meanwhile. */
async function send(client: Client, upstream: Upstream, call: { name: string; arguments: Record<string, unknown> }) {
  upstream.requests.length = 0;
  const result = await client.callTool({ name: call.name, arguments: call.arguments });
  return { isError: result.isError === true, text: textOf(result), requests: [...upstream.requests] };
}

describe('a Sentry-like description, lean input schemas: breaches refused before any request', () => {
  let sentry: Project;
  let http: HttpServer;
  const clients: Record<'stdio' | 'http', Client | undefined> = { stdio: undefined, http: undefined };

  beforeAll(async () => {
    const specDir = await tempDir('sentry-spec');
    await mkdir(specDir, { recursive: true });
    const spec = path.join(specDir, 'openapi.json');
    await writeFile(spec, JSON.stringify(sentryLike));
    // A tight budget: the input schemas a model sees keep types only, so the rules below are what it was not told.
    sentry = await project('sentry', spec, { budget: { maxToolTokens: 120 } });
    clients.stdio = await connectStdio(sentry.dir, sentry.env);
    http = await startHttpServer(sentry.dir, sentry.env);
    clients.http = await connectHttp(http.url);
  });

  afterAll(async () => {
    await clients.stdio?.close();
    await clients.http?.close();
    await http?.stop();
    await sentry?.upstream.close();
  });

  it('gives the model lean input schemas: what a value must look like stays, bounds and optional arguments go', () => {
    const schema = JSON.stringify(
      callOf(sentry.plan, 'GET /organizations/{organization_id_or_slug}/replays/{replay_id}/').tool.inputSchema,
    );
    expect(schema).toContain('^[0-9a-f]{32}$');
    expect(schema).not.toContain('maximum');
    expect(schema).not.toContain('per_page');
  });

  describe.each(['stdio', 'http'] as const)('over %s', (transport) => {
    const client = () => clients[transport] as Client;
    const replay = '/organizations/{organization_id_or_slug}/replays/{replay_id}/';
    const hook = 'POST /organizations/{organization_id_or_slug}/hooks/';

    it('refuses a replay_id against ^[0-9a-f]{32}$, an unknown period, a date that is none, a page too large', async () => {
      const call = callOf(sentry.plan, `GET ${replay}`, {
        replay_id: 'XYZ',
        statsPeriod: '2d',
        start: 'yesterday',
        per_page: 500,
        filter_environment: 'Prod 1',
      });
      const answer = await send(client(), sentry.upstream, call);
      expect(answer.requests).toEqual([]);
      expect(answer.isError).toBe(true);
      const lines = answer.text.split('\n');
      // The SDK refuses what the input schema shows (the pattern) and prefixes the server's own diagnosis.
      expect(lines[0]).toMatch(
        new RegExp(`Nothing was sent to the API: the arguments of ${call.name} break 5 rules of the API description\\.$`),
      );
      expect(lines).toEqual(
        expect.arrayContaining([
          '- replay_id must match the pattern ^[0-9a-f]{32}$. For example: "00000000000000000000000000000000".',
          '- statsPeriod must be one of "1h", "24h", "14d". For example: "1h".',
          '- start must be a date and time (RFC 3339). For example: "2024-01-31T12:00:00Z".',
          '- per_page must be at most 100. For example: 100.',
          // The description's own example, under the argument's tool name (filter[environment] → filter_environment).
          '- filter_environment must match the pattern ^[a-z]+$. For example: "production".',
        ]),
      );
    });

    it('sends a valid replay call, lenient where APIs are (a date-time without seconds or offset)', async () => {
      const id = '0123456789abcdef0123456789abcdef';
      const call = callOf(sentry.plan, `GET ${replay}`, { replay_id: id, statsPeriod: '24h', start: '2024-05-01T10:30', per_page: 100 });
      const answer = await send(client(), sentry.upstream, call);
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.requests[0]?.path).toContain(`/replays/${id}/`);
      expect(answer.requests[0]?.query.get('per_page')).toBe('100');
    });

    it('takes a number written as text for a query parameter, checked as the number it reads as', async () => {
      const id = '0123456789abcdef0123456789abcdef';
      const valid = await send(client(), sentry.upstream, callOf(sentry.plan, `GET ${replay}`, { replay_id: id, per_page: '25' }));
      expect(valid.isError, valid.text).toBe(false);
      expect(valid.requests[0]?.query.get('per_page')).toBe('25');
      const large = await send(client(), sentry.upstream, callOf(sentry.plan, `GET ${replay}`, { replay_id: id, per_page: '500' }));
      expect(large.requests).toEqual([]);
      expect(large.text).toContain('- per_page must be at most 100. For example: 100.');
    });

    it('answers a breach of what the model was told (a type) in the same words', async () => {
      const call = callOf(sentry.plan, `GET ${replay}`, { per_page: 'fifty' });
      const answer = await send(client(), sentry.upstream, call);
      expect(answer.requests).toEqual([]);
      expect(answer.isError).toBe(true);
      // The SDK refuses it first, against the input schema; the server's own diagnosis replaces the SDK's wording.
      expect(answer.text).toContain(`Nothing was sent to the API: the arguments of ${call.name} break a rule of the API description.`);
      expect(answer.text).toContain('- per_page must be an integer. For example: 1.');
    });

    it('refuses nested breaches with their paths: config.url, events, contact, kind, parent.child.name', async () => {
      const call = callOf(sentry.plan, hook, {
        config: { secret: 'short', extra: true },
        events: [],
        contact: 'nobody',
        kind: 'merge',
        parent: { child: { name: 'a name far too long' } },
      });
      const answer = await send(client(), sentry.upstream, call);
      expect(answer.requests).toEqual([]);
      expect(answer.isError).toBe(true);
      expect(answer.text.split('\n')).toEqual(
        expect.arrayContaining([
          '- config.url is required. For example: "https://example.com/".',
          '- config.extra is not a field config takes; it takes created, secret, url.',
          '- config.secret must have at least 8 characters. For example: "xxxxxxxx".',
          '- events must have at least 1 item. For example: ["event.alert"].',
          '- contact must be an email address. For example: "user@example.com".',
          '- kind must be one of "push", "pull", or an object with name. For example: "push".',
          '- parent.child.name must have at most 10 characters. For example: "a name far".',
        ]),
      );
    });

    it('sends a valid hook: readOnly fields not required, writeOnly ones taken, null where nullable', async () => {
      const call = callOf(sentry.plan, hook, {
        config: { url: 'https://hooks.example.com/x', secret: 'long enough' },
        events: ['event.alert'],
        contact: null,
        kind: { name: 'custom' },
      });
      const answer = await send(client(), sentry.upstream, call);
      expect(answer.isError, answer.text).toBe(false);
      expect(JSON.parse(answer.requests[0]?.body.toString('utf8') ?? '{}')).toEqual({
        config: { url: 'https://hooks.example.com/x', secret: 'long enough' },
        contact: null,
        events: ['event.alert'],
        kind: { name: 'custom' },
      });
    });

    it('reports at most eight breaches, and how many more there are', async () => {
      const call = callOf(sentry.plan, hook, {
        events: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'],
      });
      const answer = await send(client(), sentry.upstream, call);
      expect(answer.requests).toEqual([]);
      expect(answer.text).toContain('break 10 rules');
      expect(answer.text.split('\n').filter((line) => line.startsWith('- events['))).toHaveLength(8);
      expect(answer.text).toContain('- … and 2 more.');
    });
  });
});

/**
 * Real descriptions: one breach and one valid call each, over HTTP and stdio. Without the specs folder, Xero and Box
 * come from APIs.guru's collection with the same operations; PagerDuty's stand-in there is another API (Stripe), so
 * its case runs only where the vendor's own description is.
 */
const REAL: Array<{
  spec: string;
  vendorOnly?: boolean;
  operation: string;
  breach: Record<string, unknown>;
  expect: string[];
  valid: Record<string, unknown>;
  path: string;
}> = [
  {
    spec: 'xero-accounting.yaml',
    operation: 'GET /Invoices/{InvoiceID}',
    breach: { InvoiceID: 'INV-0042' },
    expect: ['- InvoiceID must be a UUID. For example: "123e4567-e89b-12d3-a456-426614174000".'],
    valid: { InvoiceID: '8f7e1b2c-3d4e-4f50-8a6b-7c8d9e0f1a2b' },
    path: '/base/Invoices/8f7e1b2c-3d4e-4f50-8a6b-7c8d9e0f1a2b',
  },
  {
    spec: 'pagerduty-rest.json',
    vendorOnly: true,
    operation: 'POST /incidents',
    breach: { From: 'oncall', incident: { type: 'incident', title: 'Disk full' } },
    expect: [
      '- From must be an email address. For example: "user@example.com".',
      '- incident.service is required. For example: {"type":"service_reference","id":"xxx"}.',
    ],
    valid: {
      From: 'oncall@example.com',
      incident: { type: 'incident', title: 'Disk full', service: { id: 'PWIXJZS', type: 'service_reference' } },
    },
    path: '/base/incidents',
  },
  {
    spec: 'box-platform.json',
    operation: 'POST /folders',
    breach: { name: '', parent: {} },
    expect: ['- name must have at least 1 character. For example: "xxx".', '- parent.id is required. For example: "xxx".'],
    valid: { name: 'Reports', parent: { id: '0' } },
    path: '/base/folders',
  },
];

const vendorName = (spec: string) => spec.replace(/\..*$/, '');
const runnable = REAL.filter((entry) => !entry.vendorOnly || vendorEntry(vendorName(entry.spec)).name === vendorName(entry.spec));

describe.each(runnable)('$spec: $operation', (entry) => {
  let real: Project;
  let http: HttpServer;
  let clients: Client[] = [];

  beforeAll(async () => {
    real = await project(vendorName(entry.spec), vendorEntry(vendorName(entry.spec)).spec);
    http = await startHttpServer(real.dir, real.env);
    clients = [await connectHttp(http.url), await connectStdio(real.dir, real.env)];
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
    await http?.stop();
    await real?.upstream.close();
  });

  it('refuses the breach with nothing sent, over HTTP and stdio', async () => {
    for (const client of clients) {
      const answer = await send(client, real.upstream, callOf(real.plan, entry.operation, entry.breach));
      expect(answer.requests).toEqual([]);
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain('Nothing was sent to the API');
      expect(answer.text.split('\n')).toEqual(expect.arrayContaining(entry.expect));
    }
  });

  it('sends the valid call', async () => {
    for (const client of clients) {
      const answer = await send(client, real.upstream, callOf(real.plan, entry.operation, entry.valid));
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.requests.map((request) => request.path)).toEqual([entry.path]);
    }
  });
});

/**
 * The server accepts what the model was told: a description with the traps that made a generated server refuse calls
 * a model made as its tools said — a grouped tool whose actions type `help_center_id` as integer and as string (the
 * merged input schema says `anyOf`), a query flag typed as the string enum "true" | "false", a path id typed integer
 * whose examples are hex, JSON body fields given in another scalar type. Each call reaches the recording upstream
 * with the bytes the description declares; a value that is wrong in any type is still refused with nothing sent.
 */
describe('values that send the declared bytes (test/fixtures/fragments/contradictions.yaml)', () => {
  let traps: Project;
  let search: Project;
  let http: HttpServer;
  const clients: Record<'stdio' | 'http' | 'search', Client | undefined> = { stdio: undefined, http: undefined, search: undefined };

  beforeAll(async () => {
    traps = await project('traps', fragment('contradictions.yaml'));
    clients.stdio = await connectStdio(traps.dir, traps.env);
    http = await startHttpServer(traps.dir, traps.env);
    clients.http = await connectHttp(http.url);
    search = await project('traps-search', fragment('contradictions.yaml'), { surface: 'search' });
    clients.search = await connectStdio(search.dir, search.env);
  });

  afterAll(async () => {
    for (const client of Object.values(clients)) await client?.close();
    await http?.stop();
    await traps?.upstream.close();
    await search?.upstream.close();
  });

  /** The tool and action of an operation, with the given arguments (the action selector added for a grouped tool). */
  const call = (operationId: string, args: Record<string, unknown>) => {
    const tool = traps.plan.tools.find((candidate) => candidate.actions.some((action) => action.operation.id === operationId));
    const action = tool?.actions.find((candidate) => candidate.operation.id === operationId);
    if (!tool || !action) throw new Error(`no action for ${operationId}`);
    return { name: tool.name, arguments: tool.actions.length > 1 ? { action: action.name, ...args } : args };
  };

  it("is a description whose merged input schema cannot say each action's type, as planned", () => {
    const tool = traps.plan.tools.find((candidate) => candidate.actions.some((action) => action.operation.id === 'getArticle'));
    expect(tool?.actions.map((action) => action.operation.id).sort()).toEqual(['getArticle', 'listArticles']);
    expect((tool?.inputSchema['properties'] as Record<string, unknown>)['help_center_id']).toEqual({
      anyOf: [{ type: 'string' }, { type: 'integer' }],
    });
  });

  describe.each(['stdio', 'http'] as const)('over %s', (transport) => {
    const client = () => clients[transport] as Client;

    it('sends 41236 for the string path id of one action and "41236" for the integer one of its sibling', async () => {
      const get = await send(client(), traps.upstream, call('getArticle', { help_center_id: 41236, article_id: 7 }));
      expect(get.isError, get.text).toBe(false);
      expect(get.requests.map((request) => request.path)).toEqual(['/base/help_centers/41236/articles/7']);
      const list = await send(client(), traps.upstream, call('listArticles', { help_center_id: '41236' }));
      expect(list.isError, list.text).toBe(false);
      expect(list.requests.map((request) => request.path)).toEqual(['/base/help_centers/41236/articles']);
    });

    it('sends false for the query flag typed as the string enum "true" | "false"', async () => {
      const answer = await send(client(), traps.upstream, call('listArticles', { help_center_id: 1, include_archived: false }));
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.requests[0]?.url).toBe('/base/help_centers/1/articles?include_archived=false');
    });

    it('sends a list for the one-value query key labels[] as the key repeated, and one label as one', async () => {
      const many = await send(client(), traps.upstream, call('listArticles', { help_center_id: 1, labels: ['faq', 'howto'] }));
      expect(many.isError, many.text).toBe(false);
      expect(many.requests[0]?.url).toBe('/base/help_centers/1/articles?labels%5B%5D=faq&labels%5B%5D=howto');
      const one = await send(client(), traps.upstream, call('listArticles', { help_center_id: 1, labels: 'faq' }));
      expect(one.isError, one.text).toBe(false);
      expect(one.requests[0]?.url).toBe('/base/help_centers/1/articles?labels%5B%5D=faq');
      const unknown = await send(client(), traps.upstream, call('listArticles', { help_center_id: 1, labels: ['faq', 'news'] }));
      expect(unknown.requests).toEqual([]);
      expect(unknown.text).toContain('labels[1] must be one of "faq", "howto", "release".');
    });

    it('sends the hex id of a parameter typed integer whose examples are hex', async () => {
      const answer = await send(client(), traps.upstream, call('getProject', { project_id: '5f1a2b3c4d5e6f7a8b9c0d1e' }));
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.requests.map((request) => request.path)).toEqual(['/base/projects/5f1a2b3c4d5e6f7a8b9c0d1e']);
    });

    it('sends JSON body fields in their declared scalar types, converted without loss', async () => {
      const answer = await send(
        client(),
        traps.upstream,
        call('createTicket', { subject: 42, priority: '3', urgent: 'true', external_id: 1234 }),
      );
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.requests[0]?.body.toString('utf8')).toBe('{"external_id":"1234","priority":3,"subject":"42","urgent":true}');
    });

    it('still refuses what no declared value reads as, with the same answer and nothing sent', async () => {
      const path = await send(client(), traps.upstream, call('getArticle', { help_center_id: 1, article_id: 'abc' }));
      expect(path.requests).toEqual([]);
      expect(path.isError).toBe(true);
      expect(path.text.split('\n')).toEqual([
        expect.stringMatching(/Nothing was sent to the API: the arguments of action \S+ of \S+ break a rule of the API description\.$/),
        '- article_id must be an integer. For example: 1.',
        'Correct the arguments and call again.',
      ]);
      const body = await send(client(), traps.upstream, call('createTicket', { subject: 'Printer', priority: '4.5' }));
      expect(body.requests).toEqual([]);
      expect(body.text).toContain('- priority must be an integer. For example: 1.');
      const flag = await send(client(), traps.upstream, call('listArticles', { help_center_id: 1, include_archived: 'yes' }));
      expect(flag.requests).toEqual([]);
      expect(flag.text).toContain('- include_archived must be one of "true", "false". For example: "true".');
    });
  });

  it("takes the same values through the search surface's call tools", async () => {
    const client = clients.search as Client;
    const found = await client.callTool({ name: 'search_actions', arguments: { query: 'get an article of a help center' } });
    const results = (found.structuredContent as { results: Array<{ action: string; path: string }> }).results;
    const article = results.find((result) => result.path === '/help_centers/{help_center_id}/articles/{article_id}');
    expect(article, JSON.stringify(results)).toBeDefined();
    search.upstream.requests.length = 0;
    const answer = await client.callTool({
      name: 'call_read_action',
      arguments: { action: article?.action, arguments: { help_center_id: 41236, article_id: '7' } },
    });
    expect(answer.isError ?? false, textOf(answer)).toBe(false);
    expect(search.upstream.requests.map((request) => request.path)).toEqual(['/base/help_centers/41236/articles/7']);
    search.upstream.requests.length = 0;
    const wrong = await client.callTool({
      name: 'call_read_action',
      arguments: { action: article?.action, arguments: { help_center_id: 41236, article_id: 'abc' } },
    });
    expect(wrong.isError).toBe(true);
    expect(search.upstream.requests).toEqual([]);
  });
});
