import { describe, expect, it } from 'vitest';
import { headerLines } from '../../src/cli/plan-headers.js';
import { NO_COLORS } from '../../src/cli/reporter.js';
import { headerValue } from '../../src/emit/test-cases.js';
import type { PlanRunResult } from '../../src/pipeline.js';
import { deriveHeaderName } from '../../src/plan/headers/header-names.js';
import { credentialWord, personalDataWord, routingWord } from '../../src/plan/headers/parameter-signals.js';
import { MAX_HEADER_INTEGER } from '../../src/plan/headers/validate-headers.js';
import { openapi, planInline, toolNamed } from '../helpers/plan-inline.js';

const ok = { responses: { 200: { description: 'ok' } } };

/** One GET operation with the given parameters. */
function withParameters(parameters: object[], extra: object = {}): object {
  return openapi({ '/things': { get: { operationId: 'listThings', parameters, ...ok } } }, extra);
}

function property(result: PlanRunResult, tool: string, key: string): Record<string, unknown> {
  return (toolNamed(result, tool).inputSchema['properties'] as Record<string, Record<string, unknown>>)[key] ?? {};
}

function codes(result: PlanRunResult): string[] {
  return result.diagnostics.filter((diagnostic) => diagnostic.code.startsWith('OTM_HEADER')).map((d) => `${d.severity} ${d.code}`);
}

describe('header names', () => {
  it('derives readable RFC 9110 tokens from parameter names', () => {
    expect(deriveHeaderName('tenant_id')).toBe('Tenant-Id');
    expect(deriveHeaderName('xero-tenant-id')).toBe('Xero-Tenant-Id');
    expect(deriveHeaderName('AccountSid')).toBe('Account-Sid');
    expect(deriveHeaderName('workspace_gid')).toBe('Workspace-Gid');
    expect(deriveHeaderName('on-behalf-of')).toBe('On-Behalf-Of');
    expect(deriveHeaderName('OrganisationID')).toBe('Organisation-Id');
    expect(deriveHeaderName('filter[region]')).toBe('Filter-Region');
    expect(deriveHeaderName('Zürich')).toBe('Zurich');
    expect(deriveHeaderName('[]')).toBeUndefined();
  });
});

describe('name signals', () => {
  it('recognises routing names and their identifier forms', () => {
    const found = {
      tenant: 'tenant',
      tenant_id: 'tenant',
      TenantId: 'tenant',
      'tenant-id': 'tenant',
      'xero-tenant-id': 'tenant',
      AccountSid: 'account',
      workspace_gid: 'workspace',
      org: 'org',
      organisation: 'organisation',
      organization_id: 'organization',
      project: 'project',
      region: 'region',
      zone: 'zone',
      location: 'location',
      cluster: 'cluster',
      environment: 'environment',
      env: 'env',
      namespace: 'namespace',
      'on-behalf-of': 'on-behalf-of',
    };
    for (const [name, word] of Object.entries(found)) expect(routingWord(name), name).toBe(word);
  });

  it('does not take look-alikes for routing names', () => {
    for (const name of ['accountType', 'time_zone', 'timezone', 'file_location', 'limit', 'id', 'Sid', 'subaccounts', 'organization_ids'])
      expect(routingWord(name), name).toBeUndefined();
  });

  it('recognises credentials and personal data', () => {
    const credentials = {
      api_token: 'token',
      'X-API-Key': 'key',
      apikey: 'key',
      client_secret: 'secret',
      password: 'password',
      Authorization: 'auth',
      session_id: 'session',
      csrf: 'csrf',
      otp: 'otp',
      'X-Signature': 'signature',
    };
    for (const [name, word] of Object.entries(credentials)) expect(credentialWord(name), name).toBe(word);
    const personal = { email: 'email', user_email: 'email', phone_number: 'phone', msisdn: 'msisdn' };
    for (const [name, word] of Object.entries(personal)) expect(personalDataWord(name), name).toBe(word);
    for (const name of ['tenant_id', 'AccountSid', 'workspace_gid', 'namespace']) {
      expect(credentialWord(name), name).toBeUndefined();
      expect(personalDataWord(name), name).toBeUndefined();
    }
  });
});

