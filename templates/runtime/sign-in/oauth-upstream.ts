// This server as an OAuth client of the API's own authorization server (`oauth` mode), through `oauth4webapi`: the
// description's authorization code flow with PKCE, a nonce when it asks for an ID token, this deployment's client
// credentials; the provider's answers checked (RFC 9207 `iss` on the way back, ID tokens in full: OpenID Connect Core
// §3.1.3.7), and who signed in.

import * as oauth from 'oauth4webapi';
import type { OAuthModeSettings } from '../config/upstream-auth.js';
import { log } from '../core/log.js';
import {
  isLocalHttp,
  requestTokens,
  TokenEndpointFailure,
  tokenEndpoint,
  type TokenEndpoint,
  type UpstreamTokens,
} from './upstream-token-endpoint.js';

/**
 * The issuer oauth4webapi compares with when none is configured: no provider names it, so an ID token or an `iss`
 * answer can never pass for checked (settings require an issuer whenever ID tokens are asked for).
 */
const UNCONFIGURED_ISSUER = 'urn:openapi-to-mcp:issuer-not-configured';

/** What a sign-in in progress must remember for the provider's answer: sealed into the flow cookie. */
export type SignInSecrets = { state: string; verifier: string; nonce?: string };

export class UpstreamOAuthClient {
  readonly callbackUrl: string;
  private endpoint: Promise<TokenEndpoint> | undefined;

  constructor(private readonly settings: OAuthModeSettings) {
    this.callbackUrl = `${settings.publicUrl}/oauth/callback`;
  }

  /** Whether the provider is asked for an OpenID ID token (and so must send one back). */
  get asksForIdToken(): boolean {
    return this.settings.scopes.includes('openid');
  }

  /**
   * The provider: its metadata from `<PREFIX>_UPSTREAM_ISSUER` (OpenID discovery, else RFC 8414), the endpoints the
   * configuration names winning; only the configured endpoints without an issuer. Discovered once per process.
   */
  metadata(): Promise<TokenEndpoint> {
    this.endpoint ??= this.discover().catch((error: unknown) => {
      this.endpoint = undefined;
      throw error;
    });
    return this.endpoint;
  }

  private async discover(): Promise<TokenEndpoint> {
    const { issuer, authorizationUrl, tokenUrl, userinfoUrl, client } = this.settings;
    const configured = {
      ...(authorizationUrl ? { authorization_endpoint: authorizationUrl } : {}),
      ...(tokenUrl ? { token_endpoint: tokenUrl } : {}),
      ...(userinfoUrl ? { userinfo_endpoint: userinfoUrl } : {}),
    };
    if (!issuer) return tokenEndpoint({ issuer: UNCONFIGURED_ISSUER, ...configured }, client);
    const discovered = await discoverIssuer(new URL(issuer));
    const server = { ...discovered, ...configured };
    if (!server.authorization_endpoint || !server.token_endpoint)
      throw new TokenEndpointFailure(`The metadata of ${issuer} names no authorization or token endpoint.`);
    return tokenEndpoint(server, client);
  }

  /** Where the user's browser goes to sign in at the API's authorization server. */
  async authorizationUrl(secrets: SignInSecrets): Promise<string> {
    const { server } = await this.metadata();
    const url = new URL(server.authorization_endpoint ?? '');
    const parameters: Record<string, string> = {
      response_type: 'code',
      client_id: this.settings.client.clientId,
      redirect_uri: this.callbackUrl,
      state: secrets.state,
      code_challenge: await oauth.calculatePKCECodeChallenge(secrets.verifier),
      code_challenge_method: 'S256',
      ...(secrets.nonce ? { nonce: secrets.nonce } : {}),
      ...(this.settings.scopes.length > 0 ? { scope: this.settings.scopes.join(' ') } : {}),
      ...(this.settings.resource ? { resource: this.settings.resource } : {}),
    };
    for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
    return url.href;
  }

  /** The host the user signs in at, for the consent page. */
  async signInHost(): Promise<string> {
    const { server } = await this.metadata();
    return new URL(server.authorization_endpoint ?? '').host;
  }

  /**
   * Checks the provider's answer at the callback (state, and `iss` against the configured issuer: RFC 9207), and
   * returns what a code redemption needs later: the code and the issuer it came with. Throws on an error answer.
   */
  async checkCallback(parameters: URLSearchParams, state: string): Promise<{ code: string; iss?: string }> {
    const { server, client } = await this.metadata();
    const answer = new URLSearchParams(parameters);
    // Without a configured issuer, `iss` cannot be checked against anything (README: set UPSTREAM_ISSUER).
    if (!this.settings.issuer) answer.delete('iss');
    const checked = oauth.validateAuthResponse(server, client, answer, state);
    const iss = checked.get('iss') ?? undefined;
    return { code: checked.get('code') ?? '', ...(iss ? { iss } : {}) };
  }

