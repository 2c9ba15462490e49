import { isUsableName } from '../../kernel/names.js';
import type { PinnedNames, PreviousNames, Strategy } from '../drafts.js';
import { prefixedName } from './name-tools.js';

/** The tool-name prefix of the earlier generation (`from`) and of this one (`to`), as names carry them. */
export type Prefixes = { from: string | undefined; to: string | undefined };

/**
 * Which operations stay in which tool, and the action names they keep, from an earlier generation. A prefix that
 * changed since renames every pinned tool (`pets_read` → `zoo_pets_read`): it is the user's choice of names, which
 * pins must not undo.
 */
export function pinnedNames(
  previous: PreviousNames | undefined,
  renames: Record<string, string> = {},
  strategy: Strategy,
  prefixes: Prefixes = { from: undefined, to: undefined },
): PinnedNames {
  const locked = new Map<string, string>();
  const preferredActions = new Map<string, string>();
  if (!previous || strategy !== 'auto') return { locked, preferredActions };
  const names = reprefixed(Object.keys(previous), prefixes);
  for (const [tool, entry] of Object.entries(previous)) {
    const name = renames[tool] ?? names.get(tool);
    if (name === undefined) continue;
    // The lock file lives in the output folder, where anyone may edit it: a name becomes a file name and code.
    if (!isUsableName(name)) continue;
    for (const [action, operation] of Object.entries(entry.actions)) {
      locked.set(operation, name);
      if (action && isUsableName(action)) preferredActions.set(operation, action);
    }
  }
  return { locked, preferredActions };
}

/**
 * Each pinned name under the new prefix; undefined where two would become one (after shortening to a valid length),
 * which then get new names. A lock file without a prefix whose names all start with the new one already has it:
 * it was written before lock files recorded their prefix.
 */
function reprefixed(tools: string[], { from, to }: Prefixes): Map<string, string | undefined> {
  const carries = (name: string, prefix: string | undefined) => prefix !== undefined && name.startsWith(`${prefix}_`);
  const unchanged = from === to || (from === undefined && tools.every((tool) => carries(tool, to)));
  if (unchanged) return new Map(tools.map((tool) => [tool, tool]));
  const renamed = tools.map((tool) => prefixedName(carries(tool, from) ? tool.slice((from as string).length + 1) : tool, to));
  const counts = new Map<string, number>();
  for (const name of renamed) counts.set(name.toLowerCase(), (counts.get(name.toLowerCase()) ?? 0) + 1);
  return new Map(
    tools.map((tool, index) => {
      const name = renamed[index] as string;
      return [tool, counts.get(name.toLowerCase()) === 1 ? name : undefined];
    }),
  );
}
