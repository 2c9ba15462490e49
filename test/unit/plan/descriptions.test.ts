import { describe, expect, it } from 'vitest';
import { runPlan } from '../../../src/pipeline.js';
import type { ToolPlan } from '../../../src/plan/tool-plan.js';
import { fixtureSpec } from '../../helpers/paths.js';
import { openapi, planOf } from '../../helpers/inline.js';

/** Sentences of a description's prose: the action list (`- …` lines) and its heading are not prose. */
function sentences(description: string): string[] {
  const prose = description
    .split('\n')
    .filter((line) => !/^\s*-\s/.test(line) && !/^Actions\b.*:$/.test(line.trim()))
    .join(' ');
  return prose
    .split(/(?<=[.!?])\s+(?=[A-Z(`"'0-9])/)
    .map((part) => part.trim())
    .filter((part) => /[A-Za-z]/.test(part) && /[.!?]$/.test(part));
}

/** Every budget as low as it goes: every tool at its leanest detail. */
const LEANEST = { budget: { tokensPerOperation: 1, maxTotalTokens: 4000, maxToolTokens: 100 } };
/** Budgets nothing reaches: every tool at its fullest detail. */
const FULLEST = { budget: { tokensPerOperation: 100_000, maxTotalTokens: 10_000_000, maxToolTokens: 100_000 } };

async function planned(spec: string, options: object): Promise<ToolPlan> {
  const result = await runPlan({ spec: fixtureSpec(spec), ...options });
  if (!result.plan) throw new Error(`no plan of ${spec}`);
  return result.plan;
}

describe('tool descriptions', () => {
  it('say what, when (and which sibling) and what comes back in at least three sentences at every detail level', async () => {
    for (const spec of ['oai-uspto.yaml', 'redocly-museum.yaml', 'openfinancebrasil-accounts.yaml', 'sentry-shaped.yaml']) {
      for (const options of [LEANEST, FULLEST]) {
        const plan = await planned(spec, options);
        for (const tool of plan.tools) {
          const said = sentences(tool.description);
          expect(said.length, `${spec} ${tool.name} at detail ${tool.detail}: ${tool.description}`).toBeGreaterThanOrEqual(3);
          expect(tool.description, tool.name).toMatch(/\breturns?\b/);
          // Cut nowhere mid-sentence: the only ellipsis a description holds closes a list of a result's fields.
          expect(tool.description, tool.name).not.toMatch(/…(?!\))/);
          expect(tool.title, tool.name).not.toContain('…');
        }
      }
    }
  }, 60_000);

  it('name every list action’s paging arguments in its own line', async () => {
    const list = (name: string, paging: string[]) => ({
      get: {
        operationId: name,
        parameters: [...paging, 'status'].map((parameter) => ({ name: parameter, in: 'query', schema: { type: 'string' } })),
        responses: {
          200: {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Charge' } }, has_more: { type: 'boolean' } },
                },
              },
            },
          },
        },
      },
    });
    const components = { schemas: { Charge: { type: 'object', properties: { id: { type: 'string' }, amount: { type: 'integer' } } } } };
    const { plan } = await planOf(
      openapi(
        { '/charges': list('listCharges', ['starting_after', 'limit']), '/charges/search': list('searchCharges', ['page']) },
        { components },
      ),
      LEANEST,
    );
    const tool = plan.tools.find((candidate) => candidate.name === 'charges_read');
    expect(tool?.description).toContain('- list(limit?, starting_after?)');
    expect(tool?.description).toContain('- search(page?)');
    expect(tool?.description).toContain('a list of Charge in data');
  });

  it('cut argument descriptions at whole sentences and keep the one that says what an argument is not', async () => {
    const description =
      'The unique identifier for the ticket, assigned when the ticket is created by the help desk for internal reference. This is not the ticket number users see in their email.';
    const { plan } = await planOf(
      openapi({
        '/tickets/{ticket_id}': {
          get: {
            operationId: 'getTicket',
            parameters: [{ name: 'ticket_id', in: 'path', required: true, description, schema: { type: 'string' } }],
            responses: { 200: { description: 'ok' } },
          },
          patch: {
            operationId: 'updateTicket',
            parameters: [{ name: 'ticket_id', in: 'path', required: true, description, schema: { type: 'string' } }],
            responses: { 200: { description: 'ok' } },
          },
        },
      }),
      LEANEST,
    );
    for (const tool of plan.tools) {
      const text = JSON.stringify(tool.inputSchema);
      expect(text, tool.name).toContain('This is not the ticket number users see in their email.');
      expect(text, tool.name).not.toContain('…');
    }
  });

  it('say in an action’s line what the merged schema cannot: its own type of an argument, and requirements that depend on others', async () => {
    const ok = { 200: { description: 'ok' } };
    const { plan } = await planOf(
      openapi({
        '/help_centers/{help_center_id}/articles': {
          get: {
            operationId: 'listArticles',
            parameters: [{ name: 'help_center_id', in: 'path', required: true, schema: { type: 'integer' } }],
            responses: ok,
          },
        },
        '/help_centers/{help_center_id}/articles/{article_id}': {
          get: {
            operationId: 'getArticle',
            parameters: [
              { name: 'help_center_id', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'article_id', in: 'path', required: true, schema: { type: 'string' } },
            ],
            responses: ok,
          },
          patch: {
            operationId: 'updateArticle',
            parameters: [
              { name: 'help_center_id', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'article_id', in: 'path', required: true, schema: { type: 'string' } },
            ],
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { state: { type: 'string' }, title: { type: 'string' } },
                    dependentRequired: { state: ['title'] },
                  },
                },
              },
            },
            responses: ok,
          },
        },
      }),
    );
    const read = plan.tools.find((tool) => tool.name.endsWith('_read'));
    expect(read?.description).toContain('- list(help_center_id: integer)');
    expect(read?.description).toContain('- get(help_center_id: string, article_id)');
    const write = plan.tools.find((tool) => tool.name.endsWith('_write'));
    expect(write?.description).toContain('Title is required when state is sent.');
  });
});
