import { setOwn } from '../kernel/json.js';
import type { ToolPlan } from '../plan/tool-plan.js';

/** `ask`: ask a client that can, send for one that cannot; `require`: refuse one that cannot; `off`: never ask. */
export type ConfirmPolicy = 'ask' | 'require' | 'off';

export const CONFIRM_POLICIES: readonly ConfirmPolicy[] = ['ask', 'require', 'off'];

/**
 * The configuration's `confirm`: whether the generated server asks the user before a tool that deletes sends its
 * request, for every such tool and per tool. The deployment's `<PREFIX>_CONFIRM` and `<PREFIX>_CONFIRM_TOOLS` win.
 */
export type ConfirmOptions = { policy?: ConfirmPolicy; tools?: Record<string, ConfirmPolicy> };

/** What `src/api.ts` carries (`confirm` of the runtime's ApiDefinition): only what differs from asking everywhere. */
export type ConfirmDefaults = { policy?: ConfirmPolicy; tools?: Record<string, ConfirmPolicy> };

/**
 * The defaults the project is generated with, and the per-tool names that match no tool of the plan that deletes
 * (left out: a policy for a tool that deletes nothing would change nothing, and a misspelt one would mislead).
 */
export function confirmDefaults(
  plan: ToolPlan,
  options: ConfirmOptions | undefined,
): { defaults: ConfirmDefaults | undefined; unmatched: string[] } {
  const destructive = new Set(plan.tools.filter((tool) => tool.annotations.destructiveHint === true).map((tool) => tool.name));
  const tools: Record<string, ConfirmPolicy> = {};
  const unmatched: string[] = [];
  for (const [name, policy] of Object.entries(options?.tools ?? {})) {
    if (destructive.has(name)) setOwn(tools, name, policy);
    else unmatched.push(name);
  }
  const policy = options?.policy !== undefined && options.policy !== 'ask' ? options.policy : undefined;
  const named = Object.keys(tools).length > 0;
  if (policy === undefined && !named) return { defaults: undefined, unmatched };
  return { defaults: { ...(policy ? { policy } : {}), ...(named ? { tools } : {}) }, unmatched };
}
