// What the deployment decides about confirming destructive actions (confirmation.ts asks): `<PREFIX>_CONFIRM` for
// every destructive tool, `<PREFIX>_CONFIRM_TOOLS` per tool, and the keys that sign the state a confirmation round
// trip leaves with the client, so that any replica can check it (`<PREFIX>_STATE_KEYS`, state-keys.ts). The generator's
// configuration (`confirm`, in src/api.ts) gives the defaults: per tool first, the environment's before the
// configuration's, then the policy for every tool, the environment's before the configuration's.

import type { ConfirmDefaults, ConfirmPolicy } from '../core/types.js';
import { stateKeysFor, type StateKeys } from './state-keys.js';

export const CONFIRM_POLICIES: readonly ConfirmPolicy[] = ['ask', 'require', 'off'];

export type ConfirmationSettings = {
  policy: ConfirmPolicy;
  /** Per-tool policies, by tool name; they win over `policy`. */
  tools: ReadonlyMap<string, ConfirmPolicy>;
  /** The keys that sign the question's state, and where they came from. */
  keys: StateKeys;
};

type Read = (name: string) => string | undefined;

/** Reads the confirmation settings; `variable` names a variable as the operator writes it (`GITHUB_CONFIRM`). */
export function confirmationSettings(
  read: Read,
  variable: (name: string) => string,
  defaults: ConfirmDefaults = {},
): ConfirmationSettings {
  const policy = policyOf(read('CONFIRM') ?? defaults.policy ?? 'ask', variable('CONFIRM'));
  const tools = new Map<string, ConfirmPolicy>(Object.entries(defaults.tools ?? {}));
  for (const entry of (read('CONFIRM_TOOLS') ?? '').split(',').map((item) => item.trim())) {
    if (entry === '') continue;
    const [name, value] = entry.split('=').map((part) => part.trim());
    if (!name || value === undefined)
      throw new Error(
        `${variable('CONFIRM_TOOLS')}: write each entry as tool=policy (repos_delete=require), not ${JSON.stringify(entry)}.`,
      );
    tools.set(name, policyOf(value, `${variable('CONFIRM_TOOLS')} (${name})`));
  }
  return { policy, tools, keys: stateKeysFor('confirmation', read, variable) };
}

/**
 * Refuses per-tool entries that name no tool that deletes: a misspelt name would leave the tool on the general
 * policy without a word, and a tool that deletes nothing is never asked about. `destructive`: the names of those
 * that delete, `served`: every tool's.
 */
export function checkConfirmationTools(
  settings: ConfirmationSettings,
  served: string[],
  destructive: string[],
  variable: string,
): void {
  const named = [...settings.tools.keys()];
  const unknown = named.filter((name) => !served.includes(name));
  const harmless = named.filter((name) => served.includes(name) && !destructive.includes(name));
  if (unknown.length === 0 && harmless.length === 0) return;
  const quoted = (names: string[]) => names.map((name) => JSON.stringify(name)).join(', ');
  const problems = [
    ...(unknown.length > 0 ? [`${quoted(unknown)}, which this server does not serve`] : []),
    ...(harmless.length > 0 ? [`${quoted(harmless)}, which deletes nothing and is never confirmed`] : []),
  ];
  throw new Error(
    `${variable} names ${problems.join(', and ')}. Tools that delete: ${destructive.join(', ') || 'none'}.`,
  );
}

function policyOf(value: string, variable: string): ConfirmPolicy {
  const policy = CONFIRM_POLICIES.find((candidate) => candidate === value.toLowerCase());
  if (!policy) throw new Error(`${variable} must be ask, require or off, not ${JSON.stringify(value)}.`);
  return policy;
}
