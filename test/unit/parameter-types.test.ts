import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { OperationOverride } from '../../src/model/apply-overrides.js';
import type { ParameterModel } from '../../src/model/api-model.js';
import { runPlan } from '../../src/pipeline.js';
import { fragment } from '../helpers/paths.js';

/** The model of a fragment as the pipeline builds it (overrides from a configuration applied), and its warnings. */
async function modelOf(entry: string, overrides?: Record<string, OperationOverride>) {
  const result = await runPlan({
    spec: fragment(entry),
    validate: false,
    ...(overrides ? { overrides, overridesFile: 'openapi-to-mcp.config.yaml' } : {}),
  });
  if (!result.model) throw new Error(result.diagnostics.map((item) => item.message).join('; '));
  const parameter = (operationId: string, name: string): ParameterModel => {
    const found = result.model?.operations.find((operation) => operation.id === operationId)?.parameters.find((item) => item.name === name);
    if (!found) throw new Error(`no parameter ${name} of ${operationId}`);
    return found;
  };
  const believed = result.diagnostics.filter((item: Diagnostic) => item.code === 'OTM_PARAMETER_TYPE_BELIEVED');
  return { result, parameter, believed };
}

describe('a parameter type the description contradicts', () => {
  it('is taken as a string when every example is text no integer reads as, with a warning at the parameter', async () => {
    const { parameter, believed, result } = await modelOf('contradictions.yaml');
    // The integer's keywords (format, minimum) go with its type; the examples stay.
    expect(parameter('getProject', 'project_id').schema).toEqual({
      type: 'string',
      examples: ['5f1a2b3c4d5e6f7a8b9c0d1e', '64b7f0c2a1d3e4f5a6b7c8d9'],
    });
    expect(believed).toEqual([
      {
        severity: 'warning',
        code: 'OTM_PARAMETER_TYPE_BELIEVED',
        message:
          'GET /projects/{project_id}: the path parameter "project_id" is typed integer, but none of its 2 examples is one ("5f1a2b3c4d5e6f7a8b9c0d1e" …); the model and the server take it as a string.',
        pointer: '#/paths/~1projects~1{project_id}/get/parameters/0',
        hint: 'To keep integer, pin it in the configuration: operations: { getProject: { parameters: { project_id: { type: integer } } } }; or correct the type in the description.',
      },
    ]);
    // The model is told the believed type, and the server checks it.
    const tool = result.plan?.tools.find((candidate) => candidate.actions.some((action) => action.operation.id === 'getProject'));
    expect(JSON.stringify(tool?.inputSchema)).toContain('"project_id":{"type":"string"');
  });

  it('leaves a grouped pair that disagrees alone: two definitions make no majority', async () => {
    const { parameter } = await modelOf('contradictions.yaml');
    expect(parameter('listArticles', 'help_center_id').schema).toEqual({ type: 'integer' });
    expect(parameter('getArticle', 'help_center_id').schema).toEqual({ type: 'string' });
  });

  it("takes SendGrid's one integer segment_id as the string the other paths say (the uuid one means another segment)", async () => {
    const { parameter, believed } = await modelOf('sendgrid-segment-ids.json');
    expect(parameter('GET_contactdb-segments-segment_id-recipients', 'segment_id').schema).toEqual({
      type: 'string',
      description: 'The ID of the segment from which you want to retrieve recipients.',
    });
    expect(believed.map((item) => [item.message, item.pointer])).toEqual([
      [
        'GET /contactdb/segments/{segment_id}/recipients: the path parameter "segment_id" is typed integer, but the 2 other definitions of a path parameter "segment_id" type it string; the model and the server take it as a string.',
        '#/paths/~1contactdb~1segments~1{segment_id}~1recipients/parameters/0',
      ],
    ]);
  });

  it('never narrows a wider dissent, nor one whose schema says more than its type', async () => {
    const spec = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      paths: Object.fromEntries(
        [
          ['/a', { type: 'integer' }],
          ['/b', { type: 'integer' }],
          ['/c', { type: 'integer' }],
          ['/d', { type: 'string' }],
          ['/e', { type: 'number', minimum: 0 }],
        ].map(([path, schema]) => [
          path,
          {
            get: {
              operationId: `get${String(path).slice(1)}`,
              parameters: [{ name: 'page', in: 'query', schema }],
              responses: { 200: { description: 'ok' } },
            },
          },
        ]),
      ),
    });
    const result = await runPlan({ spec: '-', readStdin: async () => spec, validate: false });
    expect(result.diagnostics.filter((item) => item.code === 'OTM_PARAMETER_TYPE_BELIEVED')).toEqual([]);
    const types = result.model?.operations.map((operation) => (operation.parameters[0]?.schema as { type: string }).type);
    expect(types).toEqual(['integer', 'integer', 'integer', 'string', 'number']);
  });

  it('keeps a dissent the others cannot mean: an enum of words or a format holds no number', async () => {
    // Xero: timeframe is MONTH|QUARTER|YEAR in two reports and a number of months (1, 3, 12) in BudgetSummary.
    const words = { type: 'string', enum: ['MONTH', 'QUARTER', 'YEAR'] };
    const spec = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      paths: Object.fromEntries(
        [
          ['/balance', words],
          ['/profit', words],
          ['/uuid', { type: 'string', format: 'uuid' }],
          ['/budget', { type: 'integer' }],
        ].map(([path, schema]) => [
          path,
          {
            get: {
              operationId: `get${String(path).slice(1)}`,
              parameters: [{ name: 'timeframe', in: 'query', schema }],
              responses: { 200: { description: 'ok' } },
            },
          },
        ]),
      ),
    });
    const result = await runPlan({ spec: '-', readStdin: async () => spec, validate: false });
    expect(result.diagnostics.filter((item) => item.code === 'OTM_PARAMETER_TYPE_BELIEVED')).toEqual([]);
    const budget = result.model?.operations.find((operation) => operation.id === 'getbudget');
    expect((budget?.parameters[0]?.schema as { type: string }).type).toBe('integer');
  });

  it('keeps the type the configuration pins, either way, without a warning', async () => {
    const kept = await modelOf('contradictions.yaml', { getProject: { parameters: { project_id: { type: 'integer' } } } });
    expect(kept.believed).toEqual([]);
    // Examples that no integer reads as are not quoted as valid values any more.
    expect(kept.parameter('getProject', 'project_id').schema).toEqual({ type: 'integer', format: 'int64', minimum: 1 });
    const forced = await modelOf('contradictions.yaml', {
      'GET /help_centers/{help_center_id}/articles': { parameters: { help_center_id: { type: 'string', in: 'path' } } },
    });
    expect(forced.parameter('listArticles', 'help_center_id').schema).toEqual({ type: 'string' });
  });

  it('takes a one-value query parameter named `name[]` as a list that repeats its key, with information at it', async () => {
    const { parameter, result } = await modelOf('contradictions.yaml');
    expect(parameter('listArticles', 'labels[]')).toMatchObject({
      explode: true,
      schema: {
        type: 'array',
        uniqueItems: true,
        items: { type: 'string', enum: ['faq', 'howto', 'release'] },
      },
    });
    expect(result.diagnostics.filter((item) => item.code === 'OTM_PARAMETER_LIST_BELIEVED')).toEqual([
      expect.objectContaining({
        severity: 'info',
        pointer: '#/paths/~1help_centers~1{help_center_id}~1articles/get/parameters/2',
        hint: 'To send one value only, pin its type in the configuration: operations: { listArticles: { parameters: { "labels[]": { type: string } } } }.',
      }),
    ]);
    // A pinned type keeps one value, and so does a name without brackets or outside the query.
    const pinned = await modelOf('contradictions.yaml', { listArticles: { parameters: { 'labels[]': { type: 'string' } } } });
    expect(pinned.parameter('listArticles', 'labels[]').schema).toMatchObject({ type: 'string', uniqueItems: true });
    expect(pinned.result.diagnostics.filter((item) => item.code === 'OTM_PARAMETER_LIST_BELIEVED')).toEqual([]);
    expect(parameter('listArticles', 'include_archived').schema).toMatchObject({ type: 'string' });
  });

  it('turns a Swagger 2.0 `name[]` without a collection format into a repeated key, not one comma-joined value', async () => {
    const spec = JSON.stringify({
      swagger: '2.0',
      info: { title: 'T', version: '1' },
      paths: {
        '/incidents': {
          get: {
            operationId: 'listIncidents',
            parameters: [{ name: 'statuses[]', in: 'query', type: 'string', enum: ['triggered', 'resolved'] }],
            responses: { 200: { description: 'ok' } },
          },
        },
      },
    });
    const result = await runPlan({ spec: '-', readStdin: async () => spec, validate: false });
    expect(result.model?.operations[0]?.parameters[0]).toMatchObject({
      style: 'form',
      explode: true,
      schema: { type: 'array', items: { type: 'string', enum: ['triggered', 'resolved'] } },
    });
  });

  it('reports a pin that names no parameter, with the closest name', async () => {
    const { result } = await modelOf('contradictions.yaml', { getProject: { parameters: { projectId: { type: 'string' } } } });
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'OTM_CONFIG_INVALID',
        pointer: '#/operations/getProject/parameters/projectId',
        file: 'openapi-to-mcp.config.yaml',
        hint: 'Did you mean project_id?',
      }),
    );
  });
});