describe('which parameters are marked', () => {
  it('marks routing path, query and header parameters with a derived header', async () => {
    const result = await planInline(
      openapi({
        '/accounts/{AccountSid}/things': {
          get: {
            operationId: 'listThings',
            parameters: [
              { name: 'AccountSid', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'region', in: 'query', schema: { type: 'string', enum: ['eu', 'us'] } },
              { name: 'xero-tenant-id', in: 'header', required: true, schema: { type: 'string' } },
              { name: 'archived', in: 'query', schema: { type: 'boolean' } },
              { name: 'limit', in: 'query', schema: { type: 'integer' } },
            ],
            ...ok,
          },
        },
      }),
    );
    expect(result.ok).toBe(true);
    const tool = toolNamed(result, 'accounts_things_read');
    expect(tool.headers.marked).toEqual([
      { property: 'AccountSid', header: 'Account-Sid', reason: 'routing name (account)' },
      { property: 'region', header: 'Region', reason: 'routing name (region)' },
      { property: 'xero-tenant-id', header: 'Xero-Tenant-Id', reason: 'routing name (tenant)' },
    ]);
    expect(property(result, 'accounts_things_read', 'xero-tenant-id')).toEqual({ type: 'string', 'x-mcp-header': 'Xero-Tenant-Id' });
    expect(property(result, 'accounts_things_read', 'region')['x-mcp-header']).toBe('Region');
    expect(property(result, 'accounts_things_read', 'limit')['x-mcp-header']).toBeUndefined();
    expect(property(result, 'accounts_things_read', 'archived')['x-mcp-header']).toBeUndefined();
  });

  it('bounds marked integers to ±(2^53 − 1), keeping tighter bounds', async () => {
    const result = await planInline(
      withParameters([
        { name: 'zone_id', in: 'query', schema: { type: 'integer', minimum: 1 } },
        { name: 'cluster_id', in: 'query', schema: { type: 'integer', format: 'int64', maximum: 1e20 } },
      ]),
    );
    expect(property(result, 'things_read', 'zone_id')).toMatchObject({
      minimum: 1,
      maximum: MAX_HEADER_INTEGER,
      'x-mcp-header': 'Zone-Id',
    });
    expect(property(result, 'things_read', 'cluster_id')).toMatchObject({ minimum: -MAX_HEADER_INTEGER, maximum: MAX_HEADER_INTEGER });
  });

  it('never marks nullable, array, number or object parameters, and says why', async () => {
    const result = await planInline(
      withParameters([
        { name: 'tenant_id', in: 'query', schema: { type: 'string', nullable: true } },
        { name: 'region', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
        { name: 'zone', in: 'query', schema: { type: 'number' } },
        { name: 'project', in: 'query', content: { 'application/json': { schema: { type: 'object' } } } },
      ]),
    );
    const tool = toolNamed(result, 'things_read');
    expect(tool.headers.marked).toEqual([]);
    expect(tool.headers.refused.map((decision) => decision.property)).toEqual(['project', 'region', 'tenant_id', 'zone']);
    expect(tool.headers.refused.find((decision) => decision.property === 'tenant_id')?.reason).toContain('["string","null"]');
    expect(JSON.stringify(tool.inputSchema)).not.toContain('x-mcp-header');
    expect(codes(result)).toEqual([]);
  });

  it('inlines a $ref to a scalar schema so that the type is visible on the marked property', async () => {
    const result = await planInline(
      withParameters([{ name: 'region', in: 'query', schema: { $ref: '#/components/schemas/Region' } }], {
        components: { schemas: { Region: { type: 'string', enum: ['eu', 'us'], description: 'Where the data lives.' } } },
      }),
    );
    expect(property(result, 'things_read', 'region')).toEqual({
      type: 'string',
      description: 'Where the data lives.',
      enum: ['eu', 'us'],
      'x-mcp-header': 'Region',
    });
  });

  it('marks a path parameter that scopes every action of a grouped tool', async () => {
    const operation = (id: string) => ({
      operationId: id,
      'x-mcp': { tool: 'boards' },
      parameters: [{ name: 'board', in: 'path', required: true, schema: { type: 'string' } }],
      ...ok,
    });
    const result = await planInline(
      openapi({ '/boards/{board}/cards': { get: operation('listCards') }, '/boards/{board}/lists': { get: operation('listLists') } }),
    );
    expect(toolNamed(result, 'boards').headers.marked).toEqual([
      { property: 'board', header: 'Board', reason: 'path parameter that scopes every action' },
    ]);
  });

  it('does not mark the path parameter of a single operation just because it is there', async () => {
    const result = await planInline(
      openapi({
        '/pets/{petId}': {
          get: { operationId: 'getPet', parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }], ...ok },
        },
      }),
    );
    expect(toolNamed(result, 'pets_read').headers).toEqual({ marked: [], refused: [] });
  });

  it('marks a parameter named after a server variable', async () => {
    const result = await planInline(
      withParameters([{ name: 'shard', in: 'query', schema: { type: 'string' } }], {
        servers: [{ url: 'https://{shard}.api.example.com', variables: { shard: { default: 'a1' } } }],
      }),
    );
    expect(toolNamed(result, 'things_read').headers.marked).toEqual([
      { property: 'shard', header: 'Shard', reason: 'fills server variable {shard}' },
    ]);
  });

  it('marks a shared property only when it qualifies for every action that uses it', async () => {
    const result = await planInline(
      openapi({
        '/tenants/{tenant_id}/things': {
          post: {
            operationId: 'createThing',
            'x-mcp': { tool: 'things' },
            parameters: [{ name: 'tenant_id', in: 'path', required: true, schema: { type: 'string' } }],
            ...ok,
          },
        },
        '/things': {
          post: {
            operationId: 'importThing',
            'x-mcp': { tool: 'things' },
            requestBody: {
              content: { 'application/json': { schema: { type: 'object', properties: { tenant_id: { type: 'string' } } } } },
            },
            ...ok,
          },
        },
      }),
    );
    const tool = toolNamed(result, 'things');
    expect(tool.headers.marked).toEqual([]);
    expect(tool.headers.refused).toEqual([
      { property: 'tenant_id', reason: 'action import_thing takes it from the request body, not from a path, query or header parameter' },
    ]);
  });
});

