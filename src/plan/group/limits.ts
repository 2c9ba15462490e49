export type GroupingLimits = {
  maxTools: number;
  /** Actions in a tool formed by natural merging; relaxed step by step only to meet the budgets. */
  maxActions: number;
  maxArguments: number;
};

/** Caps of the relaxed limits: a tool larger than this is harder to use than two tools. */
export const MAX_RELAXED_ACTIONS = 40;
export const MAX_RELAXED_ARGUMENTS = 90;
/**
 * Resources a tool spans side by side (below the resource its actions share): a natural merge stops at
 * NATURAL_BRANCHES, a merge to meet the budget at MAX_BRANCHES. Past that a tool is a bucket named after a scope
 * (`repos` with labels, deployments, topics, keys …), and a model looking for one of them does not look there.
 */
export const NATURAL_BRANCHES = 8;
export const MAX_BRANCHES = 16;
