import { describe, expect, it } from 'vitest';
import { OPERATION_STATUS } from '../../../src/plan/describe/operation-status.js';
import { openapi, planOf } from '../../helpers/inline.js';

const ok = { '200': { description: 'Done.', content: { 'application/json': { schema: { type: 'object' } } } } };

describe('operation_status', () => {
  it('is offered by a tool whose actions may answer before their work is done, and marks those actions', async () => {
    const { plan } = await planOf(
      openapi({
        '/jobs': {
          post: {
            operationId: 'startJob',
            tags: ['jobs'],
            responses: { '202': { description: 'Accepted.', headers: { Location: { schema: { type: 'string' } } } } },
          },
          put: { operationId: 'replaceJobs', tags: ['jobs'], responses: ok },
        },
        '/jobs/{id}/restart': {
          post: {
            operationId: 'restartJob',
            tags: ['jobs'],
            'x-ms-long-running-operation': true,
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: ok,
          },
        },
        '/reports': { get: { operationId: 'listReports', tags: ['reports'], responses: ok } },
        // Accepted, but pointing nowhere (GitHub's statistics being computed): nothing to follow.
        '/stats': {
          get: { operationId: 'getStats', tags: ['stats'], responses: { ...ok, '202': { description: 'Computing.' } } },
        },
      }),
    );
    const offering = plan.tools.filter((tool) => Object.hasOwn(tool.inputSchema['properties'] as object, OPERATION_STATUS));
    expect(offering.map((tool) => tool.intent)).toEqual(['write']);
    const longRunning = plan.tools.flatMap((tool) =>
      tool.actions.filter((action) => action.longRunning).map((action) => action.operation.id),
    );
    expect(longRunning.sort()).toEqual(['restartJob', 'startJob']);
    for (const tool of plan.tools.filter((tool) => tool.intent === 'read'))
      expect(Object.keys((tool.inputSchema['properties'] ?? {}) as object)).not.toContain(OPERATION_STATUS);
  });

  it('is not offered where the API has an argument of that name', async () => {
    const { plan } = await planOf(
      openapi({
        '/jobs': {
          post: {
            operationId: 'startJob',
            parameters: [{ name: OPERATION_STATUS, in: 'query', schema: { type: 'string', enum: ['a'] } }],
            'x-ms-long-running-operation': true,
            responses: { '200': { description: 'Done.' } },
          },
        },
      }),
    );
    const [tool] = plan.tools;
    expect((tool?.inputSchema['properties'] as Record<string, object>)[OPERATION_STATUS]).toMatchObject({ enum: ['a'] });
  });
});
