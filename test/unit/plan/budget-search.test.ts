import { afterEach, describe, expect, it, vi } from 'vitest';
import { HeaderDecider } from '../../../src/plan/headers/header-decider.js';
import { RoundPlanner } from '../../../src/plan/plan-round.js';
import type { Round } from '../../../src/plan/drafts.js';
import { openapi, planOf } from '../../helpers/inline.js';

/**
 * Families of resources (`/zoo3/animal12`), each read, replaced and removed. The long summaries make the rendered tools
 * larger than grouping estimates, so that the search needs several rounds.
 */
function zoo(families: number, perFamily: number, sentence: string): string {
  const text = `An animal ${sentence}.`;
  const paths: Record<string, object> = {};
  for (let family = 0; family < families; family++) {
    for (let member = 0; member < perFamily; member++) {
      const name = `animal${family * perFamily + member}`;
      const parameters = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: text }];
      const body = {
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: Object.fromEntries(
                ['size', 'color', 'habitat', 'diet'].map((field) => [`${field}_${name}`, { type: 'string', description: text }]),
              ),
            },
          },
        },
      };
      paths[`/zoo${family}/${name}/{id}`] = {
        get: {
          operationId: `get_${name}`,
          summary: `Get one ${name} ${sentence}`,
          description: text,
          parameters,
          responses: { 200: { description: 'ok' } },
        },
        put: {
          operationId: `put_${name}`,
          summary: `Replace one ${name} ${sentence}`,
          description: text,
          parameters,
          requestBody: body,
          responses: { 200: { description: 'ok' } },
        },
        delete: {
          operationId: `delete_${name}`,
          summary: `Remove one ${name} ${sentence}`,
          description: text,
          parameters,
          responses: { 204: { description: 'gone' } },
        },
      };
    }
  }
  return openapi(paths);
}

/** Counts the rounds the planner runs; `fromScratch` plans every round anew and never stops the search early. */
function countRounds(fromScratch = false): () => number[] {
  const asked: number[] = [];
  const original = RoundPlanner.prototype.round;
  vi.spyOn(RoundPlanner.prototype, 'round').mockImplementation(function (this: RoundPlanner, budget, estimate): Round {
    asked.push(budget);
    if (!fromScratch) return original.call(this, budget, estimate);
    const fresh = new RoundPlanner(Reflect.get(this, 'context'));
    return { ...original.call(fresh, budget, estimate), coarsest: false };
  });
  return () => asked;
}

afterEach(() => vi.restoreAllMocks());

/** The plan and its diagnostics, with the rounds the search ran and the header decisions it asked for. */
async function planned(text: string, budget: { tokensPerOperation: number; maxTotalTokens?: number }, fromScratch = false) {
  const rounds = countRounds(fromScratch);
  const decide = vi.spyOn(HeaderDecider.prototype, 'decide');
  const { plan, model, diagnostics } = await planOf(text, { budget });
  const result = { plan, model, diagnostics: diagnostics.items, rounds: rounds(), decisions: decide.mock.calls.length };
  vi.restoreAllMocks();
  return result;
}

/** A list of at most 4,000 tokens: below the per-operation floor, which the cap overrides. */
const LEANEST = { tokensPerOperation: 1, maxTotalTokens: 4000 };

describe('budget search', () => {
  const description = zoo(6, 8, 'that eats leaves and sleeps in the sun');

  it('stops at the first round over budget whose grouping can get no coarser, with the plan of the full search', async () => {
    // 144 operations in at most 4,000 tokens: even the coarsest grouping at the leanest detail misses.
    const fast = await planned(description, LEANEST);
    const full = await planned(description, LEANEST, true);
    // Every round of the search, and no calibrated re-search: the floors, counted exactly, miss as well.
    expect(full.rounds).toHaveLength(6);
    expect(fast.rounds).toEqual([4000]);
    expect(fast.plan).toEqual(full.plan);
    expect(fast.diagnostics).toEqual(full.diagnostics);
    expect(fast.plan.totals.withinBudget).toBe(false);
    expect(fast.diagnostics.some((item) => item.code === 'OTM_BUDGET_EXCEEDED' && /over the budget of 4000/.test(item.message))).toBe(true);
    // No operation is dropped: every one is an action of some tool.
    const actions = fast.plan.tools.flatMap((tool) => tool.actions.map((action) => action.operation.key));
    expect(actions.sort()).toEqual(fast.model.operations.map((operation) => operation.key).sort());
  }, 60_000);

  it('plans a description that fits after several rounds as when every round is planned anew', async () => {
    const fast = await planned(description, { tokensPerOperation: 90 });
    const full = await planned(description, { tokensPerOperation: 90 }, true);
    expect(fast.plan.totals.withinBudget).toBe(true);
    expect(fast.rounds.length).toBeGreaterThan(4);
    expect(fast.rounds).toEqual(full.rounds);
    expect(fast.plan).toEqual(full.plan);
    expect(fast.diagnostics).toEqual(full.diagnostics);
    // The re-search asks again for groupings the first search formed: they are named and decided once.
    expect(fast.decisions).toBeLessThan(full.decisions);
  }, 60_000);
});
