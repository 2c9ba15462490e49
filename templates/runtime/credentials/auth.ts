// Upstream credentials, read only from the environment and applied per the operation's security requirements; in
// the per-user modes the signed-in user's own token stands for the description's user scheme, and the environment's
// credentials never stand in for it.
// The MCP client's own token (HTTP mode) is never forwarded upstream.

import { api } from '../../api.js';
import { ConfigurationError } from '../core/errors.js';
import { log } from '../core/log.js';
import { registerCallerSecret, registerSecret } from '../core/redact.js';
import type { ActionRoute, Credential } from '../core/types.js';
import type { Caller } from './callers.js';

const byScheme = new Map(api.credentials.map((credential) => [credential.scheme, credential]));

/** Registers every configured credential for redaction; called once at start. */
export function registerCredentialSecrets(env: NodeJS.ProcessEnv = process.env): void {
  for (const credential of api.credentials) {
    for (const name of credential.env) registerSecret(env[name]);
    // Basic sends base64(user:password), which contains neither value's own base64: register the pair as sent.
    if (credential.kind === 'httpBasic' && env[credential.env[1] ?? ''])
      registerSecret(`${env[credential.env[0] ?? ''] ?? ''}:${env[credential.env[1] ?? ''] ?? ''}`);
    if (credential.kind === 'oauth2ClientCredentials' && env[credential.env[1] ?? ''])
      registerSecret(
        `${encodeURIComponent(env[credential.env[0] ?? ''] ?? '')}:${encodeURIComponent(env[credential.env[1] ?? ''] ?? '')}`,
      );
  }
}

function isConfigured(credential: Credential, env: NodeJS.ProcessEnv): boolean {
  switch (credential.kind) {
    case 'httpBasic':
      return Boolean(env[credential.env[0] ?? ''] || env[credential.env[1] ?? '']);
    case 'oauth2ClientCredentials':
      return Boolean((env[credential.env[0] ?? ''] && env[credential.env[1] ?? '']) || env[credential.env[2] ?? '']);
    default:
      return Boolean(env[credential.env[0] ?? '']);
  }
}

/**
 * Applies the first security alternative whose credentials are all configured. Without one, the request goes
 * out unauthenticated and an authentication error from the API names the variables to set.
 *
 * With a `caller` (the per-user modes) the request acts as that user or as nobody, never as the deployment: see
 * applyForUser. Only an operation the generator's configuration named for shared credentials
 * (`route.sharedCredentials`) is sent with the environment's, as in `env` mode.
 */
export async function applyCredentials(
  route: ActionRoute,
  url: URL,
  headers: Headers,
  cookies: string[],
  env: NodeJS.ProcessEnv = process.env,
  caller?: Caller,
): Promise<void> {
  if (caller && !route.sharedCredentials) return applyForUser(route, url, headers, cookies, env, caller);
  const usable = (requirement: string[]) =>
    requirement.every((scheme) => {
      const credential = byScheme.get(scheme);
      return credential !== undefined && isConfigured(credential, env);
    });
  for (const scheme of route.security.find(usable) ?? []) {
    const credential = byScheme.get(scheme);
    if (credential) await applyOne(credential, url, headers, cookies, env);
  }
}

/**
 * The per-user modes, with the rule the generator planned by (src/plan/describe/per-user-access.ts): an alternative
 * that names the user scheme goes out with the user's token, and its app keys (API keys outside `Authorization`)
 * from the environment beside it; else an alternative that needs nothing goes out with nothing. Anything else would
 * act as the deployment: refused, nothing sent. (A project whose description names no user scheme has no per-user
 * modes: settings.ts refuses them at start.)
 */
async function applyForUser(
  route: ActionRoute,
  url: URL,
  headers: Headers,
  cookies: string[],
  env: NodeJS.ProcessEnv,
  caller: Caller,
): Promise<void> {
  const userScheme = api.userAuth?.scheme;
  const open = route.security.length === 0 || route.security.some((requirement) => requirement.length === 0);
  if (userScheme === undefined) throw new ConfigurationError(operatorOnly(route));
  const alternatives = route.security.filter(
    (requirement) =>
      requirement.includes(userScheme) &&
      requirement.every((scheme) => scheme === userScheme || isCompanion(byScheme.get(scheme))),
  );
  const configured = (scheme: string) => {
    const credential = byScheme.get(scheme);
    return credential !== undefined && isConfigured(credential, env);
  };
  const alternative =
    alternatives.find((requirement) => requirement.every((scheme) => scheme === userScheme || configured(scheme))) ??
    alternatives[0];
  if (!alternative) {
    if (open) return;
    throw new ConfigurationError(operatorOnly(route));
  }
  for (const scheme of alternative) {
    if (scheme === userScheme) await applyUserToken(caller, headers);
    else if (configured(scheme)) await applyOne(byScheme.get(scheme) as Credential, url, headers, cookies, env);
  }
}

/** An app key that travels beside the user's token: an API key anywhere but the `Authorization` header. */
function isCompanion(credential: Credential | undefined): boolean {
  return (
    credential?.kind === 'apiKey' && !(credential.in === 'header' && credential.name.toLowerCase() === 'authorization')
  );
}

