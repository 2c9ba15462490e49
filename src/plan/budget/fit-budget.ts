import type { Budget, ToolDraft } from '../drafts.js';
import type { ToolModel } from '../tool-plan.js';
import { MAX_DETAIL } from '../arguments/tool-schema.js';
import { totalTokens } from './budget.js';

/** Drafts at the detail levels that fit, and the tools built from them. */
export type Fitted = { drafts: ToolDraft[]; tools: ToolModel[] };

/** One tool being fitted: its draft, the tool built from it, and whether no leaner level makes it smaller. */
type Fitting = { draft: ToolDraft; tool: ToolModel; settled: boolean };

type Render = (draft: ToolDraft) => ToolModel;

/**
 * Trims schema detail until every tool fits the per-tool budget and the list fits the total, largest tool first.
 * Operations are never dropped: when the leanest detail is not enough, the plan stays over budget and says so.
 * The drafts given are not changed: the result holds copies at their new levels.
 */
export function fitBudget(given: readonly ToolDraft[], render: Render, budget: Budget): Fitted {
  const shrinkable = (fitting: Fitting) => !fitting.settled && fitting.draft.detail < MAX_DETAIL;
  let fittings = given.map((draft): Fitting => {
    let fitting: Fitting = { draft, tool: render(draft), settled: false };
    while (fitting.tool.tokens > budget.maxToolTokens && shrinkable(fitting)) fitting = leaner(fitting, render);
    return fitting;
  });
  let total = totalTokens(fittings.map((fitting) => fitting.tool));
  while (total > budget.maxTotalTokens) {
    const pick = largest(fittings, shrinkable);
    if (pick < 0) break;
    const before = fittings[pick] as Fitting;
    const after = leaner(before, render);
    total += after.tool.tokens - before.tool.tokens;
    fittings = fittings.with(pick, after);
  }
  return { drafts: fittings.map((fitting) => fitting.draft), tools: fittings.map((fitting) => fitting.tool) };
}

/**
 * The next leaner level of a tool. A leaner level can cost more than the one before (listing optional arguments per
 * action in the description outweighs the notes it replaces), or the same: a step goes to the first leaner level that
 * is actually smaller, and a tool with none stays where it is, settled.
 */
function leaner(fitting: Fitting, render: Render): Fitting {
  for (let detail = fitting.draft.detail + 1; detail <= MAX_DETAIL; detail++) {
    const draft = { ...fitting.draft, detail };
    const tool = render(draft);
    if (tool.tokens < fitting.tool.tokens) return { draft, tool, settled: false };
  }
  return { ...fitting, settled: true };
}

/** The index of the largest tool that can still shrink (the first of equals), or -1. */
function largest(fittings: readonly Fitting[], shrinkable: (fitting: Fitting) => boolean): number {
  let pick = -1;
  fittings.forEach((fitting, index) => {
    if (shrinkable(fitting) && (pick < 0 || fitting.tool.tokens > (fittings[pick] as Fitting).tool.tokens)) pick = index;
  });
  return pick;
}
