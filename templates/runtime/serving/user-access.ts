// The HTTP side of the per-user upstream modes: which endpoints the mode adds, which tokens the /mcp gate accepts,
// and who a verified token's caller is. Used only when `<PREFIX>_UPSTREAM_AUTH` is `oauth` or `token-exchange`.

import type { AuthInfo } from '@modelcontextprotocol/server';
import { api } from '../../api.js';
import type { Settings } from '../config/settings.js';
import type { OAuthModeSettings, UpstreamAuthSettings } from '../config/upstream-auth.js';
import { SubjectRateLimiters, type Caller } from '../credentials/callers.js';
import { createMcpAuth, type McpAuth } from '../credentials/mcp-auth.js';
import { createOAuthServer } from '../sign-in/oauth-server.js';
import type { SharedStore } from '../sign-in/store.js';
import { TokenExchanger } from '../sign-in/token-exchange.js';
import type { Peer } from './client-address.js';

const STORE_VARIABLE = `${api.envPrefix}_STORE_URL`;

/**
 * What must work before the server takes requests: the shared store answers (a deployment configured with one must
 * not start without it). Node only; a Worker refuses a store URL (worker.ts).
 */
export async function checkUserAccess(upstreamAuth: UpstreamAuthSettings): Promise<void> {
  if (upstreamAuth.mode !== 'oauth' || !upstreamAuth.storeUrl) return;
  const { openStore } = await import('../sign-in/store.js');
  await openStore(upstreamAuth.storeUrl, upstreamAuth.publicUrl, STORE_VARIABLE);
}

/** The store of an `oauth` deployment; its client is loaded and connected on first use (store.ts). */
function storeOf(settings: OAuthModeSettings): SharedStore | undefined {
  const url = settings.storeUrl;
  if (!url) return undefined;
  const store = async () => (await import('../sign-in/store.js')).openStore(url, settings.publicUrl, STORE_VARIABLE);
  return {
    setOnce: async (key, value, ttl) => (await store()).setOnce(key, value, ttl),
    get: async (key) => (await store()).get(key),
    set: async (key, value, ttl) => (await store()).set(key, value, ttl),
    count: async (key, ttl) => (await store()).count(key, ttl),
  };
}

export type UserAccess = {
  /** Endpoints of the mode (`oauth`: authorization server metadata and /oauth/*); undefined for other paths. */
  handle(request: Request, peer?: Peer): Promise<Response | undefined>;
  /** The /mcp gate and the protected-resource metadata. */
  auth: McpAuth;
  callerOf(authInfo: AuthInfo): Caller;
  /** Calls per minute, per user. */
  limiters: SubjectRateLimiters;
};

export function createUserAccess(settings: Settings, upstreamAuth: UpstreamAuthSettings): UserAccess {
  const limiters = new SubjectRateLimiters(settings.rateLimitPerMinute);
  if (upstreamAuth.mode === 'oauth') {
    const server = createOAuthServer(upstreamAuth, storeOf(upstreamAuth));
    return {
      handle: (request, peer) => server.handle(request, peer?.address),
      auth: createMcpAuth(
        { tokens: [], issuer: server.issuer, resource: server.resource.href, scopes: [] },
        server.verifier,
      ),
      callerOf: (authInfo) => server.callerOf(authInfo),
      limiters,
    };
  }
  const mcpAuth = settings.http?.auth;
  if (!mcpAuth) throw new Error('token-exchange needs the MCP_AUTH_* settings');
  const exchanger = new TokenExchanger(upstreamAuth);
  return {
    handle: async () => undefined,
    auth: createMcpAuth({ ...mcpAuth, requireSubject: true }),
    callerOf: (authInfo) => exchanger.callerOf(authInfo),
    limiters,
  };
}
