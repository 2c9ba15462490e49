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
 * Caps for the actions left over on one resource (`repos` once its large sub-resources have tools of their own):
 * one larger tool named after what its actions share reads better than two tools of unrelated resources.
 */
export const MAX_NAMED_ACTIONS = 80;
export const MAX_NAMED_ARGUMENTS = 160;
