import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import { loadSpec } from '../../src/load/load-spec.js';
import { buildApiModel } from '../../src/model/build-api-model.js';
import { planTools } from '../../src/plan/plan-tools.js';
import { CORPUS, corpusOptions } from '../helpers/corpus.js';
import { toolRuleViolations } from '../helpers/tool-rules.js';

/** Every corpus description: a model without errors, every operation once in the plan, every tool rule, the default budget. */
describe('plan over the corpus', () => {
  it.each(CORPUS.filter((entry) => entry.operations > 0))(
    '$name: covers every operation once, keeps every rule and the budget',
    async (entry) => {
      const diagnostics = new Diagnostics();
      const document = await loadSpec(corpusOptions(entry), diagnostics);
      const model = buildApiModel(document!, diagnostics);
      expect(diagnostics.errors, entry.name).toEqual([]);
      const plan = planTools(model, {}, diagnostics);
      expect(
        toolRuleViolations(
          plan,
          model.operations.map((operation) => operation.key),
        ),
      ).toEqual([]);
      expect(plan.totals).toMatchObject({ operations: entry.operations, withinBudget: true });
      expect(plan.tools.length).toBeLessThanOrEqual(plan.totals.budget.maxTools);
    },
  );
});
