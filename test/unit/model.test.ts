import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import { loadSpec } from '../../src/load/load-spec.js';
import { buildApiModel, slugOf } from '../../src/model/build-api-model.js';
import path from 'node:path';
import { fixtureSpec, REPO_ROOT } from '../helpers/paths.js';
import { modelOf, openapi } from '../helpers/inline.js';
import { withDefaults } from '../helpers/options.js';

async function corpusModel(entry: string) {
  const diagnostics = new Diagnostics();
  const spec = entry === 'xero-accounting.yaml' ? path.join(REPO_ROOT, 'samples/xero-accounting/openapi.yaml') : fixtureSpec(entry);
  const document = await loadSpec(withDefaults({ spec }), diagnostics);
  return buildApiModel(document!, diagnostics);
}

describe('model', () => {
  it('keeps Swagger 2.0 body and formData parameters intact', async () => {
    const { model } = await modelOf(
      JSON.stringify({
        swagger: '2.0',
        info: { title: 'Files', version: '1' },
        host: 'api.example.com',
        basePath: '/v2',
        schemes: ['http', 'https'],
        consumes: ['application/json'],
        paths: {
          '/items': {
            post: {
              parameters: [
                { in: 'body', name: 'item', required: true, schema: { type: 'object', properties: { name: { type: 'string' } } } },
              ],
              responses: { 200: { description: 'ok' } },
            },
          },
          '/upload': {
            post: {
              consumes: ['multipart/form-data'],
              parameters: [
                { in: 'formData', name: 'file', type: 'file', required: true },
                { in: 'formData', name: 'tags', type: 'array', items: { type: 'string' }, collectionFormat: 'multi' },
              ],
              responses: { 200: { description: 'ok' } },
            },
          },
        },
      }),
    );
    const [items, upload] = model.operations;
    expect(items?.requestBody).toMatchObject({
      required: true,
      contents: [{ mediaType: 'application/json', kind: 'json', schema: { type: 'object' } }],
    });
    expect(upload?.requestBody?.contents[0]).toMatchObject({
      mediaType: 'multipart/form-data',
      kind: 'multipart',
      schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' }, tags: { type: 'array' } } },
      encoding: { tags: { style: 'form', explode: true } },
    });
    expect(model.servers.map((server) => server.url)).toEqual(['https://api.example.com/v2', 'http://api.example.com/v2']);
  });

  it('converts OAS 3.0 nullable, exclusive bounds and example into 2020-12', async () => {
    const { model } = await modelOf(
      openapi({
        '/a': {
          get: {
            parameters: [
              { in: 'query', name: 'n', schema: { type: 'integer', minimum: 1, exclusiveMinimum: true, nullable: true, example: 3 } },
            ],
            responses: { 200: { description: 'ok' } },
          },
        },
      }),
    );
    expect(model.operations[0]?.parameters[0]?.schema).toEqual({ type: ['integer', 'null'], exclusiveMinimum: 1, examples: [3] });
  });

  it('merges path-item parameters, the operation overriding by name and location', async () => {
    const { model } = await modelOf(
      openapi({
        '/users/{id}': {
          parameters: [
            { in: 'path', name: 'id', required: true, schema: { type: 'string' } },
            { in: 'query', name: 'v', schema: { type: 'string' } },
          ],
          get: { parameters: [{ in: 'query', name: 'v', schema: { type: 'integer' } }], responses: { 200: { description: 'ok' } } },
        },
      }),
    );
    const parameters = model.operations[0]?.parameters ?? [];
    expect(parameters.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual(['path:id', 'query:v']);
    expect(parameters[1]?.schema).toEqual({ type: 'integer' });
  });

  it('adds a missing path parameter with a warning, and drops one the path lacks', async () => {
    const { model, diagnostics } = await modelOf(
      openapi({
        '/a/{x}': {
          get: {
            parameters: [{ in: 'path', name: 'y', required: true, schema: { type: 'string' } }],
            responses: { 200: { description: 'ok' } },
          },
        },
      }),
    );
    expect(model.operations[0]?.parameters.map((parameter) => parameter.name)).toEqual(['x']);
    expect(diagnostics.items.map((item) => item.code)).toEqual(
      expect.arrayContaining(['OTM_PATH_PARAMETER_MISSING', 'OTM_INVALID_OBJECT']),
    );
  });

  it('names component schemas once and points references at $defs, cycles included (xero)', async () => {
    const model = await corpusModel('xero-accounting.yaml');
    expect(model.schemas['Contact']).toMatchObject({ type: 'object', properties: { ContactID: { type: 'string', format: 'uuid' } } });
    expect(JSON.stringify(model.schemas['Invoice'])).toContain('"$ref":"#/$defs/');
  });

  it('keeps $ref siblings: descriptions always, everything else in 3.1', async () => {
    const { model } = await modelOf(
      openapi(
        {
          '/a': {
            get: {
              parameters: [{ in: 'query', name: 'p', schema: { $ref: '#/components/schemas/P', description: 'why' } }],
              responses: { 200: { description: 'ok' } },
            },
          },
        },
        { components: { schemas: { P: { type: 'string' } } } },
      ),
    );
    expect(model.operations[0]?.parameters[0]?.schema).toEqual({ $ref: '#/$defs/P', description: 'why' });
  });

  it('reports dangling and looping references at the referring place', async () => {
    const dangling = await modelOf(
      openapi({ '/a': { get: { parameters: [{ $ref: '#/components/parameters/Nope' }], responses: { 200: { description: 'ok' } } } } }),
    );
    expect(dangling.diagnostics.errors[0]).toMatchObject({ code: 'OTM_REF_UNRESOLVED', pointer: '#/paths/~1a/get/parameters/0' });
    const looping = await modelOf(
      openapi(
        { '/a': { get: { parameters: [{ $ref: '#/components/parameters/A' }], responses: { 200: { description: 'ok' } } } } },
        { components: { parameters: { A: { $ref: '#/components/parameters/B' }, B: { $ref: '#/components/parameters/A' } } } },
      ),
    );
    expect(looping.diagnostics.errors[0]?.code).toBe('OTM_REF_LOOP');
  });

  it('derives ids for operations without one and makes duplicates unique', async () => {
    const uber = await corpusModel('oai-uber.json');
    expect(uber.operations.map((operation) => operation.id)).toEqual([
      'get_estimates_price',
      'get_estimates_time',
      'get_history',
      'get_me',
      'get_products',
    ]);
    // SendGrid's description names two operations POST-design.
    const { model: duplicated } = await modelOf(
      openapi({
        '/designs': { post: { operationId: 'POST-design', responses: { 200: { description: 'ok' } } } },
        '/designs/{id}': {
          post: {
            operationId: 'POST-design',
            parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'string' } }],
            responses: { 200: { description: 'ok' } },
          },
        },
      }),
    );
    const ids = duplicated.operations.map((operation) => operation.id.toLowerCase());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('moves credential parameters out of the operation into security schemes', async () => {
    const petstore = await corpusModel('swaggerio-petstore-v3.yaml');
    const deletePet = petstore.operations.find((operation) => operation.id === 'deletePet');
    expect(deletePet?.parameters.map((parameter) => parameter.name)).toEqual(['petId']);
    const brasil = await corpusModel('openfinancebrasil-accounts.yaml');
    for (const operation of brasil.operations)
      expect(operation.parameters.some((parameter) => parameter.name.toLowerCase() === 'authorization')).toBe(false);
  });

  it('treats `key` as a credential only when its description says it is one (Google APIs)', async () => {
    const parameters = [
      { name: 'key', in: 'query', description: 'API key. Your API key identifies your project.', schema: { type: 'string' } },
      { name: 'oauth_token', in: 'query', description: 'OAuth 2.0 token for the current user.', schema: { type: 'string' } },
      { name: 'fields', in: 'query', schema: { type: 'string' } },
    ];
    const { model } = await modelOf(openapi({ '/a': { get: { parameters, responses: { 200: { description: 'ok' } } } } }));
    expect(model.operations[0]?.parameters.map((parameter) => parameter.name)).toEqual(['fields']);
    // Elsewhere `key` is data: the key of a stored object.
    const storage = [{ name: 'key', in: 'query', description: 'The object key to read.', schema: { type: 'string' } }];
    const { model: plain } = await modelOf(openapi({ '/b': { get: { parameters: storage, responses: { 200: { description: 'ok' } } } } }));
    expect(plain.operations[0]?.parameters.map((parameter) => parameter.name)).toEqual(['key']);
  });

  it('converts enum values to the declared scalar type, so that some value can match (FireBrowse dates)', async () => {
    const parameters = [
      { name: 'date', in: 'query', schema: { type: 'array', items: { type: 'string', enum: [20160128, 20151101] } } },
      { name: 'level', in: 'query', schema: { type: 'integer', enum: ['1', '2', 'high'] } },
    ];
    const { model } = await modelOf(openapi({ '/a': { get: { parameters, responses: { 200: { description: 'ok' } } } } }));
    const [date, level] = model.operations[0]?.parameters ?? [];
    expect((date?.schema as { items: { enum: unknown[] } }).items.enum).toEqual(['20160128', '20151101']);
    expect((level?.schema as { enum: unknown[] }).enum).toEqual([1, 2]);
  });

  it('keeps enum values that fit the declared type as they are, and drops ones whose JSON is too long', async () => {
    // 682 control characters escape to 4,092 characters of JSON (4,094 quoted): kept; 683 would be 4,100: dropped.
    const escaped = (count: number) => '\u0001'.repeat(count);
    const parameters = [
      { name: 'fields', in: 'query', schema: { type: 'string', enum: ['id', null, 'name'], nullable: true } },
      { name: 'kept', in: 'query', schema: { type: 'string', enum: [escaped(682), 'x'.repeat(4_094)] } },
      { name: 'long', in: 'query', schema: { type: 'string', enum: [escaped(683), 'x'.repeat(4_095), 'ok'] } },
    ];
    const { model, diagnostics } = await modelOf(openapi({ '/a': { get: { parameters, responses: { 200: { description: 'ok' } } } } }));
    const [fields, kept, long] = model.operations[0]?.parameters ?? [];
    expect((fields?.schema as { enum: unknown[] }).enum).toEqual(['id', null, 'name']);
    expect((kept?.schema as { enum: unknown[] }).enum).toEqual([escaped(682), 'x'.repeat(4_094)]);
    expect((long?.schema as { enum: unknown[] }).enum).toEqual(['ok']);
    expect(diagnostics.items.filter((item) => item.code === 'OTM_SCHEMA_LIMIT').map((item) => item.pointer)).toEqual([
      '#/paths/~1a/get/parameters/2/schema/enum',
    ]);
  });

  it('moves scalar enums written on an array to its items, and reads format: file as a file (Wordnik, Azure)', async () => {
    const parameters = [
      { name: 'sources', in: 'query', schema: { type: 'array', enum: ['all', 'wiktionary'], items: { type: 'string' } } },
      { name: 'grants', in: 'query', schema: { type: 'array', enum: ['code'], items: { type: 'string', enum: ['code'] } } },
    ];
    const requestBody = { content: { 'application/octet-stream': { schema: { type: 'object', format: 'file' } } } };
    const { model } = await modelOf(openapi({ '/a': { post: { parameters, requestBody, responses: { 200: { description: 'ok' } } } } }));
    const operation = model.operations[0];
    expect(operation?.parameters[0]?.schema).toEqual({ type: 'array', items: { type: 'string', enum: ['all', 'wiktionary'] } });
    expect(operation?.parameters[1]?.schema).toEqual({ type: 'array', items: { type: 'string', enum: ['code'] } });
    expect(operation?.requestBody?.contents[0]?.schema).toEqual({ type: 'string', format: 'binary' });
  });

  it('reads security schemes of every kind, sorted by key', async () => {
    const model = await corpusModel('oai-tictactoe.yaml');
    expect(model.securitySchemes.map((scheme) => `${scheme.key}:${scheme.kind}`)).toEqual([
      'app2AppOauth:oauth2',
      'basicHttpAuthentication:httpBasic',
      'bearerHttpAuthentication:httpBearer',
      'defaultApiKey:apiKey',
      'user2AppOauth:oauth2',
    ]);
  });

  it('resolves servers per operation and per path, with variables', async () => {
    // Box's uploads go to upload.box.com, named on the operations.
    const { model: box } = await modelOf(
      openapi({
        '/files': { get: { responses: { 200: { description: 'ok' } } } },
        '/files/content': {
          post: { servers: [{ url: 'https://upload.box.com/api/2.0' }], responses: { 200: { description: 'ok' } } },
        },
      }),
    );
    expect(box.operations.map((operation) => operation.servers[0]?.url)).toEqual([
      'https://api.example.com/v1',
      'https://upload.box.com/api/2.0',
    ]);
    const uspto = await corpusModel('oai-uspto.yaml');
    expect(uspto.servers[0]?.variables[0]).toMatchObject({ name: 'scheme', default: 'https', enum: ['https', 'http'] });
  });

  it('reads the x-mcp extension and reports fields it does not know', async () => {
    const { model, diagnostics } = await modelOf(
      openapi({
        '/a': {
          get: {
            'x-mcp': { tool: 'special', action: 'fetch_a', annotations: { openWorldHint: false }, color: 'red' },
            responses: { 200: { description: 'ok' } },
          },
        },
        '/b': { get: { 'x-mcp': false, responses: { 200: { description: 'ok' } } } },
      }),
    );
    expect(model.operations[0]?.extension).toEqual({ tool: 'special', action: 'fetch_a', annotations: { openWorldHint: false } });
    expect(model.operations[1]?.extension).toEqual({ hidden: true });
    expect(diagnostics.items.find((item) => item.code === 'OTM_EXTENSION_INVALID')?.pointer).toBe('#/paths/~1a/get/x-mcp/color');
  });

  it('gives short, readable slugs', () => {
    expect(slugOf('Swagger Petstore - OpenAPI 3.0')).toBe('swagger-petstore');
    expect(slugOf("GitHub's official OpenAPI spec + Octokit extension")).toBe('github');
    expect(slugOf('Xero Accounting API')).toBe('xero-accounting');
    expect(slugOf('API')).toBe('api');
  });
});
