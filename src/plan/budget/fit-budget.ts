import type { Budget, ToolDraft } from '../drafts.js';
import type { ToolModel } from '../tool-plan.js';
import { LEAN_DETAIL, MAX_DETAIL } from '../arguments/detail-levels.js';
import { totalTokens } from './budget.js';

/** What the fitting reads of a tool: its tokens (the search's estimates need no built tool). */
type Sized = { tokens: number };

/**
 * Drafts at the detail levels that fit, and what was rendered of them. `overBudget`: the list misses its budget even
 * with every tool at its floor (see floorOf), and every tool is there.
 */
export type Fitted<T extends Sized = ToolModel> = { drafts: ToolDraft[]; tools: T[]; overBudget: boolean };

/** One tool being fitted: its draft, what was rendered of it, and whether no leaner level makes it smaller. */
type Fitting<T extends Sized> = { draft: ToolDraft; tool: T; settled: boolean };

type Render<T extends Sized> = (draft: ToolDraft) => T;

/**
 * How far over its budget a list must be before its floors are measured first. Floors are about a third of a tool's
 * richest size, so such a list rarely fits even there; knowing that spares walking every tool through the rich
 * levels, the costliest to build. Below it, the walk measures the lean levels only for the tools it trims that far.
 * Only what is built depends on this; the plan is the same either way.
 */
const FLOORS_FIRST = 2;

/**
 * Trims schema detail until every tool fits the per-tool budget and the list fits the total, largest tool first.
 * Operations are never dropped: when even every tool's floor is not enough, each tool takes its floor, and the plan
 * stays over budget and says so. The drafts given are not changed: the result holds copies at their new levels.
 *
 * `tooMany`: the list has more tools than allowed at any grouping, so it misses its budget whatever it weighs. Its lean
 * floors are measured first, and when they miss the token budget too, each tool takes its lean floor without its rich
 * levels being built at all: on such lists (GitHub's) the richest builds were half of the fitting's time, and only
 * a tool whose rich level weighs less than every lean one would have kept it.
 */
export function fitBudget<T extends Sized>(given: readonly ToolDraft[], render: Render<T>, budget: Budget, tooMany = false): Fitted<T> {
  if (tooMany) {
    const lean = fitted(
      given.map((draft) => leanFloorOf(draft, render)),
      true,
    );
    if (totalTokens(lean.tools) > budget.maxTotalTokens) return lean;
  }
  const capped = given.map((draft) => {
    let fitting: Fitting<T> = { draft, tool: render(draft), settled: false };
    while (fitting.tool.tokens > budget.maxToolTokens && shrinkable(fitting)) fitting = leaner(fitting, render);
    return fitting;
  });
  let total = totalTokens(capped.map((fitting) => fitting.tool));
  if (total <= budget.maxTotalTokens) return fitted(capped, false);
  const atFloors = () =>
    fitted(
      capped.map((fitting) => floorOf(fitting, render)),
      true,
    );
  if (total > FLOORS_FIRST * budget.maxTotalTokens) {
    const floors = atFloors();
    if (totalTokens(floors.tools) > budget.maxTotalTokens) return floors;
  }
  let fittings = capped;
  while (total > budget.maxTotalTokens) {
    const pick = largest(fittings);
    // Every tool is as small as it gets (a step only ever goes to a smaller level, so no floor is smaller) and the
    // list still misses: the floors decide, as when they are measured first.
    if (pick < 0) return atFloors();
    const before = fittings[pick] as Fitting<T>;
    const after = leaner(before, render);
    total += after.tool.tokens - before.tool.tokens;
    fittings = fittings.with(pick, after);
  }
  return fitted(fittings, false);
}

function fitted<T extends Sized>(fittings: readonly Fitting<T>[], overBudget: boolean): Fitted<T> {
  return { drafts: fittings.map((fitting) => fitting.draft), tools: fittings.map((fitting) => fitting.tool), overBudget };
}

const shrinkable = <T extends Sized>(fitting: Fitting<T>) => !fitting.settled && fitting.draft.detail < MAX_DETAIL;

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

/**
 * The smallest a tool gets: the least of its level within the per-tool budget and the lean levels after it (the
 * richer of equals). Lean levels are not always smaller one after another (collapsing optional arguments into the
 * description can cost more than it saves), so each is measured.
 */
function floorOf<T extends Sized>(fitting: Fitting<T>, render: Render<T>): Fitting<T> {
  let floor = { ...fitting, settled: true };
  for (let detail = Math.max(fitting.draft.detail + 1, LEAN_DETAIL); detail <= MAX_DETAIL; detail++) {
    const draft = { ...fitting.draft, detail };
    const tool = render(draft);
    if (tool.tokens < floor.tool.tokens) floor = { draft, tool, settled: true };
  }
  return floor;
}

/** The smallest of a tool's lean levels (the richer of equals): floorOf from its first lean level. */
function leanFloorOf<T extends Sized>(draft: ToolDraft, render: Render<T>): Fitting<T> {
  const lean = { ...draft, detail: Math.max(draft.detail, LEAN_DETAIL) };
  return floorOf({ draft: lean, tool: render(lean), settled: false }, render);
}

/** The index of the largest tool that can still shrink (the first of equals), or -1. */
function largest<T extends Sized>(fittings: readonly Fitting<T>[]): number {
  let pick = -1;
  fittings.forEach((fitting, index) => {
    if (shrinkable(fitting) && (pick < 0 || fitting.tool.tokens > (fittings[pick] as Fitting<T>).tool.tokens)) pick = index;
  });
  return pick;
}
