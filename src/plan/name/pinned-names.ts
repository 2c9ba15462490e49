import { isUsableName } from '../../kernel/names.js';
import type { PinnedNames, PreviousNames, Strategy } from '../drafts.js';

/** Which operations stay in which tool, and the action names they keep, from an earlier generation. */
export function pinnedNames(previous: PreviousNames | undefined, renames: Record<string, string> = {}, strategy: Strategy): PinnedNames {
  const locked = new Map<string, string>();
  const preferredActions = new Map<string, string>();
  if (!previous || strategy !== 'auto') return { locked, preferredActions };
  for (const [tool, entry] of Object.entries(previous)) {
    const name = renames[tool] ?? tool;
    // The lock file lives in the output folder, where anyone may edit it: a name becomes a file name and code.
    if (!isUsableName(name)) continue;
    for (const [action, operation] of Object.entries(entry.actions)) {
      locked.set(operation, name);
      if (action && isUsableName(action)) preferredActions.set(operation, action);
    }
  }
  return { locked, preferredActions };
}
