import { describe, expect, it } from 'vitest';
import { actionOf, planOf, toolOf } from './plan-fixture.js';

// Small descriptions with the odd parts of the corpus: box's #fragment path keys and per-operation servers,
// pihole's :verb paths and server variables, openai's literal query strings, twilio's per-path servers,
// PagerDuty's pinned Accept and Content-Type headers, sendgrid's allOf bodies, Slack's Swagger 2.0 formData.
const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };
const openapi = {
  openapi: '3.0.3',
  info: { title: 'Odd paths', version: '1.0.0' },
  servers: [
    {
      url: '{scheme}://{host}:{port}/api',
      variables: { scheme: { default: 'http', enum: ['http', 'https'] }, host: { default: 'pi.hole' }, port: { default: '80' } },
    },
  ],
  paths: {
    '/files/{file_id}#get_shared_link': {
      get: {
        operationId: 'get_file_shared_link',
        parameters: [
          { name: 'file_id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'fields', in: 'query', required: true, schema: { type: 'string', enum: ['shared_link'] } },
        ],
        responses: ok,
      },
    },
    '/files/{file_id}': {
      get: {
        operationId: 'get_file',
        parameters: [{ name: 'file_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: ok,
      },
    },
    '/files/content': {
      post: {
        operationId: 'upload_file',
        servers: [{ url: 'https://upload.box.com/api/2.0' }],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: {
                  attributes: { type: 'object', properties: { name: { type: 'string' } } },
                  file: { type: 'string', format: 'binary' },
                },
              },
            },
          },
        },
        responses: ok,
      },
    },
    '/domains:batchDelete': { post: { operationId: 'batch_delete_domains', responses: ok } },
    '/responses/{response_id}?beta=true': {
      get: {
        operationId: 'get_response',
        parameters: [{ name: 'response_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: ok,
      },
    },
    '/2010-04-01/Accounts.json': {
      servers: [{ url: 'https://api.twilio.com' }],
      get: { operationId: 'list_accounts', responses: ok },
    },
    '/incidents': {
      get: {
        operationId: 'list_incidents',
        parameters: [
          { name: 'Accept', in: 'header', required: true, schema: { type: 'string', default: 'application/vnd.pagerduty+json;version=2' } },
          {
            name: 'Content-Type',
            in: 'header',
            required: true,
            schema: { type: 'string', default: 'application/json', enum: ['application/json'] },
          },
          { name: 'statuses[]', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
        ],
        responses: ok,
      },
    },
    '/senders': {
      post: {
        operationId: 'create_sender',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { $ref: '#/components/schemas/Sender' },
                  { type: 'object', required: ['nickname'], properties: { from: { type: 'object', required: ['email'] } } },
                ],
              },
            },
          },
        },
        responses: ok,
      },
    },
  },
  components: {
    schemas: {
      Sender: {
        type: 'object',
        properties: {
          nickname: { type: 'string' },
          from: { type: 'object', description: 'Who sends.', properties: { email: { type: 'string' }, name: { type: 'string' } } },
          kind: { oneOf: [{ type: 'string' }, { type: 'string', enum: ['a'] }] },
        },
      },
    },
  },
};

describe('routes of odd path keys and servers', () => {
  it('drops a #fragment from the path, keeps a :verb, and splits a literal query off', async () => {
    const plan = await planOf(openapi);
    expect(actionOf(plan, 'GET /files/{file_id}#get_shared_link').route).toMatchObject({ path: '/files/{file_id}', fixedQuery: [] });
    expect(actionOf(plan, 'POST /domains:batchDelete').route.path).toBe('/domains:batchDelete');
    expect(actionOf(plan, 'GET /responses/{response_id}?beta=true').route).toMatchObject({
      path: '/responses/{response_id}',
      fixedQuery: [['beta', 'true']],
    });
  });

  it('sends a real media type when the description lists a media range first (randommer.io: application/*+json)', async () => {
    const schema = { type: 'object', properties: { text: { type: 'string' } } };
    const plan = await planOf({
      openapi: '3.0.3',
      info: { title: 'Ranges', version: '1' },
      servers: [{ url: 'https://api.example.com' }],
      paths: {
        '/humanize': {
          post: {
            requestBody: { content: { 'application/*+json': { schema }, 'application/json': { schema }, 'text/json': { schema } } },
            responses: ok,
          },
        },
      },
    });
    expect(actionOf(plan, 'POST /humanize').route.body?.mediaType).toBe('application/json');
  });

  it('keeps per-path and per-operation servers, and the server variables of the API', async () => {
    const plan = await planOf(openapi);
    expect(actionOf(plan, 'POST /files/content').route.servers).toEqual([{ url: 'https://upload.box.com/api/2.0', variables: [] }]);
    expect(actionOf(plan, 'GET /2010-04-01/Accounts.json').route.servers).toEqual([{ url: 'https://api.twilio.com', variables: [] }]);
    expect(actionOf(plan, 'GET /files/{file_id}').route.servers).toBeUndefined();
    expect(plan.api.servers[0]?.variables.map((variable) => [variable.name, variable.default, variable.enum ?? null])).toEqual([
      ['scheme', 'http', ['http', 'https']],
      ['host', 'pi.hole', null],
      ['port', '80', null],
    ]);
  });

  it('sends the Accept and Content-Type a description pins, without making them arguments', async () => {
    const plan = await planOf(openapi);
    const action = actionOf(plan, 'GET /incidents');
    expect(action.route.headers).toEqual([['Content-Type', 'application/json']]);
    expect(action.route.accepts).toEqual(['application/vnd.pagerduty+json;version=2', 'application/json']);
    expect(action.route.arguments.map((argument) => [argument.arg, argument.in, 'name' in argument ? argument.name : ''])).toEqual([
      ['statuses', 'query', 'statuses[]'],
    ]);
  });

  it('routes multipart fields and files, and keeps both constraints of a property two allOf parts declare', async () => {
    const plan = await planOf(openapi);
    expect(actionOf(plan, 'POST /files/content').route.arguments).toEqual([
      { arg: 'attributes', in: 'body', name: 'attributes', required: false },
      { arg: 'file', in: 'body', name: 'file', required: true, file: true },
    ]);
    const tool = toolOf(plan, 'POST /senders');
    const from = (tool.inputSchema['properties'] as Record<string, { allOf?: unknown[]; description?: string }>)['from'];
    expect(from?.description).toContain('Who sends');
    expect(JSON.stringify(from)).toContain('"required":["email"]');
    // Inline unions reach the model as anyOf: a value matching two variants is still valid.
    expect(JSON.stringify(tool.inputSchema)).not.toContain('oneOf');
  });
});

