import { Diagnostics } from '../diagnostics/diagnostic.js';
import { MAX_DETAIL } from './arguments/detail-levels.js';
import { totalTokens } from './budget/budget.js';
import type { TokenEstimate } from './budget/count-tokens.js';
import { fitBudget, type Fitted } from './budget/fit-budget.js';
import type { EstimatedTool, ToolBuilder } from './build/tool-builder.js';
import type { ToolModel } from './tool-plan.js';
import { siblingMap } from './describe/siblings.js';
import type { Budget, PlanInputs, Round, Siblings, ToolDraft } from './drafts.js';
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

/** The tools of one grouping state, named and with their header decisions, before any fitting. */
type Formed = { drafts: ToolDraft[]; headerDiagnostics: Diagnostics; siblingsOf: (draft: ToolDraft) => Siblings };

/**
 * The rounds of the budget search: the grouping cut at a budget → named drafts → header decisions → tools built and
 * fitted to the budget on estimated tokens.
 *
 * Budgets that stop the grouping at the same state give the same groups, and a round is a pure function of its groups
 * and its estimate: the search often asks for the same state again (a description that cannot fit its budget asks
 * for the coarsest grouping round after round), so a state is named and decided once, and fitted once per estimate.
 */
export class RoundPlanner {
  private readonly formed = new Map<number, Formed>();
  private readonly fitted = new Map<TokenEstimate, Map<number, Fitted<EstimatedTool>>>();

  constructor(private readonly context: RoundContext) {}

  round(groupingBudget: number, estimate: TokenEstimate): Round {
    const state = this.context.grouping.stateAt(groupingBudget);
    const { headerDiagnostics, siblingsOf } = this.form(state);
    const fitted = this.fit(state, estimate);
    return {
      groupingBudget,
      coarsest: state === this.context.grouping.lastState,
      drafts: fitted.drafts,
      total: totalTokens(fitted.tools),
      overBudget: fitted.overBudget,
      headerDiagnostics,
      buildExactly: (draft) => this.context.builder.exact(draft, siblingsOf(draft)),
    };
  }

  /**
   * The coarsest grouping with every tool built once, exactly, at the leanest detail: the static plan of a
   * description that no static plan can fit, when another surface is served and these tools only route its calls.
   */
  leanest(): { tools: ToolModel[]; drafts: ToolDraft[]; headerDiagnostics: Diagnostics } {
    const { headerDiagnostics, drafts, siblingsOf } = this.form(this.context.grouping.lastState);
    const leanest = drafts.map((draft) => ({ ...draft, detail: MAX_DETAIL }));
    const tools = leanest.map((draft) => this.context.builder.exact(draft, siblingsOf(draft)));
    return { tools, drafts: leanest, headerDiagnostics };
  }

  private form(state: number): Formed {
    let formed = this.formed.get(state);
    if (!formed) {
      const { inputs, naming, headers, grouping } = this.context;
      const headerDiagnostics = new Diagnostics();
      const drafts = toolDrafts(grouping.groupsAt(state), inputs, naming).map((draft): ToolDraft => ({
        ...draft,
        headers: headers.decide(draft.name, draft.actions, headerDiagnostics),
      }));
      const siblings = siblingMap(drafts);
      formed = { drafts, headerDiagnostics, siblingsOf: (draft) => siblings.get(draft.name) ?? {} };
      this.formed.set(state, formed);
    }
    return formed;
  }

  private fit(state: number, estimate: TokenEstimate): Fitted<EstimatedTool> {
    const byState = this.fitted.get(estimate) ?? new Map<number, Fitted<EstimatedTool>>();
    this.fitted.set(estimate, byState);
    let fitted = byState.get(state);
    if (!fitted) {
      const { drafts, siblingsOf } = this.form(state);
      const { builder, budget } = this.context;
      const tooMany = this.context.grouping.leastTools > budget.maxTools;
      fitted = fitBudget(drafts, (draft) => builder.estimated(draft, siblingsOf(draft), estimate), budget, tooMany);
      byState.set(state, fitted);
    }
    return fitted;
  }
}
