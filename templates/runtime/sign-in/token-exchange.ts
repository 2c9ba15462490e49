// `token-exchange` mode: for an API behind the same identity provider as the MCP clients. The client's token, checked
// by introspection for this server as audience, is exchanged at the provider (RFC 8693) for a token whose audience is
// the API, and only that one goes to the API: the client's own token goes to the provider's token endpoint and
// nowhere else. Exchanged tokens are reused until shortly before they (or the client's token) expire, under a key of
// the user and a digest of the client's token, so they are never shared across users or client tokens. The request and
// its answer go through `oauth4webapi`.

import type { AuthInfo } from '@modelcontextprotocol/server';
import * as oauth from 'oauth4webapi';
import { api } from '../../api.js';
import type { TokenExchangeSettings } from '../config/upstream-auth.js';
import { ConfigurationError, SignInError } from '../core/errors.js';
import type { Caller } from '../credentials/callers.js';
import { sha256 } from './sealed.js';
import {
  GrantRefused,
  requestTokens,
  TokenEndpointFailure,
  tokenEndpoint,
  type TokenEndpoint,
} from './upstream-token-endpoint.js';

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
/**
 * An exchanged token is not reused in its last tenth of life, 30 seconds at most: a call must not reach the API with a
 * token about to expire.
 */
const EXPIRY_MARGIN_S = 30;
/** Reuse without an expiry from the provider. */
const DEFAULT_REUSE_S = 300;
const MAX_CACHED = 1000;

type Exchanged = { token: string; until: number };

export class TokenExchanger {
  private readonly cache = new Map<string, Exchanged>();
  private readonly endpoint: TokenEndpoint;

  constructor(private readonly settings: TokenExchangeSettings) {
    // Only the token endpoint is used, and its answers carry no ID token: its origin stands for the issuer.
    this.endpoint = tokenEndpoint(
      { issuer: new URL(settings.tokenUrl).origin, token_endpoint: settings.tokenUrl },
      settings.client,
    );
  }

  /** The caller of a request whose token the gate verified (introspection named the user as `extra.subject`). */
  callerOf(authInfo: AuthInfo): Caller {
    const subject = String(authInfo.extra?.['subject'] ?? '');
    let key: string | undefined;
    return {
      subject,
      upstreamToken: async () => {
        key ??= `${subject}\n${await sha256(authInfo.token)}`;
        return this.exchange(key, authInfo);
      },
      refused: () => {
        if (key) this.cache.delete(key);
      },
      signInAgain: `${api.title} refused the token this server obtained for you. Sign in again in your MCP client (reconnect this server); if that does not help, your account may lack access to ${api.title}.`,
    };
  }

  private async exchange(key: string, authInfo: AuthInfo): Promise<string> {
    const now = Date.now() / 1000;
    const cached = this.cache.get(key);
    if (cached && cached.until > now) return cached.token;
    const { settings } = this;
    const { server, client, authentication, options } = this.endpoint;
    let exchanged;
    try {
      exchanged = await requestTokens(
        this.endpoint,
        () =>
          oauth.genericTokenEndpointRequest(
            server,
            client,
            authentication,
            GRANT_TYPE,
            {
              subject_token: authInfo.token,
              subject_token_type: ACCESS_TOKEN_TYPE,
              requested_token_type: ACCESS_TOKEN_TYPE,
              ...(settings.audience ? { audience: settings.audience } : {}),
              ...(settings.resource ? { resource: settings.resource } : {}),
              ...(settings.scopes.length > 0 ? { scope: settings.scopes.join(' ') } : {}),
            },
            { ...options, signal: options.signal() },
          ),
        // RFC 8693 §2.2.1: `N_A` when the issued token is not an OAuth access token type of its own.
        (response) =>
          oauth.processGenericTokenEndpointResponse(server, client, response, {
            recognizedTokenTypes: { n_a: () => undefined },
          }),
      );
    } catch (error) {
      if (error instanceof GrantRefused)
        throw new SignInError(
          `The identity provider would not exchange your sign-in for a token for ${api.title} (${error.code}). Sign in again in your MCP client; if that does not help, ask whoever runs this server to check ${api.envPrefix}_UPSTREAM_AUDIENCE, ${api.envPrefix}_UPSTREAM_RESOURCE and ${api.envPrefix}_UPSTREAM_SCOPES, and that its client may exchange tokens.`,
        );
      if (error instanceof TokenEndpointFailure)
        throw new ConfigurationError(
          `${error.message} Check ${api.envPrefix}_UPSTREAM_TOKEN_URL and _CLIENT_ID/_SECRET.`,
        );
      throw error;
    }
    // Passing the client's token on is exactly what this mode exists to avoid, even if the provider hands it back.
    if (exchanged.accessToken === authInfo.token)
      throw new ConfigurationError(
        'the identity provider answered the exchange with the client’s own token, which this server never sends to the API. Check the provider’s token exchange policy.',
      );
    // Not past the client's token either: once it expires, its key is never presented again.
    const expiresAt = exchanged.expiresAt ?? now + DEFAULT_REUSE_S;
    const until = Math.min(
      expiresAt - Math.min(EXPIRY_MARGIN_S, (expiresAt - now) / 10),
      authInfo.expiresAt ?? Number.POSITIVE_INFINITY,
    );
    if (until > now) {
      if (this.cache.size >= MAX_CACHED) {
        const oldest = this.cache.keys().next().value;
        if (oldest !== undefined) this.cache.delete(oldest);
      }
      this.cache.set(key, { token: exchanged.accessToken, until });
    }
    return exchanged.accessToken;
  }
}
