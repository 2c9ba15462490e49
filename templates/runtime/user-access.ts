// The HTTP side of the per-user upstream modes: which endpoints the mode adds, which tokens the /mcp gate accepts,
// and who a verified token's caller is. Loaded only when `<PREFIX>_UPSTREAM_AUTH` is `oauth` or `token-exchange`.

import type { AuthInfo } from '@modelcontextprotocol/server';
import { SubjectRateLimiters, type Caller } from './callers.js';
import { createMcpAuth, type McpAuth } from './mcp-auth.js';
import { createOAuthServer } from './oauth-server.js';
import type { Settings } from './settings.js';
import { TokenExchanger } from './token-exchange.js';
import type { UpstreamAuthSettings } from './upstream-auth.js';

export type UserAccess = {
  /** Endpoints of the mode (`oauth`: authorization server metadata and /oauth/*); undefined for other paths. */
  handle(request: Request): Promise<Response | undefined>;
  /** The /mcp gate and the protected-resource metadata. */
  auth: McpAuth;
  callerOf(authInfo: AuthInfo): Caller;
  /** Calls per minute, per user. */
  limiters: SubjectRateLimiters;
};

export function createUserAccess(settings: Settings, upstreamAuth: UpstreamAuthSettings): UserAccess {
  const limiters = new SubjectRateLimiters(settings.rateLimitPerMinute);
  if (upstreamAuth.mode === 'oauth') {
    const server = createOAuthServer(upstreamAuth);
    return {
      handle: (request) => server.handle(request),
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
