import { describe, expect, it } from 'vitest';
import { actionOf, planOf, toolOf } from './plan-fixture.js';

const item = {
  type: 'object',
  properties: {
    id: { type: 'integer', readOnly: true },
    name: { type: 'string' },
    status: { type: 'string', enum: ['open', 'closed'] },
    description: { type: 'string' },
    owner: { $ref: '#/components/schemas/User' },
    tags: { type: 'array', items: { type: 'string' } },
    created: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'name'],
};
const json = (schema: object) => ({ '200': { description: 'ok', content: { 'application/json': { schema } } } });
const document = {
  openapi: '3.0.3',
  info: { title: 'Tickets', version: '1.0.0' },
  servers: [{ url: 'https://api.example.com' }],
  paths: {
    '/tickets': {
      get: {
        operationId: 'list_tickets',
        parameters: [{ name: 'cursor', in: 'query', schema: { type: 'string' } }],
        responses: json({
          type: 'object',
          properties: {
            data: { type: 'array', items: { $ref: '#/components/schemas/Ticket' } },
            next_cursor: { type: 'string', nullable: true },
          },
        }),
      },
      post: {
        operationId: 'create_ticket',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Ticket' } } } },
        responses: json({ $ref: '#/components/schemas/Ticket' }),
      },
    },
    '/tickets/{id}': {
      get: {
        operationId: 'get_ticket',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: json({ $ref: '#/components/schemas/Ticket' }),
      },
    },
    '/tickets/{id}/history': {
      get: {
        operationId: 'list_ticket_history',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: json({ type: 'array', items: { $ref: '#/components/schemas/Ticket' } }),
      },
    },
    '/tickets/{id}/file': {
      get: {
        operationId: 'get_ticket_file',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'ok', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Ticket: item,
      User: { type: 'object', properties: { id: { type: 'string' }, self: { $ref: '#/components/schemas/User' } } },
    },
  },
};

describe('concise views', () => {
  it('offers response_format on read tools whose actions list objects, keeping identifying and summary fields', async () => {
    const plan = await planOf(document);
    expect(actionOf(plan, 'GET /tickets').concise).toEqual({ lists: [{ field: 'data', keep: ['id', 'name', 'status'] }] });
    expect(actionOf(plan, 'GET /tickets/{id}/history').concise).toEqual({ lists: [{ keep: ['id', 'name', 'status'] }] });
    expect(actionOf(plan, 'GET /tickets/{id}').concise).toBeUndefined();
    const read = toolOf(plan, 'GET /tickets');
    const property = (read.inputSchema['properties'] as Record<string, { enum?: string[]; default?: string }>)['response_format'];
    expect(property).toMatchObject({ enum: ['concise', 'detailed'], default: 'concise' });
    expect(read.inputSchema['required']).not.toContain('response_format');
    const write = toolOf(plan, 'POST /tickets');
    expect(write.inputSchema['properties']).not.toHaveProperty('response_format');
  });
});

describe('output schemas', () => {
  it('are not declared by default', async () => {
    const plan = await planOf(document);
    expect(plan.tools.some((tool) => tool.outputSchema)).toBe(false);
  });

  it('are a loose projection with --output-schema loose: nothing required, every type nullable, no enums or formats', async () => {
    const plan = await planOf(document, { outputSchema: 'loose' });
    const create = toolOf(plan, 'POST /tickets');
    expect(create.outputSchema).toEqual({
      type: 'object',
      properties: {
        created: { type: ['string', 'null'] },
        description: { type: ['string', 'null'] },
        id: { type: ['number', 'null'] },
        name: { type: ['string', 'null'] },
        owner: { type: ['object', 'null'], properties: { id: { type: ['string', 'null'] }, self: {} } },
        status: { type: ['string', 'null'] },
        tags: { type: ['array', 'null'], items: { type: ['string', 'null'] } },
      },
    });
    const text = JSON.stringify(plan.tools.map((tool) => tool.outputSchema ?? {}));
    for (const keyword of ['"required"', '"additionalProperties"', '"enum"', '"format"']) expect(text).not.toContain(keyword);
  });

  it('are left out for tools with an action that lists, or answers anything but JSON', async () => {
    const plan = await planOf(document, { outputSchema: 'loose' });
    expect(toolOf(plan, 'GET /tickets/{id}/history').outputSchema).toBeUndefined();
    expect(toolOf(plan, 'GET /tickets/{id}/file').outputSchema).toBeUndefined();
  });
});
