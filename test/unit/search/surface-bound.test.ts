import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../src/diagnostics/diagnostic.js';
import { runPlan } from '../../../src/pipeline.js';
import { MAX_DETAIL } from '../../../src/plan/arguments/detail-levels.js';
import { planTools } from '../../../src/plan/plan-tools.js';
import type { ToolPlan } from '../../../src/plan/tool-plan.js';
import { planSearchSurface } from '../../../src/search/plan-search-surface.js';
import { fixtureSpec } from '../../helpers/paths.js';
import { withDefaults } from '../../helpers/options.js';

/** Redocly's museum: eight resource families, whatever the budget (its reads alone are three tools). */
const MUSEUM = fixtureSpec('redocly-museum.yaml');

const actionsOf = (plan: ToolPlan) =>
  plan.tools.map((tool) => [tool.name, tool.actions.map((action) => [action.name, action.operation.key])]);

describe('the surface of a description no static plan can fit', () => {
  it('is the search surface, chosen from the grouping alone: the tools and catalog of the full budget search', async () => {
    const settings = { spec: MUSEUM, maxTools: 2 };
    const auto = await runPlan({ ...settings, surface: 'auto' });
    expect(auto.surface?.mode).toBe('search');
    expect(auto.surface?.reason).toContain('tools of 2');
    // No budget search ran: every tool was built once, at the leanest detail.
    expect(auto.plan?.tools.every((tool) => tool.detail === MAX_DETAIL)).toBe(true);
    // The budget search over the same grouping ends at its coarsest state too: the same tools and actions.
    const model = auto.model;
    if (!model || !auto.plan) throw new Error('no plan');
    const searched = planTools(model, withDefaults(settings), new Diagnostics());
    expect(searched.totals.withinBudget).toBe(false);
    expect(searched.tools.some((tool) => tool.detail < MAX_DETAIL)).toBe(true);
    expect(actionsOf(auto.plan)).toEqual(actionsOf(searched));
    expect(auto.surface?.search?.catalog.map((entry) => entry.id)).toEqual(
      (await planSearchSurface(searched, model)).catalog.map((entry) => entry.id),
    );
    // `--surface search` takes the same way.
    const search = await runPlan({ ...settings, surface: 'search' });
    expect(actionsOf(search.plan as ToolPlan)).toEqual(actionsOf(auto.plan));
    expect(search.plan?.tools.every((tool) => tool.detail === MAX_DETAIL)).toBe(true);
  });

  it('is decided by the budget search when the grouping leaves few enough tools', async () => {
    const auto = await runPlan({ spec: MUSEUM, surface: 'auto' });
    const fixed = await runPlan({ spec: MUSEUM, surface: 'static' });
    expect(auto.surface?.mode).toBe('static');
    expect(JSON.stringify(auto.plan)).toBe(JSON.stringify(fixed.plan));
  });
});