function operatorOnly(route: ActionRoute): string {
  const schemes = [...new Set(route.security.flat())].join(', ');
  return `only this server's own credentials (${schemes}) authorize ${route.method.toUpperCase()} ${route.path}, and it does not use them for a signed-in user. Nothing was sent.`;
}

async function applyUserToken(caller: Caller, headers: Headers): Promise<void> {
  const token = await caller.upstreamToken();
  registerCallerSecret(token);
  headers.set('Authorization', `Bearer ${token}`);
}

async function applyOne(
  credential: Credential,
  url: URL,
  headers: Headers,
  cookies: string[],
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const secret = env[credential.env[0] ?? ''] ?? '';
  switch (credential.kind) {
    case 'apiKey':
      if (credential.in === 'header') headers.set(credential.name, withPrefix(secret, credential.prefix));
      // Appended as an encoded pair: `url.searchParams.set` would re-encode the whole query the form way (spaces as
      // `+`, reserved characters escaped), undoing the styles and allowReserved of the other parameters.
      else if (credential.in === 'query')
        url.search = [url.search.slice(1), `${encodeURIComponent(credential.name)}=${encodeURIComponent(secret)}`]
          .filter(Boolean)
          .join('&');
      else cookies.push(`${credential.name}=${encodeURIComponent(secret)}`);
      return;
    case 'httpBasic': {
      const user = env[credential.env[0] ?? ''] ?? '';
      const password = env[credential.env[1] ?? ''] ?? '';
      headers.set('Authorization', `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`);
      return;
    }
    case 'oauth2ClientCredentials':
      headers.set('Authorization', `Bearer ${await clientCredentialsToken(credential, env)}`);
      return;
    default:
      headers.set('Authorization', `Bearer ${secret}`);
  }
}

/** `Bot ` + `abc` → `Bot abc`; a value that already starts with the prefix (any case) is sent as it is. */
function withPrefix(secret: string, prefix: string | undefined): string {
  return prefix && !secret.toLowerCase().startsWith(prefix.toLowerCase()) ? `${prefix}${secret}` : secret;
}

/** Names of the environment variables that would authenticate a route, for error messages. */
export function credentialHint(route: ActionRoute): string {
  const names = [...new Set(route.security.flat().flatMap((scheme) => byScheme.get(scheme)?.env.slice(0, 2) ?? []))];
  return names.length > 0
    ? `Set ${names.join(' or ')} in the server's environment.`
    : 'The description declares no credentials for this operation.';
}

type CachedToken = { token: string; expiresAt: number };
const tokens = new Map<string, CachedToken>();

/** OAuth 2.0 client credentials grant (RFC 6749 §4.4), cached until shortly before it expires. */
async function clientCredentialsToken(
  credential: Extract<Credential, { kind: 'oauth2ClientCredentials' }>,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const preset = env[credential.env[2] ?? ''];
  if (preset) return preset;
  const cached = tokens.get(credential.scheme);
  if (cached && cached.expiresAt > Date.now() + 30_000) return cached.token;
  const clientId = env[credential.env[0] ?? ''] ?? '';
  const clientSecret = env[credential.env[1] ?? ''] ?? '';
  const body = new URLSearchParams({ grant_type: 'client_credentials' });
  const scopes = env[credential.env[4] ?? '']?.trim() || credential.scopes.join(' ');
  if (scopes) body.set('scope', scopes);
  const tokenUrl = env[credential.env[3] ?? '']?.trim() || credential.tokenUrl;
  // Every failure names the token URL and the variables that fix it: the model relays this to the user.
  const fail = (what: string) => {
    log('warn', `OAuth token request for ${credential.scheme} to ${tokenUrl}: ${what}`);
    return new ConfigurationError(
      `Getting an OAuth token for ${credential.scheme} from ${tokenUrl} failed: ${what}. Check ${credential.env[0]} and ${credential.env[1]}, ` +
        `set ${credential.env[3]} if the token URL is wrong, or set ${credential.env[2]} to a token obtained elsewhere.`,
    );
  };
  let response: Response;
  try {
    response = await fetch(tokenUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
        Authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
      },
      body,
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw fail(
      `the token endpoint could not be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`,
    );
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    const reason = /"error"\s*:\s*"([\w.-]{1,60})"/.exec(text)?.[1];
    throw fail(`the token endpoint answered HTTP ${response.status}${reason ? ` (${reason})` : ''}`);
  }
  let payload: { access_token?: unknown; expires_in?: unknown };
  try {
    payload = JSON.parse(text) as typeof payload;
  } catch {
    throw fail(`the token endpoint answered HTTP ${response.status} with something other than JSON`);
  }
  if (typeof payload.access_token !== 'string' || payload.access_token === '')
    throw fail('the answer holds no access_token');
  registerSecret(payload.access_token);
  tokens.set(credential.scheme, {
    token: payload.access_token,
    expiresAt: Date.now() + (typeof payload.expires_in === 'number' ? payload.expires_in : 3600) * 1000,
  });
  return payload.access_token;
}
