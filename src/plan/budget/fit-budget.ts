import type { Budget, ToolDraft } from '../drafts.js';
import type { ToolModel } from '../tool-plan.js';
import { MAX_DETAIL } from '../arguments/detail-levels.js';
import { totalTokens } from './budget.js';

/** What the fitting reads of a tool: its tokens (the search's estimates need no built tool). */
type Sized = { tokens: number };

/** Drafts at the detail levels that fit, and what was rendered of them. */
export type Fitted<T extends Sized = ToolModel> = { drafts: ToolDraft[]; tools: T[] };

/** One tool being fitted: its draft, what was rendered of it, and whether no leaner level makes it smaller. */
type Fitting<T extends Sized> = { draft: ToolDraft; tool: T; settled: boolean };

type Render<T extends Sized> = (draft: ToolDraft) => T;

/**
 * Trims schema detail until every tool fits the per-tool budget and the list fits the total, largest tool first.
 * Operations are never dropped: when the leanest detail is not enough, the plan stays over budget and says so.
 * The drafts given are not changed: the result holds copies at their new levels.
 */
export function fitBudget<T extends Sized>(given: readonly ToolDraft[], render: Render<T>, budget: Budget): Fitted<T> {
  const shrinkable = (fitting: Fitting<T>) => !fitting.settled && fitting.draft.detail < MAX_DETAIL;
  let fittings = given.map((draft): Fitting<T> => {
    let fitting: Fitting<T> = { draft, tool: render(draft), settled: false };
    while (fitting.tool.tokens > budget.maxToolTokens && shrinkable(fitting)) fitting = leaner(fitting, render);
    return fitting;
  });
  let total = totalTokens(fittings.map((fitting) => fitting.tool));
  while (total > budget.maxTotalTokens) {
    const pick = largest(fittings, shrinkable);
    if (pick < 0) break;
    const before = fittings[pick] as Fitting<T>;
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
function leaner<T extends Sized>(fitting: Fitting<T>, render: Render<T>): Fitting<T> {
  for (let detail = fitting.draft.detail + 1; detail <= MAX_DETAIL; detail++) {
    const draft = { ...fitting.draft, detail };
    const tool = render(draft);
    if (tool.tokens < fitting.tool.tokens) return { draft, tool, settled: false };
  }
  return { ...fitting, settled: true };
}

/** The index of the largest tool that can still shrink (the first of equals), or -1. */
function largest<T extends Sized>(fittings: readonly Fitting<T>[], shrinkable: (fitting: Fitting<T>) => boolean): number {
  let pick = -1;
  fittings.forEach((fitting, index) => {
    if (shrinkable(fitting) && (pick < 0 || fitting.tool.tokens > (fittings[pick] as Fitting<T>).tool.tokens)) pick = index;
  });
  return pick;
}