describe('secrets and personal data', () => {
  it('refuses an explicit marking on credentials, cookies, passwords, write-only values and personal data', async () => {
    const result = await planInline(
      withParameters(
        [
          { name: 'tenant_token', in: 'query', 'x-mcp-header': 'Tenant-Token', schema: { type: 'string' } },
          { name: 'workspace', in: 'cookie', 'x-mcp-header': 'Workspace', schema: { type: 'string' } },
          { name: 'account_pin_code', in: 'query', 'x-mcp-header': 'Pin', schema: { type: 'string' } },
          { name: 'project_hint', in: 'query', 'x-mcp-header': 'Hint', schema: { type: 'string', format: 'password' } },
          { name: 'org_note', in: 'query', 'x-mcp-header': 'Note', schema: { type: 'string', writeOnly: true } },
          { name: 'contact', in: 'query', 'x-mcp-header': 'Contact', schema: { type: 'string', format: 'email' } },
          { name: 'owner_phone', in: 'header', 'x-mcp-header': 'Phone', schema: { type: 'string' } },
          { name: 'X-Tenant', in: 'query', 'x-mcp-header': 'X-Tenant', schema: { type: 'string' } },
        ],
        {
          components: { securitySchemes: { tenantKey: { type: 'apiKey', in: 'header', name: 'X-Tenant' } } },
          security: [{ tenantKey: [] }],
        },
      ),
    );
    const tool = toolNamed(result, 'things_read');
    expect(tool.headers.marked).toEqual([]);
    expect(Object.fromEntries(tool.headers.refused.map((decision) => [decision.property, decision.reason]))).toEqual({
      'X-Tenant': 'it is named like the credential of security scheme tenantKey',
      account_pin_code: 'its name looks like a credential (pin)',
      contact: 'its schema has format: email (personal data)',
      org_note: 'its schema is writeOnly',
      owner_phone: 'its name looks like personal data (phone)',
      project_hint: 'its schema has format: password',
      tenant_token: 'its name looks like a credential (token)',
      workspace: 'it is a cookie parameter',
    });
    expect(JSON.stringify(tool.inputSchema)).not.toContain('x-mcp-header');
    expect(codes(result)).toEqual(Array(8).fill('warning OTM_HEADER_REFUSED'));
    expect(result.ok).toBe(true);
    const refusal = result.diagnostics.find((diagnostic) => diagnostic.message.includes('tenant_token'));
    expect(refusal?.pointer).toBe('#/paths/~1things/get/parameters/0/x-mcp-header');
    expect(refusal?.hint).toBe(
      'Header values are visible to every proxy and log between client and server; keep secrets and personal data in the body.',
    );
  });

  it('leaves a routing-named secret unmarked without a warning when nobody asked for it', async () => {
    const result = await planInline(withParameters([{ name: 'session_account', in: 'query', schema: { type: 'string' } }]));
    expect(toolNamed(result, 'things_read').headers.refused).toEqual([
      { property: 'session_account', reason: 'its name looks like a credential (session)' },
    ]);
    expect(codes(result)).toEqual([]);
  });
});

