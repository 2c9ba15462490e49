// What the per-user upstream modes (`<PREFIX>_UPSTREAM_AUTH=oauth|token-exchange`) offer. An operation that only the
// server's own credentials authorize (Discord's bot token) would act as the deployment, not as the signed-in user:
// the generator left it out of each tool's per-user view (`perUser`), whose description, action enum and schema say
// only what is offered, unless its configuration named the operation for shared credentials (`sharedCredentials`).

import { api } from '../../api.js';
import type { ActionRoute, ToolDefinition } from '../core/types.js';

/** The tool as the per-user modes serve it; undefined when they offer none of its actions. */
export function perUserTool(tool: ToolDefinition): ToolDefinition | undefined {
  const view = tool.perUser;
  if (!view) return tool;
  if (view.actions.length === 0) return undefined;
  const actions: Record<string, ActionRoute> = {};
  for (const name of view.actions)
    if (Object.hasOwn(tool.actions, name)) actions[name] = tool.actions[name] as ActionRoute;
  return {
    ...tool,
    title: view.title ?? tool.title,
    description: view.description ?? tool.description,
    inputSchema: view.inputSchema ?? tool.inputSchema,
    actions,
  };
}

/** Whether the per-user modes offer an action of a tool (the empty name for a single-action tool's one action). */
export function offeredPerUser(tool: ToolDefinition, action: string): boolean {
  return !tool.perUser || tool.perUser.actions.includes(action);
}

type Intent = 'read' | 'write' | 'delete';

function intentOf(tool: ToolDefinition): Intent {
  return tool.annotations.readOnlyHint ? 'read' : tool.annotations.destructiveHint ? 'delete' : 'write';
}

/**
 * What a per-user deployment says at start: how many actions it does not offer, of which kind, which credentials
 * they would have needed, and their names; then the actions that use the shared credentials. Empty when the modes
 * offer every action as it is.
 */
export function perUserReport(tools: readonly ToolDefinition[]): Array<{ level: 'warn' | 'info'; text: string }> {
  const leftOut: string[] = [];
  const shared: string[] = [];
  const schemes = new Set<string>();
  const kinds: Record<Intent, number> = { read: 0, write: 0, delete: 0 };
  let total = 0;
  for (const tool of tools) {
    for (const [name, route] of Object.entries(tool.actions)) {
      total++;
      const id = name ? `${tool.name}/${name}` : tool.name;
      if (!offeredPerUser(tool, name)) {
        leftOut.push(id);
        kinds[intentOf(tool)]++;
        for (const scheme of route.security.flat()) if (scheme !== api.userAuth?.scheme) schemes.add(scheme);
      } else if (route.sharedCredentials) shared.push(id);
    }
  }
  const lines: Array<{ level: 'warn' | 'info'; text: string }> = [];
  if (leftOut.length > 0) {
    const counts = [count(kinds.read, 'read'), count(kinds.write, 'write'), count(kinds.delete, 'deletion')].join(', ');
    lines.push({
      level: 'warn',
      text:
        `Per-user mode: ${leftOut.length} of ${total} actions are not offered (${counts}): only this server's own credentials (${[...schemes].sort().join(', ')}) authorize them, ` +
        `and it never acts as itself for a signed-in user. To offer some with the shared credentials, name them in sharedCredentials of the generator's configuration and regenerate. Not offered: ${leftOut.join(', ')}.`,
    });
  }
  if (shared.length > 0)
    lines.push({
      level: 'warn',
      text: `Per-user mode: actions that use this server's own credentials, shared by every signed-in user (sharedCredentials), ${shared.length}: ${shared.join(', ')}.`,
    });
  return lines;
}

function count(value: number, noun: string): string {
  return `${value} ${noun}${value === 1 ? '' : 's'}`;
}
