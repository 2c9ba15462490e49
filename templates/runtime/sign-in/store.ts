// The state every replica of an `oauth` deployment shares when `<PREFIX>_STORE_URL` names a Redis or Valkey server:
// which refresh tokens were used (replay detection), which sign-ins were revoked, how many clients registered this
// minute. Everything else stays sealed in the tokens themselves. Keys carry a prefix of the deployment's issuer, so
// deployments may share a server, and every key expires by itself.

import { createClient } from '@redis/client';
import { log } from '../core/log.js';
import { sha256 } from './sealed.js';

/** How long one command may take before the request that needed it fails (fail closed). */
const COMMAND_TIMEOUT_MS = 5_000;

export type SharedStore = {
  /** Sets `key` unless it is set: null when this call set it, else the value it already had. */
  setOnce(key: string, value: string, ttlSeconds: number): Promise<string | null>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Adds one to a counter that lives `ttlSeconds` from its first count; the new count. */
  count(key: string, ttlSeconds: number): Promise<number>;
};

/** The store could not answer: the request that needed it fails instead of going on without it. */
export class StoreUnavailable extends Error {
  constructor(what: string) {
    super(`the shared store is unavailable: ${what}.`);
    this.name = 'StoreUnavailable';
  }
}

const opened = new Map<string, ReturnType<typeof connect>>();

/**
 * The store at `url`, for the keys of `issuer`: the first call connects, later ones share the connection; after a
 * failed connection the next call tries again. Rejects (StoreUnavailable, naming the variable) when the server
 * cannot be reached, so that the request which needed it fails instead of going on without it.
 */
export async function openStore(url: string, issuer: string, variable: string): Promise<SharedStore> {
  let connecting = opened.get(url);
  if (!connecting) {
    connecting = connect(url, variable);
    opened.set(url, connecting);
    connecting.catch(() => opened.delete(url));
  }
  const client = await connecting;
  const prefix = `openapi-to-mcp:${(await sha256(issuer)).slice(0, 16)}:`;
  return {
    setOnce: (key, value, ttl) =>
      run('SET NX', async () => {
        const previous = await client.set(prefix + key, value, {
          condition: 'NX',
          GET: true,
          expiration: { type: 'EX', value: wholeSeconds(ttl) },
        });
        return previous === null ? null : String(previous);
      }),
    get: (key) => run('GET', async () => (await client.get(prefix + key)) ?? null),
    set: (key, value, ttl) =>
      run('SET', async () => {
        await client.set(prefix + key, value, { expiration: { type: 'EX', value: wholeSeconds(ttl) } });
      }),
    count: (key, ttl) =>
      run('INCR', async () => {
        const [count] = await client
          .multi()
          .incr(prefix + key)
          .expire(prefix + key, wholeSeconds(ttl), 'NX')
          .exec();
        return Number(count);
      }),
  };
}

async function connect(url: string, variable: string) {
  const client = createClient({
    url,
    // Commands sent while the connection is down fail at once instead of waiting in a queue: a sign-in or a token
    // check must not hang, nor go on without the store.
    disableOfflineQueue: true,
    socket: { connectTimeout: COMMAND_TIMEOUT_MS, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 5_000) },
  });
  let lastError = '';
  client.on('error', (error: Error) => {
    // One line per kind of failure while it lasts, not one per reconnection attempt.
    if (error.message === lastError) return;
    lastError = error.message;
    log('error', `${variable}: ${error.message.replace(/\/\/[^@/]*@/, '//…@')}`);
  });
  client.on('ready', () => (lastError = ''));
  try {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      client.connect(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${COMMAND_TIMEOUT_MS} ms`)), COMMAND_TIMEOUT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    await client.ping();
  } catch (error) {
    client.destroy();
    throw new StoreUnavailable(
      `${variable}: the store could not be reached (${error instanceof Error ? error.message : String(error)}). Check that the Redis or Valkey server runs and that the URL (redis://host:6379 or rediss://…) is right`,
    );
  }
  return client;
}

/** One command, failing as StoreUnavailable when it fails or takes too long. */
async function run<T>(what: string, command: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailable(`${what} took over ${COMMAND_TIMEOUT_MS} ms`)),
      COMMAND_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([command(), timeout]);
  } catch (error) {
    if (error instanceof StoreUnavailable) throw error;
    throw new StoreUnavailable(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

function wholeSeconds(ttl: number): number {
  return Math.max(1, Math.ceil(ttl));
}
