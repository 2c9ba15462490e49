// Optional bearer-token protection of the MCP endpoint (HTTP only): this server acts as an OAuth 2.1 resource
// server. Tokens are checked against a static list (simple deployments) or by RFC 7662 introspection at the
// authorization server, for this server as audience; the RFC 9728 protected-resource metadata tells clients where
// to get a token. The verified token never reaches the API: upstream calls use the API credentials from the
// environment, or (per-user modes, upstream-auth.ts) the user's own token for the API.

import { createHash, timingSafeEqual } from 'node:crypto';
import {
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  oauthMetadataResponse,
  requireBearerAuth,
  type AuthInfo,
  type AuthMetadataOptions,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { api } from '../../api.js';
import { log } from '../core/log.js';
import { registerSecret } from '../core/redact.js';

export type McpAuthSettings = {
  /** Accepted tokens, compared in constant time. */
  tokens: string[];
  /** RFC 7662 token introspection endpoint of the authorization server. */
  introspectionUrl?: string;
  /** This server's credentials at the introspection endpoint (HTTP Basic). */
  clientId?: string;
  clientSecret?: string;
  /** Issuer of the authorization server, advertised in the protected-resource metadata. */
  issuer?: string;
  /**
   * Canonical URL of this MCP endpoint, the audience tokens must name: from configuration (`MCP_AUTH_RESOURCE`, or
   * `PUBLIC_URL` + /mcp), always set with introspection. Only static tokens, which name no audience, go without it;
   * their protected-resource metadata then names the host a request asked for.
   */
  resource?: string;
  /** Scopes every token must carry. */
  scopes: string[];
  /** Refuse tokens that name no user (`sub`): the per-user upstream modes act as that user. */
  requireSubject?: boolean;
};

export type McpAuth = {
  /** The verified token, or the 401/403 answer with its `WWW-Authenticate` challenge. */
  authenticate(request: Request): Promise<AuthInfo | Response>;
  /** The protected-resource metadata document when the request asks for it. */
  metadata(request: Request): Response | undefined;
  /** The `WWW-Authenticate` value that sends a client to sign in again: the API refused the user's own token. */
  challenge(request: Request, description: string): string;
};

/** Static tokens never expire; the SDK refuses a token without an expiry, so each check vouches for this long. */
const STATIC_TOKEN_LIFETIME_S = 3600;
/** Introspection answers are reused this long at most, so a revoked token stops working within this many seconds. */
const INTROSPECTION_CACHE_S = 30;
const INTROSPECTION_CACHE_SIZE = 1000;

/** `ownVerifier`: tokens this server issued itself (`oauth` upstream mode) instead of static tokens and introspection. */
export function createMcpAuth(settings: McpAuthSettings, ownVerifier?: OAuthTokenVerifier): McpAuth {
  for (const token of settings.tokens) registerSecret(token);
  registerSecret(settings.clientSecret);
  const introspect = settings.introspectionUrl ? introspector(settings.introspectionUrl, settings) : undefined;
  const metadataOptions = (resource: URL): AuthMetadataOptions | undefined =>
    settings.issuer
      ? {
          // Only `issuer` reaches the protected-resource document; oauthMetadataResponse would serve the rest on the
          // legacy /.well-known/oauth-authorization-server mirror, which this server never routes to it (clients
          // ask the authorization server itself for its metadata).
          oauthMetadata: {
            issuer: settings.issuer,
            authorization_endpoint: settings.issuer,
            token_endpoint: settings.issuer,
            response_types_supported: ['code'],
          },
          resourceServerUrl: resource,
          ...(settings.scopes.length > 0 ? { scopesSupported: settings.scopes } : {}),
          resourceName: api.title,
        }
      : undefined;
  const resourceOf = (request: Request) => new URL(settings.resource ?? new URL('/mcp', request.url).href);
  const gates = new Map<string, (request: Request) => Promise<AuthInfo | Response>>();
  return {
    authenticate(request) {
      const resource = resourceOf(request);
      let gate = gates.get(resource.href);
      if (!gate) {
        gate = requireBearerAuth({
          verifier: ownVerifier ?? verifier(settings, resource, introspect),
          requiredScopes: settings.scopes,
          expectedResource: resource,
          ...(settings.issuer ? { resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource) } : {}),
        });
        if (gates.size < 16) gates.set(resource.href, gate);
      }
      return gate(request);
    },
    challenge(request, description) {
      const metadata = settings.issuer
        ? `, resource_metadata="${getOAuthProtectedResourceMetadataUrl(resourceOf(request))}"`
        : '';
      // A quoted-string of RFC 6750 §3: printable ASCII without `"` and `\`.
      return `Bearer error="invalid_token", error_description="${description.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, ' ').slice(0, 300)}"${metadata}`;
    },
    metadata(request) {
      const resource = resourceOf(request);
      const options = metadataOptions(resource);
      if (!options) return undefined;
      if (new URL(request.url).pathname !== new URL(getOAuthProtectedResourceMetadataUrl(resource)).pathname)
        return undefined;
      return oauthMetadataResponse(request, options);
    },
  };
}

