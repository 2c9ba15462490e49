// Requests to an upstream token endpoint (the API's authorization server in `oauth` mode, the identity provider in
// `token-exchange` mode): this server's client authentication, a timeout, and answers reduced to what callers need.
// Nothing of a token, a code or a secret ever reaches a log line or an error message.

import { log } from './log.js';
import { registerSecret } from './redact.js';
import type { UpstreamClient } from './upstream-auth.js';

export type UpstreamTokens = {
  accessToken: string;
  refreshToken?: string;
  /** Seconds since the epoch; unset when the answer gave no `expires_in`. */
  expiresAt?: number;
  scope?: string;
  idToken?: string;
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

export async function requestTokens(
  tokenUrl: string,
  client: UpstreamClient,
  parameters: Record<string, string>,
): Promise<UpstreamTokens> {
  registerSecret(client.clientSecret);
  const body = new URLSearchParams(parameters);
  const headers: Record<string, string> = {
    'Content-Type': 'application/x-www-form-urlencoded',
    Accept: 'application/json',
  };
  if (client.method === 'basic' && client.clientSecret !== undefined)
    headers['Authorization'] =
      `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`;
  else {
    body.set('client_id', client.clientId);
    if (client.clientSecret !== undefined) body.set('client_secret', client.clientSecret);
  }
  let response: Response;
  try {
    response = await fetch(tokenUrl, { method: 'POST', headers, body, signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw failure(tokenUrl, `could not be reached (${cause})`);
  }
  const text = await response.text().catch(() => '');
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw failure(tokenUrl, `answered HTTP ${response.status} with something other than JSON`);
  }
  if (!response.ok) {
    const code = typeof answer['error'] === 'string' ? answer['error'].slice(0, 60).replace(/[^\w.-]/g, '') : '';
    if (REFUSALS.has(code)) throw new GrantRefused(code);
    throw failure(tokenUrl, `answered HTTP ${response.status}${code ? ` (${code})` : ''}`);
  }
  const accessToken = answer['access_token'];
  if (typeof accessToken !== 'string' || accessToken === '')
    throw failure(tokenUrl, 'answered without an access_token');
  const tokenType = answer['token_type'];
  // A DPoP- or otherwise bound token would fail at the API as a bearer token; N_A is RFC 8693's "not a token type".
  if (typeof tokenType === 'string' && !/^(bearer|n_a)$/i.test(tokenType))
    throw failure(
      tokenUrl,
      `issued a ${tokenType.slice(0, 20)} token, which this server cannot send as a bearer token`,
    );
  const expiresIn = Number(answer['expires_in']);
  const pick = (name: string) =>
    typeof answer[name] === 'string' && answer[name] !== '' ? (answer[name] as string) : undefined;
  const refreshToken = pick('refresh_token');
  const scope = pick('scope');
  const idToken = pick('id_token');
  return {
    accessToken,
    ...(refreshToken ? { refreshToken } : {}),
    ...(Number.isFinite(expiresIn) && expiresIn > 0 ? { expiresAt: Math.floor(Date.now() / 1000 + expiresIn) } : {}),
    ...(scope ? { scope } : {}),
    ...(idToken ? { idToken } : {}),
  };
}

function failure(tokenUrl: string, what: string): TokenEndpointFailure {
  log('warn', `token endpoint ${tokenUrl} ${what}`);
  return new TokenEndpointFailure(`The token endpoint ${tokenUrl} ${what}.`);
}
