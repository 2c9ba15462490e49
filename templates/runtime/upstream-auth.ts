// Whose credentials reach the API: `<PREFIX>_UPSTREAM_AUTH`. `env` (the default) sends the credentials from the
// environment, as a single-user server does. Over HTTP a team deployment can instead call the API as each user:
// `oauth` signs users in at the API's own authorization server (this server is the OAuth authorization server its MCP
// clients see, and an OAuth client of the API's), `token-exchange` trades the client's token at the identity provider
// for one meant for the API (RFC 8693). In both, no client token ever reaches the API.

import { api } from '../api.js';
import type { McpAuthSettings } from './mcp-auth.js';
import { parseSealingKeys } from './sealed.js';

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
  client: UpstreamClient;
  authorizationUrl: string;
  tokenUrl: string;
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
  const publicUrl = new URL(url('PUBLIC_URL'));
  // The issuer of OAuth metadata: https, or http on localhost or 127.0.0.1 (RFC 8414 and the MCP SDK's check).
  if (publicUrl.protocol === 'http:' && publicUrl.hostname === '[::1]')
    throw new Error(`${name('PUBLIC_URL')} may use http only with localhost or 127.0.0.1, not [::1].`);
  if (publicUrl.pathname !== '/' || publicUrl.search || publicUrl.hash)
    throw new Error(
      `${name('PUBLIC_URL')} must be the server's origin only (https://mcp.example.com), not ${JSON.stringify(publicUrl.href)}.`,
    );
  const ttl = Number(read('OAUTH_TOKEN_TTL') ?? DEFAULT_TOKEN_TTL_S);
  if (!Number.isInteger(ttl) || ttl < 1)
    throw new Error(`${name('OAUTH_TOKEN_TTL')} must be a whole number of seconds, at least 1.`);
  const userinfoUrl = optionalUrl('UPSTREAM_USERINFO_URL');
  return {
    mode,
    publicUrl: publicUrl.origin,
    sealingKeys: parseSealingKeys(required('OAUTH_SEALING_KEYS'), name('OAUTH_SEALING_KEYS')),
    tokenTtl: ttl,
    client,
    authorizationUrl: url('UPSTREAM_AUTHORIZATION_URL', api.userAuth?.authorizationUrl),
    tokenUrl: url('UPSTREAM_TOKEN_URL', api.userAuth?.tokenUrl),
    scopes,
    ...(resource ? { resource } : {}),
    ...(userinfoUrl ? { userinfoUrl } : {}),
  };
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