/** Static tokens first (no network), then introspection; unknown tokens are `invalid_token` (401). */
function verifier(settings: McpAuthSettings, resource: URL, introspect: Introspect | undefined): OAuthTokenVerifier {
  const digests = settings.tokens.map(digest);
  return {
    async verifyAccessToken(token) {
      const presented = digest(token);
      if (digests.some((known) => timingSafeEqual(known, presented))) {
        return {
          token,
          clientId: 'static-token',
          scopes: settings.scopes,
          expiresAt: Math.floor(Date.now() / 1000) + STATIC_TOKEN_LIFETIME_S,
          resource,
        };
      }
      if (introspect) return introspect(token, resource);
      throw new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown token');
    },
  };
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

type Introspect = (token: string, resource: URL) => Promise<AuthInfo>;

type IntrospectionAnswer = {
  active?: boolean;
  sub?: string;
  scope?: string;
  client_id?: string;
  exp?: number;
  aud?: string | string[];
  iss?: string;
};

/**
 * RFC 7662 introspection. A token counts only when it is active, not expired, issued by the configured issuer (when
 * the answer names one) and its audience names this server (RFC 8707; the MCP authorization spec requires the
 * audience check, so an answer without `aud` is refused too).
 */
function introspector(url: string, settings: McpAuthSettings): Introspect {
  const cache = new Map<string, { info: AuthInfo; until: number }>();
  return async (token, resource) => {
    const key = `${digest(token).toString('hex')} ${resource.href}`;
    const now = Date.now() / 1000;
    const cached = cache.get(key);
    if (cached && cached.until > now) return cached.info;
    const headers: Record<string, string> = {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json',
    };
    if (settings.clientId)
      headers['Authorization'] =
        `Basic ${Buffer.from(`${formEncoded(settings.clientId)}:${formEncoded(settings.clientSecret ?? '')}`).toString('base64')}`;
    let answer: IntrospectionAnswer;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      answer = (await response.json()) as IntrospectionAnswer;
    } catch (error) {
      log('warn', `token introspection failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new OAuthError(OAuthErrorCode.ServerError, 'Token introspection failed');
    }
    if (answer.active !== true) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token is not active');
    if (typeof answer.exp === 'number' && answer.exp <= now)
      throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token has expired');
    if (settings.issuer && answer.iss !== undefined && !sameIssuer(answer.iss, settings.issuer))
      throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token was issued by another authorization server');
    const audiences = typeof answer.aud === 'string' ? [answer.aud] : Array.isArray(answer.aud) ? answer.aud : [];
    const audience = audiences.find((value) => sameResource(value, resource));
    if (audience === undefined)
      throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token was not issued for this server');
    if (settings.requireSubject && (typeof answer.sub !== 'string' || answer.sub === ''))
      throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token names no user');
    const info: AuthInfo = {
      token,
      clientId: answer.client_id ?? 'unknown',
      scopes: (answer.scope ?? '').split(' ').filter(Boolean),
      expiresAt: typeof answer.exp === 'number' ? answer.exp : Math.floor(now) + INTROSPECTION_CACHE_S,
      resource,
      // Who the token speaks for: the key of per-user limits, logs and token exchange.
      ...(typeof answer.sub === 'string' && answer.sub !== '' ? { extra: { subject: answer.sub } } : {}),
    };
    if (cache.size >= INTROSPECTION_CACHE_SIZE) cache.clear();
    cache.set(key, { info, until: Math.min(info.expiresAt ?? now, now + INTROSPECTION_CACHE_S) });
    return info;
  };
}

/** Issuer identifiers compare as URLs, with their ports, without a trailing slash. */
function sameIssuer(value: unknown, issuer: string): boolean {
  return typeof value === 'string' && sameResource(value, new URL(issuer));
}

/** RFC 6749 §2.3.1: client credentials in a Basic header are form-encoded first (space as +, `!'()*` escaped). */
function formEncoded(text: string): string {
  return new URLSearchParams({ v: text }).toString().slice(2);
}

/**
 * RFC 8707 resource identifiers compare as whole URLs, scheme, host and port included (so a token for another
 * server on the same host is refused), without fragment and trailing slash.
 */
export function sameResource(value: string, resource: URL): boolean {
  const normalise = (text: string) => text.replace(/#.*$/, '').replace(/\/$/, '');
  try {
    return normalise(new URL(value).href) === normalise(resource.href);
  } catch {
    return false;
  }
}
