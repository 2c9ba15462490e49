import type { OperationModel } from '../model/api-model.js';
import type { ToolModel } from './tool-plan.js';

/**
 * Work the planner may take from an earlier run (the regeneration cache, `src/cache/`): pure results under keys the
 * memo derives from their inputs' content. The planner asks with the work to do; the memo answers from what it holds
 * or does the work and keeps the result. Without a memo the planner does all the work, and the plan is the same.
 */
export type PlanMemo = {
  /**
   * A tool built from a draft: `key` is everything the build depends on besides the plan-wide context and the content
   * of its operations (one per action, in order), which the memo hashes itself.
   */
  build(key: string, draft: { name: string; operations: OperationModel[] }, make: () => ToolModel): ToolModel;
  /** The exact o200k count of a tool's entry in `tools/list`. */
  count(tool: ToolModel, make: () => number): number;
};
