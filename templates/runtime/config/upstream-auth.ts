// Whose credentials reach the API: `<PREFIX>_UPSTREAM_AUTH`. `env` (the default) sends the credentials from the
// environment, as a single-user server does. Over HTTP a team deployment can instead call the API as each user:
// `oauth` signs users in at the API's own authorization server (this server is the OAuth authorization server its MCP
// clients see, and an OAuth client of the API's), `token-exchange` trades the client's token at the identity provider
// for one meant for the API (RFC 8693). In both, no client token ever reaches the API.

import { api } from '../../api.js';
import type { McpAuthSettings } from '../credentials/mcp-auth.js';
import { parseSealingKeys } from './sealing-keys.js';

/** How this server authenticates at the API's token endpoint or the identity provider's. */
export type UpstreamClient = {
  clientId: string;
  /** Unset: a public client (PKCE only). */
  clientSecret?: string;
  /** `basic`: HTTP Basic (client_secret_basic, the default); `post`: in the form body (client_secret_post). */
  method: 'basic' | 'post';
};

export type OAuthModeSettings = {
  mode: 'oauth';
  /** Public origin of this server: the issuer, the audience `<origin>/mcp`, the callback `<origin>/oauth/callback`. */
  publicUrl: string;
  /** Keys that seal what this server issues, newest first. */
  sealingKeys: Uint8Array[];
  /** Longest life of an access token this server issues (seconds); shorter when the API's own token expires sooner. */
  tokenTtl: number;
  /** Client registrations accepted per minute (per deployment with a store, else per replica). */
  registrationsPerMinute: number;
  /** Of those, from one source address (client-address.ts says which address a request came from). */
  registrationsPerSource: number;
  /** Redis or Valkey that every replica shares: refresh-token replay detection and revocation. */
  storeUrl?: string;
  client: UpstreamClient;
  /**
   * Issuer of the API's authorization server: its metadata (RFC 8414 / OpenID discovery) gives the endpoints and the
   * keys ID tokens are checked against; an ID token must name it.
   */
  issuer?: string;
  /** Unset only with an issuer, whose metadata names them. */
  authorizationUrl?: string;
  tokenUrl?: string;
  scopes: string[];
  /** RFC 8707 resource indicator sent with the upstream authorization and token requests. */
  resource?: string;
  /** Where to ask who signed in when the token response carries no OpenID `id_token`. */
  userinfoUrl?: string;
};

export type TokenExchangeSettings = {
  mode: 'token-exchange';
  /** The identity provider's token endpoint. */
  tokenUrl: string;
  client: UpstreamClient;
  /** RFC 8693 `audience` and RFC 8707 `resource` of the token asked for: the API. */
  audience?: string;
  resource?: string;
  scopes: string[];
};

export type UpstreamAuthSettings = OAuthModeSettings | TokenExchangeSettings;

const DEFAULT_TOKEN_TTL_S = 3600;
const DEFAULT_REGISTRATIONS_PER_MINUTE = 30;
/** One source's share: a single address cannot use up the deployment's registrations for everyone. */
const DEFAULT_REGISTRATIONS_PER_SOURCE = 10;

/**
 * `<PREFIX>_UPSTREAM_*` and, for `oauth`, `<PREFIX>_PUBLIC_URL` and `<PREFIX>_OAUTH_*`. Undefined in `env` mode.
 * Everything a mode needs is checked here, at start, so that a deployment never half works.
 */