describe('explicit markings', () => {
  it('uses the x-mcp-header name of a parameter, and false suppresses a routing parameter', async () => {
    const result = await planInline(
      withParameters([
        { name: 'priority', in: 'query', 'x-mcp-header': 'Priority', schema: { type: 'integer' } },
        { name: 'tenant_id', in: 'query', 'x-mcp-header': false, schema: { type: 'string' } },
      ]),
    );
    const tool = toolNamed(result, 'things_read');
    expect(tool.headers.marked).toEqual([{ property: 'priority', header: 'Priority', reason: 'x-mcp-header in the description' }]);
    expect(tool.headers.refused).toEqual([{ property: 'tenant_id', reason: 'x-mcp-header: false on listThings' }]);
    expect(property(result, 'things_read', 'priority')).toMatchObject({ 'x-mcp-header': 'Priority', minimum: -MAX_HEADER_INTEGER });
  });

  it('fails with OTM_HEADER_INVALID on a marking conforming clients would drop', async () => {
    for (const parameter of [
      { name: 'region', in: 'query', 'x-mcp-header': 'My Region', schema: { type: 'string' } },
      { name: 'regions', in: 'query', 'x-mcp-header': 'Regions', schema: { type: 'array', items: { type: 'string' } } },
      { name: 'ratio', in: 'query', 'x-mcp-header': 'Ratio', schema: { type: 'number' } },
    ]) {
      const result = await planInline(withParameters([parameter]));
      expect(result.ok, parameter.name).toBe(false);
      expect(codes(result), parameter.name).toEqual(['error OTM_HEADER_INVALID']);
      expect(result.diagnostics.find((d) => d.code === 'OTM_HEADER_INVALID')?.pointer).toBe(
        '#/paths/~1things/get/parameters/0/x-mcp-header',
      );
    }
  });

  it('keeps header names unique within a tool, ignoring case', async () => {
    const derived = await planInline(
      withParameters([
        { name: 'tenant_id', in: 'query', schema: { type: 'string' } },
        { name: 'Tenant-Id', in: 'header', schema: { type: 'string' } },
      ]),
    );
    const tool = toolNamed(derived, 'things_read');
    expect(tool.headers.marked.map((decision) => decision.header)).toEqual(['Tenant-Id']);
    expect(tool.headers.refused[0]?.reason).toMatch(/header name Tenant-Id is already used/);

    const explicit = await planInline(
      withParameters([
        { name: 'a', in: 'query', 'x-mcp-header': 'Region', schema: { type: 'string' } },
        { name: 'b', in: 'query', 'x-mcp-header': 'REGION', schema: { type: 'string' } },
      ]),
    );
    expect(explicit.ok).toBe(false);
    expect(codes(explicit)).toEqual(['error OTM_HEADER_INVALID']);

    const preferred = await planInline(
      withParameters([
        { name: 'region', in: 'query', schema: { type: 'string' } },
        { name: 'location_hint', in: 'query', 'x-mcp-header': 'region', schema: { type: 'string' } },
      ]),
    );
    expect(toolNamed(preferred, 'things_read').headers.marked).toEqual([
      { property: 'location_hint', header: 'region', reason: 'x-mcp-header in the description' },
    ]);
  });
});

