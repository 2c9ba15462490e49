import type { Diagnostics } from '../../diagnostics/diagnostic.js';
import type { Budget, Round, Strategy, ToolDraft } from '../drafts.js';
import type { ToolModel } from '../tool-plan.js';
import { fitsTokens, totalTokens } from './budget.js';
import { TokenEstimate } from './count-tokens.js';
import { fitBudget } from './fit-budget.js';
import { searchGrouping } from './search-grouping.js';

/** A round at a grouping budget, its tools' tokens estimated with the given estimate. */
export type PlanRound = (groupingBudget: number, estimate: TokenEstimate) => Round;

/**
 * The budget loop. The search counts estimated tokens; the plan keeps exact counts. When the chosen tools, counted
 * exactly, miss the budget, the estimate is calibrated on those counts and the search runs once more; tools still
 * over budget are fitted again on exact counts. A list that misses with every tool at its floor, counted exactly too,
 * is final: a calibrated estimate would only find the same floors over budget again.
 */
export function fitPlan(
  planRound: PlanRound,
  strategy: Strategy,
  budget: Budget,
): { tools: ToolModel[]; drafts: ToolDraft[]; headerDiagnostics: Diagnostics } {
  const search = (estimate: TokenEstimate): Round =>
    strategy === 'auto'
      ? searchGrouping((groupingBudget) => planRound(groupingBudget, estimate), budget.maxTotalTokens)
      : planRound(budget.maxTotalTokens, estimate);
  const first = search(new TokenEstimate());
  const firstCounted = first.drafts.map(first.buildExactly);
  if (first.overBudget && totalTokens(firstCounted) > budget.maxTotalTokens)
    return { tools: firstCounted, drafts: first.drafts, headerDiagnostics: first.headerDiagnostics };
  const chosen = fitsTokens(firstCounted, budget) ? first : search(new TokenEstimate().calibrated(firstCounted));
  const counted = chosen === first ? firstCounted : chosen.drafts.map(chosen.buildExactly);
  const fitted = fitsTokens(counted, budget)
    ? { tools: counted, drafts: chosen.drafts }
    : fitBudget(chosen.drafts, chosen.buildExactly, budget);
  return { tools: fitted.tools, drafts: fitted.drafts, headerDiagnostics: chosen.headerDiagnostics };
}