export function upstreamAuthSettings(
  read: (name: string) => string | undefined,
  http: boolean,
  mcpAuth: McpAuthSettings | undefined,
): UpstreamAuthSettings | undefined {
  const name = (suffix: string) => `${api.envPrefix}_${suffix}`;
  const mode = read('UPSTREAM_AUTH') ?? 'env';
  if (mode === 'env') return undefined;
  if (mode !== 'oauth' && mode !== 'token-exchange')
    throw new Error(`${name('UPSTREAM_AUTH')} must be env, oauth or token-exchange, not ${JSON.stringify(mode)}.`);
  // Without a scheme that the user's token stands for there is nothing to send it as; the project has no such modes.
  if (!api.userAuth)
    throw new Error(
      `${name('UPSTREAM_AUTH')}=${mode} needs a security scheme that a signed-in user's token stands for (OAuth 2.0, OpenID Connect or HTTP bearer), and ${api.title}'s description declares none, so this server was generated without the per-user modes. Regenerate it with --credential bearer=VARIABLE to declare one.`,
    );
  if (!http)
    throw new Error(
      `${name('UPSTREAM_AUTH')}=${mode} calls the API as each signed-in user, which needs HTTP: start with --http. Over stdio there is one user; leave it unset (env).`,
    );
  const required = (suffix: string, fallback?: string) => {
    const value = read(suffix) ?? fallback;
    if (!value) throw new Error(`${name('UPSTREAM_AUTH')}=${mode} needs ${name(suffix)}.`);
    return value;
  };
  const url = (suffix: string, fallback?: string) => checkedUrl(name(suffix), required(suffix, fallback));
  const optionalUrl = (suffix: string) => {
    const value = read(suffix);
    return value === undefined ? undefined : checkedUrl(name(suffix), value);
  };
  const resource = read('UPSTREAM_RESOURCE');
  if (resource !== undefined && !/^[A-Za-z][A-Za-z0-9+.-]*:[^#\s]+$/.test(resource))
    throw new Error(
      `${name('UPSTREAM_RESOURCE')} must be an absolute URI without a fragment, not ${JSON.stringify(resource)}.`,
    );
  const clientSecret = read('UPSTREAM_CLIENT_SECRET');
  const method = read('UPSTREAM_CLIENT_AUTH') ?? 'basic';
  if (method !== 'basic' && method !== 'post')
    throw new Error(`${name('UPSTREAM_CLIENT_AUTH')} must be basic or post, not ${JSON.stringify(method)}.`);
  const client: UpstreamClient = {
    clientId: required('UPSTREAM_CLIENT_ID'),
    ...(clientSecret ? { clientSecret } : {}),
    method,
  };
  const scopes = (read('UPSTREAM_SCOPES') ?? api.userAuth?.scopes.join(' ') ?? '').split(/[\s,]+/).filter(Boolean);

  if (mode === 'token-exchange') {
    // Set but unused would leave an operator believing replicas share what they do not (the mode keeps nothing).
    if (read('STORE_URL') !== undefined)
      throw new Error(
        `${name('STORE_URL')} is used only by ${name('UPSTREAM_AUTH')}=oauth, whose sign-ins every replica must share; token-exchange keeps no state between calls: unset it.`,
      );
    if (!mcpAuth?.introspectionUrl || mcpAuth.tokens.length > 0)
      throw new Error(
        `${name('UPSTREAM_AUTH')}=token-exchange needs to know who calls: set ${name('MCP_AUTH_INTROSPECTION_URL')} (and its client credentials), and no ${name('MCP_AUTH_TOKENS')}, whose tokens name no user.`,
      );
    const audience = read('UPSTREAM_AUDIENCE');
    if (!audience && !resource)
      throw new Error(
        `${name('UPSTREAM_AUTH')}=token-exchange needs the API's identifier at the identity provider: set ${name('UPSTREAM_AUDIENCE')} or ${name('UPSTREAM_RESOURCE')}.`,
      );
    return {
      mode,
      tokenUrl: url('UPSTREAM_TOKEN_URL', api.userAuth?.tokenUrl),
      client,
      ...(audience ? { audience } : {}),
      ...(resource ? { resource } : {}),
      scopes,
    };
  }

  if (mcpAuth)
    throw new Error(
      `${name('UPSTREAM_AUTH')}=oauth issues this server's own tokens: unset ${name('MCP_AUTH_TOKENS')} and ${name('MCP_AUTH_INTROSPECTION_URL')}.`,
    );
  const publicUrl = publicOrigin(read);
  if (!publicUrl)
    throw new Error(
      `${name('UPSTREAM_AUTH')}=oauth needs ${name('PUBLIC_URL')}: the public origin clients reach this server at (https://mcp.example.com), the issuer and audience of its tokens.`,
    );
  const whole = (suffix: string, fallback: number, least: number) => {
    const value = Number(read(suffix) ?? fallback);
    if (!Number.isInteger(value) || value < least)
      throw new Error(`${name(suffix)} must be a whole number, at least ${least}.`);
    return value;
  };
  const userinfoUrl = optionalUrl('UPSTREAM_USERINFO_URL');
  const issuer = optionalUrl('UPSTREAM_ISSUER');
  const storeUrl = read('STORE_URL');
  if (storeUrl !== undefined && !/^(redis|rediss|valkey|valkeys):\/\//.test(storeUrl))
    throw new Error(`${name('STORE_URL')} must be a redis:// or rediss:// URL of a Redis or Valkey server.`);
  // An ID token is believed only once checked against its issuer (OpenID Connect Core §3.1.3.7).
  if (scopes.includes('openid') && !issuer)
    throw new Error(
      `${name('UPSTREAM_SCOPES')} asks for openid, so the provider sends ID tokens, which are checked against their issuer: set ${name('UPSTREAM_ISSUER')} to the provider's issuer URL.`,
    );
  // With an issuer, its metadata names the endpoints; the description's defaults would point elsewhere.
  const endpoint = (suffix: string, fallback: string | undefined) =>
    issuer ? optionalUrl(suffix) : url(suffix, fallback);
  const authorizationUrl = endpoint('UPSTREAM_AUTHORIZATION_URL', api.userAuth.authorizationUrl);
  const tokenUrl = endpoint('UPSTREAM_TOKEN_URL', api.userAuth.tokenUrl);
  return {
    mode,
    publicUrl,
    sealingKeys: parseSealingKeys(required('OAUTH_SEALING_KEYS'), name('OAUTH_SEALING_KEYS')),
    tokenTtl: whole('OAUTH_TOKEN_TTL', DEFAULT_TOKEN_TTL_S, 1),
    registrationsPerMinute: whole('OAUTH_REGISTRATIONS_PER_MINUTE', DEFAULT_REGISTRATIONS_PER_MINUTE, 1),
    registrationsPerSource: whole('OAUTH_REGISTRATIONS_PER_SOURCE', DEFAULT_REGISTRATIONS_PER_SOURCE, 1),
    ...(storeUrl ? { storeUrl } : {}),
    client,
    ...(issuer ? { issuer } : {}),
    ...(authorizationUrl ? { authorizationUrl } : {}),
    ...(tokenUrl ? { tokenUrl } : {}),
    scopes,
    ...(resource ? { resource } : {}),
    ...(userinfoUrl ? { userinfoUrl } : {}),
  };
}

/**
 * `<PREFIX>_PUBLIC_URL`: the origin clients reach this server at, from configuration and never from a request's Host
 * header. It names the audience of the tokens this server accepts, so a token for another server (another port of
 * the same host included) is refused. Undefined when unset.
 */
export function publicOrigin(read: (name: string) => string | undefined): string | undefined {
  const variable = `${api.envPrefix}_PUBLIC_URL`;
  const value = read('PUBLIC_URL');
  if (value === undefined) return undefined;
  const publicUrl = new URL(checkedUrl(variable, value));
  // The issuer of OAuth metadata: https, or http on localhost or 127.0.0.1 (RFC 8414 and the MCP SDK's check).
  if (publicUrl.protocol === 'http:' && publicUrl.hostname === '[::1]')
    throw new Error(`${variable} may use http only with localhost or 127.0.0.1, not [::1].`);
  if (publicUrl.pathname !== '/' || publicUrl.search || publicUrl.hash)
    throw new Error(
      `${variable} must be the server's origin only (https://mcp.example.com), not ${JSON.stringify(publicUrl.href)}.`,
    );
  return publicUrl.origin;
}

/** An absolute URL, https unless on this machine (tokens and codes travel to it). */
export function checkedUrl(variable: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${variable} must be an absolute URL, not ${JSON.stringify(value)}.`);
  }
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local))
    throw new Error(`${variable} must use https (http only for localhost), not ${JSON.stringify(value)}.`);
  return value;
}