  /**
   * The authorization code the API's server sent back, exchanged once (a second exchange is refused there), with
   * the ID token validated: issuer, audience, expiry, the nonce of this sign-in, and the signature when the provider
   * publishes keys.
   */
  async exchangeCode(
    callback: { code: string; iss?: string },
    secrets: Pick<SignInSecrets, 'verifier' | 'nonce'>,
  ): Promise<UpstreamTokens> {
    const endpoint = await this.metadata();
    const { server, client, authentication, options } = endpoint;
    const parameters = oauth.validateAuthResponse(
      server,
      client,
      new URLSearchParams({ code: callback.code, ...(callback.iss ? { iss: callback.iss } : {}) }),
      oauth.expectNoState,
    );
    return requestTokens(
      endpoint,
      () =>
        oauth.authorizationCodeGrantRequest(
          server,
          client,
          authentication,
          parameters,
          this.callbackUrl,
          secrets.verifier,
          { ...options, signal: options.signal(), additionalParameters: this.resourceParameter() },
        ),
      (response) =>
        oauth.processAuthorizationCodeResponse(server, client, response, {
          expectedNonce: secrets.nonce ?? oauth.expectNoNonce,
          requireIdToken: this.asksForIdToken,
        }),
      (response, answer) => this.checkSignature(endpoint, response, answer),
    );
  }

  async refresh(refreshToken: string): Promise<UpstreamTokens> {
    const endpoint = await this.metadata();
    const { server, client, authentication, options } = endpoint;
    return requestTokens(
      endpoint,
      () =>
        oauth.refreshTokenGrantRequest(server, client, authentication, refreshToken, {
          ...options,
          signal: options.signal(),
          additionalParameters: this.resourceParameter(),
        }),
      (response) => oauth.processRefreshTokenResponse(server, client, response),
      (response, answer) => this.checkSignature(endpoint, response, answer),
    );
  }

  /**
   * Revokes a token at the API's provider (RFC 7009) when its metadata names a revocation endpoint: a revoked
   * sign-in then stops working at the API too. False when the provider offers none or the request failed (logged).
   */
  async revoke(token: string): Promise<boolean> {
    try {
      const { server, client, authentication, options } = await this.metadata();
      if (!server.revocation_endpoint) return false;
      const response = await oauth.revocationRequest(server, client, authentication, token, {
        ...options,
        signal: options.signal(),
      });
      await oauth.processRevocationResponse(response);
      return true;
    } catch (error) {
      log('warn', `revocation at the API's provider failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }

  /**
   * Who signed in: the validated ID token's `sub`, else the userinfo endpoint's answer when one is configured, else a
   * name derived from the first access token, stable for this sign-in and telling nothing about the token.
   */
  async subjectOf(tokens: UpstreamTokens): Promise<string> {
    if (tokens.subject) return tokens.subject;
    if (this.settings.userinfoUrl) {
      const fromUserinfo = await this.userinfoSubject(this.settings.userinfoUrl, tokens.accessToken);
      if (fromUserinfo) return fromUserinfo;
    }
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(tokens.accessToken)));
    return `sign-in-${Buffer.from(digest).toString('base64url').slice(0, 16)}`;
  }

  /** The ID token's signature, when it came with one and the provider publishes its keys (`jwks_uri`). */
  private async checkSignature(endpoint: TokenEndpoint, response: Response, answer: oauth.TokenEndpointResponse) {
    if (answer.id_token === undefined || !endpoint.server.jwks_uri) return;
    await oauth.validateApplicationLevelSignature(endpoint.server, response, {
      [oauth.allowInsecureRequests]: isLocalHttp(endpoint.server.jwks_uri),
    });
  }

  private resourceParameter(): Record<string, string> {
    return this.settings.resource ? { resource: this.settings.resource } : {};
  }

  /** Userinfo answers are not a format of OAuth: the first of the fields providers name users by. */
  private async userinfoSubject(url: string, accessToken: string): Promise<string | undefined> {
    try {
      const response = await fetch(url, {
        headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const user = (await response.json()) as Record<string, unknown>;
      for (const field of ['sub', 'id', 'login', 'email']) {
        const value = user[field];
        if ((typeof value === 'string' && value !== '') || typeof value === 'number') return String(value);
      }
      throw new Error('no sub, id, login or email in the answer');
    } catch (error) {
      log('warn', `userinfo ${url}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }
}

/** OpenID discovery first (`/.well-known/openid-configuration`), then RFC 8414's; the issuer must match either way. */
async function discoverIssuer(issuer: URL): Promise<oauth.AuthorizationServer> {
  const options = { signal: AbortSignal.timeout(15_000), [oauth.allowInsecureRequests]: isLocalHttp(issuer.href) };
  let lastError: unknown;
  for (const algorithm of ['oidc', 'oauth2'] as const) {
    try {
      const response = await oauth.discoveryRequest(issuer, { ...options, algorithm });
      return await oauth.processDiscoveryResponse(issuer, response);
    } catch (error) {
      lastError = error;
    }
  }
  const cause = lastError instanceof Error ? lastError.message : String(lastError);
  log('warn', `discovery of ${issuer.href} failed: ${cause}`);
  throw new TokenEndpointFailure(`The metadata of ${issuer.href} could not be read (${cause}).`);
}
