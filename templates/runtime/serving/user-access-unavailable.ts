// The per-user upstream modes are not part of this server: its API's description declares no security scheme that a
// signed-in user's token could stand for (OAuth 2.0, OpenID Connect or HTTP bearer), so the generator left out the
// authorization server, the token exchange and their libraries. Settings refuse `<PREFIX>_UPSTREAM_AUTH=oauth` or
// `token-exchange` at start with that reason (upstream-auth.ts); this module keeps the HTTP server's shape.

import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Settings } from '../config/settings.js';
import type { UpstreamAuthSettings } from '../config/upstream-auth.js';
import type { Caller, SubjectRateLimiters } from '../credentials/callers.js';
import type { McpAuth } from '../credentials/mcp-auth.js';
import type { Peer } from './client-address.js';

export type UserAccess = {
  handle(request: Request, peer?: Peer): Promise<Response | undefined>;
  auth: McpAuth;
  callerOf(authInfo: AuthInfo): Caller;
  limiters: SubjectRateLimiters;
};

export async function checkUserAccess(upstreamAuth: UpstreamAuthSettings): Promise<void> {
  throw unavailable(upstreamAuth);
}

export function createUserAccess(_settings: Settings, upstreamAuth: UpstreamAuthSettings): UserAccess {
  throw unavailable(upstreamAuth);
}

function unavailable(upstreamAuth: UpstreamAuthSettings): Error {
  return new Error(`this server was generated without the per-user modes, so ${upstreamAuth.mode} is not available.`);
}
