import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import { loadSpec } from '../../src/load/load-spec.js';
import { buildApiModel } from '../../src/model/build-api-model.js';
import { planTools } from '../../src/plan/plan-tools.js';
import { CONFIG_DEFAULTS } from '../../src/config/config-schema.js';
import { chooseSurface } from '../../src/search/choose-surface.js';
import { CORPUS, corpusOptions } from '../helpers/corpus.js';
import { toolRuleViolations } from '../helpers/tool-rules.js';
import { withDefaults } from '../helpers/options.js';

/**
 * Every corpus description: a model without errors, every operation once in the plan, every tool rule, and the
 * default budget — or, for an API whose families need more than the cap of the whole list (GitHub), the search
 * surface `--surface auto` serves instead, within that cap (decision 0009).
 */
describe('plan over the corpus', () => {
  it.each(CORPUS.filter((entry) => entry.operations > 0))(
    '$name: covers every operation once, keeps every rule and the budget',
    async (entry) => {
      const diagnostics = new Diagnostics();
      const document = await loadSpec(withDefaults(corpusOptions(entry)), diagnostics);
      const model = buildApiModel(document!, diagnostics);
      expect(diagnostics.errors, entry.name).toEqual([]);
      const plan = planTools(model, withDefaults(), diagnostics);
      expect(
        toolRuleViolations(
          plan,
          model.operations.map((operation) => operation.key),
        ),
      ).toEqual([]);
      expect(plan.totals.operations).toBe(entry.operations);
      if (plan.totals.withinBudget) return;
      expect(plan.totals.tokens, 'over budget only past the cap').toBeGreaterThan(CONFIG_DEFAULTS.maxTotalTokens);
      const served = await chooseSurface('auto', plan, model, {}, diagnostics);
      expect(served.mode).toBe('search');
      expect(served.search!.tokens).toBeLessThanOrEqual(CONFIG_DEFAULTS.maxTotalTokens);
    },
  );
});