describe('configuration', () => {
  const parameters = [
    { name: 'tenant_id', in: 'query', schema: { type: 'string' } },
    { name: 'priority', in: 'query', schema: { type: 'integer' } },
    { name: 'api_token', in: 'query', schema: { type: 'string' } },
  ];

  it('adds and removes markings', async () => {
    const result = await planInline(withParameters(parameters), {
      headers: { add: [{ property: 'priority', header: 'Prio' }], remove: [{ tool: 'things_read', property: 'tenant_id' }] },
    });
    const tool = toolNamed(result, 'things_read');
    expect(tool.headers.marked).toEqual([{ property: 'priority', header: 'Prio', reason: 'added by configuration' }]);
    expect(tool.headers.refused).toEqual([{ property: 'tenant_id', reason: 'removed by configuration (headers.remove)' }]);
  });

  it('refuses a configured marking on a secret and reports entries that match nothing', async () => {
    const result = await planInline(withParameters(parameters), {
      headers: { add: [{ property: 'api_token' }, { tool: 'no_such_tool', property: 'priority' }] },
    });
    expect(toolNamed(result, 'things_read').headers.marked.map((decision) => decision.property)).toEqual(['tenant_id']);
    expect(result.diagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(['OTM_HEADER_REFUSED', 'OTM_CONFIG_INVALID']));
  });

  it('marks nothing derived with enabled: false, but still applies additions', async () => {
    const result = await planInline(withParameters(parameters), { headers: { enabled: false, add: [{ property: 'priority' }] } });
    expect(toolNamed(result, 'things_read').headers.marked).toEqual([
      { property: 'priority', header: 'Priority', reason: 'added by configuration' },
    ]);
  });
});

describe('reporting and generated test data', () => {
  it('prints marked and refused properties in the text plan', () => {
    const lines = headerLines(
      {
        marked: [{ property: 'tenant_id', header: 'Tenant-Id', reason: 'routing name (tenant)' }],
        refused: [{ property: 'api_token', reason: 'its name looks like a credential (token)' }],
      },
      NO_COLORS,
    );
    expect(lines).toEqual([
      '  header Mcp-Param-Tenant-Id ← tenant_id (routing name (tenant))',
      '  not a header: api_token (its name looks like a credential (token))',
    ]);
  });

  it('encodes header values as a SEP-2243 client does', () => {
    expect(headerValue('eu-west-1')).toBe('eu-west-1');
    expect(headerValue(42)).toBe('42');
    expect(headerValue(true)).toBe('true');
    expect(headerValue('Zürich AG')).toBe('=?base64?WsO8cmljaCBBRw==?=');
    expect(headerValue(' padded ')).toBe('=?base64?IHBhZGRlZCA=?=');
    expect(headerValue('=?base64?abc?=')).toBe(`=?base64?${Buffer.from('=?base64?abc?=').toString('base64')}?=`);
  });
});

describe('credential parameters', () => {
  it('refuses an x-mcp-header on a parameter that carries the security scheme credential', async () => {
    const result = await planInline(
      withParameters([{ name: 'X-API-Key', in: 'header', 'x-mcp-header': 'Api-Key', schema: { type: 'string' } }], {
        components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
        security: [{ key: [] }],
      }),
    );
    expect(result.ok).toBe(true);
    expect(codes(result)).toEqual(['warning OTM_HEADER_REFUSED']);
    expect(JSON.stringify(toolNamed(result, 'things_read').inputSchema)).not.toContain('x-mcp-header');
  });
});
