import type { Round } from '../drafts.js';

/** Rounds of group → render → compare with the budget → group tighter (or looser). */
const GROUPING_ROUNDS = 6;

/**
 * The grouping estimates tokens before rendering, so its budget is searched: the first round groups with the real
 * budget; while the rendered list is over it, the next round groups with a budget scaled down by the overshoot; once
 * one fits, the rounds left halve the gap between the loosest grouping that fits and the tightest that does not —
 * every merge less keeps a tool more specific. The search stops early once a round over the budget has the coarsest
 * grouping and none has fitted: the rounds left would all return that round again.
 */
export function searchGrouping(planRound: (groupingBudget: number) => Round, maxTotalTokens: number): Round {
  let fitting: Round | undefined;
  let over: Round | undefined;
  let next = maxTotalTokens;
  for (let round = 0; round < GROUPING_ROUNDS; round++) {
    const result = planRound(next);
    if (result.total <= maxTotalTokens) {
      if (!fitting || result.groupingBudget > fitting.groupingBudget) fitting = result;
      if (!over) break;
    } else {
      if (!over || result.groupingBudget < over.groupingBudget) over = result;
      // Nothing fits yet, so every later round asks for a lower budget — and a round at the coarsest grouping would
      // only be repeated: no grouping is left that could fit (its tools are already as lean as they get).
      if (!fitting && result.coarsest) break;
    }
    if (fitting && over) {
      if (over.groupingBudget - fitting.groupingBudget < maxTotalTokens * 0.01) break;
      next = Math.floor((fitting.groupingBudget + over.groupingBudget) / 2);
    } else if (over) {
      // Scale by the overshoot, and a little more, so that a near miss still changes the grouping.
      next = Math.floor(((over.groupingBudget * maxTotalTokens) / over.total) * 0.97);
    }
  }
  return (fitting ?? over) as Round;
}
