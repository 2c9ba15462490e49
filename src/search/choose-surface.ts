import type { Diagnostics } from '../diagnostics/diagnostic.js';
import type { ApiModel } from '../model/api-model.js';
import type { PlannedArguments } from '../plan/drafts.js';
import type { ToolPlan } from '../plan/tool-plan.js';
import { planSearchSurface } from './plan-search-surface.js';
import type { SurfaceChoice, SurfaceRequest } from './search-plan.js';

export const SURFACES: readonly SurfaceRequest[] = ['static', 'search', 'auto'];

/**
 * Which surface a finished plan is served with: `static` (the default) and `search` as asked, `auto` the search
 * surface exactly when the static plan misses its budget. On the search surface the static plan's budget warnings
 * concern tools nobody sees; they stay, as information.
 */
export async function chooseSurface(
  requested: SurfaceRequest,
  plan: ToolPlan,
  model: ApiModel,
  options: { prefix?: string | undefined },
  diagnostics: Diagnostics,
  /** The arguments the plan was made from, which the search surface describes its actions with. */
  planned?: PlannedArguments,
): Promise<SurfaceChoice> {
  const auto = requested === 'auto';
  const search = requested === 'search' || (auto && !plan.totals.withinBudget);
  const reason = auto
    ? search
      ? `the static plan misses its budget (${budgetMiss(plan)})`
      : 'the static plan fits its budget'
    : undefined;
  if (!search) return { requested, mode: 'static', ...(reason ? { reason } : {}) };
  for (const item of diagnostics.items) {
    if (item.code !== 'OTM_BUDGET_EXCEEDED' || item.severity !== 'warning') continue;
    item.severity = 'info';
    item.message = `Static plan, not served (the search surface is): ${item.message}`;
  }
  const surface = await planSearchSurface(plan, model, options.prefix ? { prefix: options.prefix } : {}, planned);
  return { requested, mode: 'search', ...(reason ? { reason } : {}), search: surface };
}

/** What the static plan exceeds: the total, the number of tools, or the largest tool. */
function budgetMiss(plan: ToolPlan): string {
  const { totals } = plan;
  const misses: string[] = [];
  if (totals.tokens > totals.budget.maxTotalTokens)
    misses.push(`${totals.tokens.toLocaleString('en-US')} tokens of ${totals.budget.maxTotalTokens.toLocaleString('en-US')}`);
  if (totals.tools > totals.budget.maxTools) misses.push(`${totals.tools} tools of ${totals.budget.maxTools}`);
  const over = plan.tools.filter((tool) => tool.tokens > totals.budget.maxToolTokens);
  if (over.length > 0)
    misses.push(
      `${over.length} tool${over.length === 1 ? '' : 's'} over ${totals.budget.maxToolTokens.toLocaleString('en-US')} tokens each`,
    );
  return misses.join('; ');
}
