/** What a call from an agent does to the API: reads, writes (creates or changes) or deletes. */
export type Intent = 'read' | 'write' | 'delete';

/**
 * The model-facing surface of a plan, reduced to what a change can break: tools, their actions (and the operation
 * behind each), and the arguments each action takes with their type and whether it is required. Stored in the
 * lock file, compared on every regeneration.
 */
export type Surface = {
  tools: Record<string, { intent: Intent; actions: Record<string, SurfaceAction> }>;
};

export type SurfaceAction = { operation: string; arguments: Record<string, { type: string; required: boolean }> };
