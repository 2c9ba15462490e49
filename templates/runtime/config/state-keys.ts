// `<PREFIX>_STATE_KEYS`: the keys that sign what this server hands a client to bring back later — a confirmation's
// `requestState` (calls/confirmation.ts) and a long-running operation's status handle (calls/operation-handles.ts) —
// so that any replica can check what another gave out. One variable for both: an operator sets one list of keys on
// every replica. Each use keeps its own key apart (a derived key, a labelled message), so sharing the list is safe.
// The older names, `CONFIRM_KEYS` and `HANDLE_KEYS`, still serve their own use; the `oauth` mode's sealing keys
// serve when none is set.

import { parseSealingKeys } from './sealing-keys.js';

/** Each use of the keys, and the older variable that set them for that use alone. */
const OLDER_NAMES = { confirmation: 'CONFIRM_KEYS', handles: 'HANDLE_KEYS' } as const;

export type StateKeyUse = keyof typeof OLDER_NAMES;

export type StateKeys = {
  /** Raw keys, newest first: the newest signs, every one still verifies (rotation). */
  keys: Uint8Array[];
  /**
   * `configured`: from the environment, so replicas that share it check each other's state; `process`: a random key
   * of this process alone, enough for stdio and for a single HTTP replica.
   */
  source: 'configured' | 'process';
  /** The variable the keys came from, as the operator writes it; undefined when drawn. */
  variable?: string;
};

type Read = (name: string) => string | undefined;

/** One key per process for every use, so that both uses behave alike on a single replica. */
let drawn: Uint8Array | undefined;

/** The keys of one use; `variable` names a variable as the operator writes it (`GITHUB_STATE_KEYS`). */
export function stateKeysFor(use: StateKeyUse, read: Read, variable: (name: string) => string): StateKeys {
  const older = OLDER_NAMES[use];
  if (read('STATE_KEYS') !== undefined && read(older) !== undefined)
    throw new Error(
      `${variable('STATE_KEYS')} and ${variable(older)} are both set: ${variable(older)} is the older name of the same keys, so keep only ${variable('STATE_KEYS')}.`,
    );
  const name = ['STATE_KEYS', older, 'OAUTH_SEALING_KEYS'].find((candidate) => read(candidate) !== undefined);
  if (name)
    return {
      keys: parseSealingKeys(read(name) as string, variable(name)),
      source: 'configured',
      variable: variable(name),
    };
  drawn ??= crypto.getRandomValues(new Uint8Array(32));
  return { keys: [drawn], source: 'process' };
}