const swagger = {
  swagger: '2.0',
  info: { title: 'Slack-like', version: '1' },
  host: 'slack.com',
  basePath: '/api',
  schemes: ['https'],
  consumes: ['application/x-www-form-urlencoded'],
  paths: {
    '/files.upload': {
      post: {
        operationId: 'files_upload',
        consumes: ['multipart/form-data'],
        parameters: [
          { name: 'file', in: 'formData', type: 'file' },
          { name: 'channels', in: 'formData', type: 'array', items: { type: 'string' } },
          { name: 'title', in: 'formData', type: 'string' },
        ],
        responses: { '200': { description: 'ok', schema: { type: 'object' } } },
      },
    },
    '/chat.postMessage': {
      post: {
        operationId: 'chat_postMessage',
        parameters: [
          { name: 'channel', in: 'formData', type: 'string', required: true },
          { name: 'users', in: 'formData', type: 'array', items: { type: 'string' }, collectionFormat: 'multi' },
        ],
        responses: { '200': { description: 'ok', schema: { type: 'object' } } },
      },
    },
    '/workflows/{namespace}': {
      post: {
        operationId: 'create_workflow',
        consumes: ['application/json'],
        parameters: [
          { name: 'namespace', in: 'path', required: true, type: 'string' },
          { name: 'ids', in: 'query', type: 'array', items: { type: 'string' } },
          {
            name: 'body',
            in: 'body',
            required: true,
            schema: { type: 'object', required: ['workflow'], properties: { workflow: { type: 'object' } } },
          },
        ],
        responses: { '200': { description: 'ok', schema: { type: 'object' } } },
      },
    },
  },
};

describe('Swagger 2.0 bodies and collections', () => {
  it('turns formData into a multipart body with files, csv arrays by default and multi where declared', async () => {
    const plan = await planOf(swagger);
    const upload = actionOf(plan, 'POST /files.upload').route;
    expect(upload.body).toMatchObject({ mediaType: 'multipart/form-data', kind: 'multipart' });
    expect([...upload.arguments].sort((a, b) => a.arg.localeCompare(b.arg))).toEqual([
      { arg: 'channels', in: 'body', name: 'channels', required: false, style: 'form', explode: false },
      { arg: 'file', in: 'body', name: 'file', required: false, file: true },
      { arg: 'title', in: 'body', name: 'title', required: false },
    ]);
    const post = actionOf(plan, 'POST /chat.postMessage').route;
    expect(post.body).toMatchObject({ mediaType: 'application/x-www-form-urlencoded', kind: 'form', required: true });
    expect(post.arguments.find((argument) => argument.arg === 'users')).toMatchObject({ style: 'form', explode: true });
  });

  it('flattens an in: body object and keeps csv query arrays', async () => {
    const plan = await planOf(swagger);
    const route = actionOf(plan, 'POST /workflows/{namespace}').route;
    expect(route.body).toMatchObject({ mediaType: 'application/json', kind: 'json', required: true });
    expect(route.arguments).toEqual([
      { arg: 'namespace', in: 'path', name: 'namespace', style: 'simple', explode: false, allowReserved: false, required: true },
      { arg: 'ids', in: 'query', name: 'ids', style: 'form', explode: false, allowReserved: false, required: false },
      { arg: 'workflow', in: 'body', name: 'workflow', required: true },
    ]);
  });
});
