import { describe, expect, it } from 'vitest';
import { buildTestCases } from '../../../src/emit/test-cases.js';
import { planOf } from '../plan/plan-fixture.js';

const ok = { 200: { description: 'ok' } };

function openapi(paths: object) {
  return { openapi: '3.0.3', info: { title: 'T', version: '1' }, servers: [{ url: 'https://api.example.com' }], paths };
}

describe('generated test cases', () => {
  it('send valid values for the rules the input schema leaves out, and one breach to refuse', async () => {
    const plan = await planOf(
      openapi({
        '/replays/{replay_id}': {
          get: {
            parameters: [{ name: 'replay_id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } }],
            responses: ok,
          },
        },
      }),
    );
    const cases = buildTestCases(plan);
    expect(cases.actions[0]?.arguments).toEqual({ replay_id: '00000000000000000000000000000000' });
    expect(cases.breaches).toEqual([
      { tool: plan.tools[0]?.name, action: '', arguments: { replay_id: '!' }, expect: 'replay_id must match the pattern' },
    ]);
  });

  it('leave out an optional body when its required fields have no valid value', async () => {
    const plan = await planOf(
      openapi({
        '/apdu': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['class'],
                    properties: {
                      // Adyen: base64 of exactly one character; no sample satisfies both.
                      class: { type: 'string', format: 'byte', pattern: '^.{1,1}$' },
                      data: { type: 'string' },
                    },
                  },
                },
              },
            },
            responses: ok,
          },
        },
      }),
    );
    const [entry] = buildTestCases(plan).actions;
    expect(entry?.arguments).toEqual({});
    expect(entry?.body).toBeUndefined();
  });

  it('break no number format on a string, which the server lets through (Google Tag Manager: int64 as decimal text)', async () => {
    const plan = await planOf(
      openapi({
        '/tags': {
          get: {
            parameters: [
              { name: 'scheduleEndMs', in: 'query', schema: { type: 'string', format: 'int64' } },
              { name: 'since', in: 'query', schema: { type: 'string', format: 'date' } },
            ],
            responses: ok,
          },
        },
      }),
    );
    expect(buildTestCases(plan).breaches).toEqual([
      { tool: plan.tools[0]?.name, action: '', arguments: { since: 'not a valid value' }, expect: 'since must be' },
    ]);
  });
});
