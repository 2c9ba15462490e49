// What the deployment decides about confirming destructive actions (confirmation.ts asks): `<PREFIX>_CONFIRM` for
// every destructive tool, `<PREFIX>_CONFIRM_TOOLS` per tool, and `<PREFIX>_CONFIRM_KEYS`, the keys that sign the
// state a confirmation round trip leaves with the client, so that any replica can check it. The generator's
// configuration (`confirm`, in src/api.ts) gives the defaults: per tool first, the environment's before the
// configuration's, then the policy for every tool, the environment's before the configuration's.

import { parseSealingKeys } from './sealing-keys.js';

/**
 * `ask`: ask a client that can (form elicitation), proceed with one that cannot; `require`: ask, and refuse clients
 * that cannot; `off`: never ask.
 */
export type ConfirmPolicy = 'ask' | 'require' | 'off';

export const CONFIRM_POLICIES: readonly ConfirmPolicy[] = ['ask', 'require', 'off'];

export type ConfirmationSettings = {
  policy: ConfirmPolicy;
  /** Per-tool policies, by tool name; they win over `policy`. */
  tools: ReadonlyMap<string, ConfirmPolicy>;
  /** Raw keys, newest first: the newest signs, every one still verifies (rotation). */
  keys: Uint8Array[];
  /**
   * Where the keys come from: `configured` (`CONFIRM_KEYS`, or the `oauth` mode's sealing keys), or `process`, a
   * random key of this process alone, enough for stdio and for a single HTTP replica.
   */
  keySource: 'configured' | 'process';
};

type Read = (name: string) => string | undefined;

/** The generator configuration's policies (`confirm` in src/api.ts). */
export type ConfirmDefaults = { policy?: ConfirmPolicy; tools?: Record<string, ConfirmPolicy> };

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
  // The `oauth` mode's sealing keys, when set, serve here too: confirmation.ts derives a separate key from each.
  const configured = read('CONFIRM_KEYS') ?? read('OAUTH_SEALING_KEYS');
  const keys = configured
    ? parseSealingKeys(configured, variable(read('CONFIRM_KEYS') ? 'CONFIRM_KEYS' : 'OAUTH_SEALING_KEYS'))
    : [crypto.getRandomValues(new Uint8Array(32))];
  return { policy, tools, keys, keySource: configured ? 'configured' : 'process' };
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
