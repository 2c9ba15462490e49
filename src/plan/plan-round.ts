import { Diagnostics } from '../diagnostics/diagnostic.js';
import { totalTokens } from './budget/budget.js';
import type { TokenEstimate } from './budget/count-tokens.js';
import { fitBudget } from './budget/fit-budget.js';
import type { ToolBuilder } from './build/tool-builder.js';
import { siblingMap } from './describe/siblings.js';
import type { Budget, PlanInputs, Round, ToolDraft } from './drafts.js';
import type { Grouping } from './group/group-operations.js';
import type { HeaderDecider } from './headers/header-decider.js';
import { toolDrafts, type NamingOptions } from './name/tool-drafts.js';

/** What every round shares: the plan's inputs, the grouping to cut, naming, header decisions, the builder, the budget. */
export type RoundContext = {
  inputs: PlanInputs;
  grouping: Grouping;
  naming: NamingOptions;
  headers: HeaderDecider;
  builder: ToolBuilder;
  budget: Budget;
};

/**
 * One round of the budget search: the grouping cut at a budget → named drafts → header decisions → tools built and
 * fitted to the budget on estimated tokens.
 */
export function planRound(context: RoundContext, groupingBudget: number, estimate: TokenEstimate): Round {
  const { inputs, builder, budget } = context;
  const headerDiagnostics = new Diagnostics();
  const drafts = toolDrafts(context.grouping.at(groupingBudget), inputs, context.naming).map((draft): ToolDraft => ({
    ...draft,
    headers: context.headers.decide(draft.name, draft.actions, headerDiagnostics),
  }));
  const siblings = siblingMap(drafts);
  const siblingsOf = (draft: ToolDraft) => siblings.get(draft.name) ?? {};
  const fitted = fitBudget(drafts, (draft) => builder.estimated(draft, siblingsOf(draft), estimate), budget);
  return {
    groupingBudget,
    drafts: fitted.drafts,
    tools: fitted.tools,
    total: totalTokens(fitted.tools),
    headerDiagnostics,
    buildExactly: (draft) => builder.exact(draft, siblingsOf(draft)),
  };
}
