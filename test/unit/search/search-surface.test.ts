import path from 'node:path';
import type { JsonObject } from '../../../src/kernel/json.js';
import { describe, expect, it } from 'vitest';
import { runPlan } from '../../../src/pipeline.js';
import { countToolTokens } from '../../../src/plan/budget/count-tokens.js';
import { actionRanker, type SearchIndexData } from '../../../templates/runtime/search/search-ranking.js';
import { PETSTORE_SAMPLE } from '../../helpers/paths.js';
import { openapi } from '../../helpers/plan-inline.js';

describe('the search surface of a plan', () => {
  it('serves four tools with true annotations, under the prefix, within 2,500 tokens', async () => {
    const result = await runPlan({ spec: PETSTORE_SAMPLE, surface: 'search', prefix: 'pets' });
    const search = result.surface?.search;
    expect(result.surface?.mode).toBe('search');
    expect(search?.tools.map((tool) => [tool.name, tool.annotations])).toEqual([
      ['pets_search_actions', { readOnlyHint: true, openWorldHint: false }],
      ['pets_call_read_action', { readOnlyHint: true }],
      ['pets_call_write_action', { readOnlyHint: false, destructiveHint: false }],
      ['pets_call_delete_action', { readOnlyHint: false, destructiveHint: true }],
    ]);
    for (const tool of search?.tools ?? []) {
      expect(tool.tokens).toBe(countToolTokens(tool));
      expect(tool.description.split(/(?<=[.!?])\s/).length).toBeGreaterThanOrEqual(3);
      expect(Object.keys(tool.inputSchema)).not.toContain('oneOf');
    }
    expect(search?.tokens).toBeLessThanOrEqual(2500);
    expect(search?.tools[0]?.description).toContain('pets_call_delete_action');
  });

  it('reaches every action of the plan under its tool.action id, with the action’s own arguments', async () => {
    const result = await runPlan({ spec: PETSTORE_SAMPLE, surface: 'search' });
    const { plan, surface } = result;
    const catalog = surface?.search?.catalog ?? [];
    const actions = plan?.tools.flatMap((tool) => tool.actions.map((action) => ({ tool, action }))) ?? [];
    expect(catalog).toHaveLength(actions.length);
    for (const { tool, action } of actions) {
      const entry = catalog.find((candidate) => candidate.tool === tool.name && candidate.action === action.name);
      expect(entry?.id).toBe(action.name ? `${tool.name}.${action.name}` : tool.name);
      expect(entry?.intent).toBe(tool.intent);
      const properties = Object.keys((entry?.inputSchema['properties'] ?? {}) as object);
      const expected = action.route.arguments.map((argument) => argument.arg);
      expect(properties.sort()).toEqual([...expected, ...(action.concise ? ['response_format'] : [])].sort());
      expect(entry?.inputSchema['required'] ?? []).toEqual(action.required);
      expect(entry?.inputSchema['additionalProperties']).toBe(false);
    }
  });

  it('finds every action by its own summary in a deterministic index', async () => {
    const first = await runPlan({ spec: PETSTORE_SAMPLE, surface: 'search' });
    const second = await runPlan({ spec: PETSTORE_SAMPLE, surface: 'search' });
    expect(second.surface?.search?.index).toBe(first.surface?.search?.index);
    const search = first.surface?.search;
    // Ranked by the generated server's own ranker, over the index as the server loads it.
    const catalog = new Map((search?.catalog ?? []).map((entry) => [entry.id, entry]));
    const rank = actionRanker(
      JSON.parse(search?.index ?? '{}') as SearchIndexData,
      (id) => catalog.get(id)?.path.split('/').length ?? 0,
      (id) => catalog.get(id)?.intent,
    );
    for (const entry of search?.catalog ?? []) {
      const found = rank(entry.summary, 5).flatMap((result) => [result.id, ...result.variants]);
      expect(found, entry.summary).toContain(entry.id);
    }
  });

  it('auto serves the static tools within budget and the search surface past it, saying why', async () => {
    const within = await runPlan({ spec: PETSTORE_SAMPLE, surface: 'auto' });
    expect(within.surface).toMatchObject({ requested: 'auto', mode: 'static', reason: 'the static plan fits its budget' });
    expect(within.surface?.search).toBeUndefined();
    const over = await runPlan({ spec: PETSTORE_SAMPLE, surface: 'auto', maxTools: 2 });
    expect(over.surface?.mode).toBe('search');
    expect(over.surface?.reason).toMatch(/^the static plan misses its budget \(.*tools of 2/);
    const budget = over.diagnostics.filter((diagnostic) => diagnostic.code === 'OTM_BUDGET_EXCEEDED');
    expect(budget.map((diagnostic) => [diagnostic.severity, diagnostic.message])).toEqual([
      ['info', 'Static plan, not served (the search surface is): The plan has 9 tools, over the limit of 2.'],
    ]);
  });

  it('is static by default, and leaves out call tools without actions', async () => {
    expect((await runPlan({ spec: PETSTORE_SAMPLE })).surface).toEqual({ requested: 'static', mode: 'static' });
    const document = openapi({
      '/things': { get: { operationId: 'listThings', summary: 'List things', responses: { 200: { description: 'ok' } } } },
    });
    const readOnly = await runPlan({ spec: '-', readStdin: async () => JSON.stringify(document), validate: false, surface: 'search' });
    expect(readOnly.surface?.search?.tools.map((tool) => tool.name)).toEqual(['search_actions', 'call_read_action']);
    expect(readOnly.surface?.search?.tools[0]?.description).not.toContain('call_delete_action');
  });

  it('refuses an unknown surface', async () => {
    const result = await runPlan({ spec: PETSTORE_SAMPLE, surface: 'everything' as 'auto' });
    expect(result.ok).toBe(false);
    expect(result.diagnostics[0]?.message).toContain('--surface must be one of static, search, auto');
  });
});

describe('an action schema', () => {
  it('drops a format that contradicts the values an enum lists, so the action stays callable', async () => {
    const document = openapi({
      '/sends/{id}': {
        put: {
          operationId: 'scheduleSend',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    send_at: { type: 'string', enum: ['now'], format: 'date-time' },
                    at: { type: 'string', format: 'date-time' },
                    properties: { type: 'object', properties: { format: { type: 'string' }, enum: { type: 'string' } } },
                  },
                },
              },
            },
          },
          responses: { 200: { description: 'ok' } },
        },
      },
    });
    const result = await runPlan({ spec: '-', readStdin: async () => JSON.stringify(document), validate: false, surface: 'search' });
    const schema = result.surface?.search?.catalog[0]?.inputSchema as { properties: Record<string, Record<string, unknown>> };
    expect(schema.properties['send_at']).toEqual({ type: 'string', enum: ['now'] });
    expect(schema.properties['at']).toMatchObject({ format: 'date-time' });
    expect(Object.keys((schema.properties['properties']?.['properties'] ?? {}) as object).sort()).toEqual(['enum', 'format']);
  });

  it('drops such formats however deep, in nested fields and named schemas, and only there', async () => {
    const plan = {
      type: 'object',
      properties: {
        start: {
          type: 'object',
          properties: { at: { type: 'string', const: 'asap', format: 'date-time' }, until: { type: 'string', format: 'date' } },
        },
      },
    };
    const document = openapi(
      {
        '/plans': {
          post: {
            operationId: 'createPlan',
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      schedule: { type: 'object', properties: { when: { type: 'string', enum: ['now'], format: 'date-time' } } },
                      plan: { $ref: '#/components/schemas/Plan' },
                      backup: { $ref: '#/components/schemas/Plan' },
                    },
                  },
                },
              },
            },
            responses: { 200: { description: 'ok' } },
          },
        },
      },
      { components: { schemas: { Plan: plan } } },
    );
    const result = await runPlan({ spec: '-', readStdin: async () => JSON.stringify(document), validate: false, surface: 'search' });
    const schema = result.surface?.search?.catalog[0]?.inputSchema as JsonObject;
    const text = JSON.stringify(schema);
    expect(text).not.toMatch(/"(enum|const)":[^}]*"format"|"format":[^}]*"(enum|const)"/);
    expect(text).toContain('"until":{"type":"string","format":"date"');
    expect(text).toContain('"when":{"type":"string","enum":["now"]}');
    expect(text).toContain('"at":{"type":"string","const":"asap"}');
  });
});
