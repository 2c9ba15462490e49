// Requests to an upstream token endpoint (the API's authorization server in `oauth` mode, the identity provider in
// `token-exchange` mode), made and checked by `oauth4webapi`: this server's client authentication, a timeout, the
// answer validated (ID tokens included: issuer, audience, expiry, nonce, and the signature where the provider
// publishes its keys) and reduced to what callers need. Nothing of a token, a code or a secret ever reaches a log
// line or an error message.

import * as oauth from 'oauth4webapi';
import type { UpstreamClient } from '../config/upstream-auth.js';
import { log } from '../core/log.js';
import { registerSecret } from '../core/redact.js';

export type UpstreamTokens = {
  accessToken: string;
  refreshToken?: string;
  /** Seconds since the epoch; unset when the answer gave no `expires_in`. */
  expiresAt?: number;
  scope?: string;
  /** The `sub` of the validated ID token, when the answer carried one. */
  subject?: string;
};

/** The token endpoint refused the grant (`invalid_grant` and the like): a user's sign-in no longer works. */
export class GrantRefused extends Error {
  constructor(readonly code: string) {
    super(`the token endpoint refused the grant (${code})`);
    this.name = 'GrantRefused';
  }
}

/** The token endpoint could not be reached or answered nonsense: the deployment's problem, not the user's. */
export class TokenEndpointFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenEndpointFailure';
  }
}

/** Errors that mean the grant itself is bad (RFC 6749 §5.2, RFC 8693 §2.2.2), as opposed to this server's set-up. */
const REFUSALS = new Set(['invalid_grant', 'invalid_request', 'invalid_scope', 'invalid_target', 'access_denied']);
const TIMEOUT_MS = 15_000;

/** An authorization server as oauth4webapi sees it, with this server as its client. */
export type TokenEndpoint = {
  server: oauth.AuthorizationServer;
  client: oauth.Client;
  authentication: oauth.ClientAuth;
  /** Options of every request: the timeout, and http allowed for a server on this machine (settings checked that). */
  options: { signal: () => AbortSignal; [oauth.allowInsecureRequests]: boolean };
};

export function tokenEndpoint(server: oauth.AuthorizationServer, upstream: UpstreamClient): TokenEndpoint {
  registerSecret(upstream.clientSecret);
  const secret = upstream.clientSecret;
  return {
    server,
    client: { client_id: upstream.clientId },
    authentication:
      secret === undefined
        ? oauth.None()
        : upstream.method === 'basic'
          ? oauth.ClientSecretBasic(secret)
          : oauth.ClientSecretPost(secret),
    options: {
      signal: () => AbortSignal.timeout(TIMEOUT_MS),
      [oauth.allowInsecureRequests]: isLocalHttp(server.token_endpoint ?? server.issuer),
    },
  };
}

/** http is allowed only on this machine (checkedUrl); oauth4webapi refuses it unless told. */
export function isLocalHttp(url: string | undefined): boolean {
  if (!url?.startsWith('http:')) return false;
  return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);
}

/**
 * Sends one token request and processes its answer, turning every failure into `GrantRefused` (the user's grant is
 * bad) or `TokenEndpointFailure` (the deployment's problem, logged once here).
 */
export async function requestTokens(
  endpoint: TokenEndpoint,
  send: () => Promise<Response>,
  process: (response: Response) => Promise<oauth.TokenEndpointResponse>,
  after?: (response: Response, answer: oauth.TokenEndpointResponse) => Promise<void>,
): Promise<UpstreamTokens> {
  const url = endpoint.server.token_endpoint ?? '(no token endpoint)';
  let response: Response;
  try {
    response = await send();
  } catch (error) {
    throw failure(url, `could not be reached (${causeOf(error)})`);
  }
  let answer: oauth.TokenEndpointResponse;
  try {
    answer = await process(response);
    await after?.(response, answer);
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError) {
      const code = error.error.slice(0, 60).replace(/[^\w.-]/g, '');
      if (REFUSALS.has(code)) throw new GrantRefused(code);
      throw failure(url, `answered HTTP ${error.status}${code ? ` (${code})` : ''}`);
    }
    if (error instanceof GrantRefused || error instanceof TokenEndpointFailure) throw error;
    throw failure(url, `answered with something this server does not accept: ${causeOf(error)}`);
  }
  const tokenType = String(answer.token_type);
  // A DPoP- or otherwise bound token would fail at the API as a bearer token; N_A is RFC 8693's "not a token type".
  if (tokenType !== 'bearer' && tokenType !== 'n_a')
    throw failure(url, `issued a ${tokenType.slice(0, 20)} token, which this server cannot send as a bearer token`);
  const claims = oauth.getValidatedIdTokenClaims(answer);
  const expiresIn = answer.expires_in;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const refreshToken = text(answer.refresh_token);
  const scope = text(answer.scope);
  const subject = text(claims?.sub);
  return {
    accessToken: answer.access_token,
    ...(refreshToken ? { refreshToken } : {}),
    ...(typeof expiresIn === 'number' && expiresIn > 0 ? { expiresAt: Math.floor(Date.now() / 1000 + expiresIn) } : {}),
    ...(scope ? { scope } : {}),
    ...(subject ? { subject } : {}),
  };
}

/** What went wrong, without anything the answer carried (a token may be in it). */
function causeOf(error: unknown): string {
  const nested = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  if (typeof nested === 'string') return nested;
  if (error instanceof Error) return `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`.slice(0, 200);
  return String(error).slice(0, 200);
}

function failure(tokenUrl: string, what: string): TokenEndpointFailure {
  log('warn', `token endpoint ${tokenUrl} ${what}`);
  return new TokenEndpointFailure(`The token endpoint ${tokenUrl} ${what}.`);
}
