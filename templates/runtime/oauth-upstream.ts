// This server as an OAuth client of the API's own authorization server (`oauth` mode): the description's
// authorization code flow, with PKCE and this deployment's client credentials, and who signed in.

import { log } from './log.js';
import { sha256 } from './sealed.js';
import type { OAuthModeSettings } from './upstream-auth.js';
import { requestTokens, type UpstreamTokens } from './upstream-token-endpoint.js';

export class UpstreamOAuthClient {
  readonly callbackUrl: string;

  constructor(private readonly settings: OAuthModeSettings) {
    this.callbackUrl = `${settings.publicUrl}/oauth/callback`;
  }

  /** Where the user's browser goes to sign in at the API's authorization server. */
  async authorizationUrl(state: string, verifier: string): Promise<string> {
    const url = new URL(this.settings.authorizationUrl);
    const parameters: Record<string, string> = {
      response_type: 'code',
      client_id: this.settings.client.clientId,
      redirect_uri: this.callbackUrl,
      state,
      code_challenge: await sha256(verifier),
      code_challenge_method: 'S256',
      ...(this.settings.scopes.length > 0 ? { scope: this.settings.scopes.join(' ') } : {}),
      ...(this.settings.resource ? { resource: this.settings.resource } : {}),
    };
    for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
    return url.href;
  }

  /** The authorization code the API's server sent back, exchanged once; a second exchange is refused there. */
  exchangeCode(code: string, verifier: string): Promise<UpstreamTokens> {
    return requestTokens(this.settings.tokenUrl, this.settings.client, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.callbackUrl,
      code_verifier: verifier,
      ...(this.settings.resource ? { resource: this.settings.resource } : {}),
    });
  }

  refresh(refreshToken: string): Promise<UpstreamTokens> {
    return requestTokens(this.settings.tokenUrl, this.settings.client, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      ...(this.settings.resource ? { resource: this.settings.resource } : {}),
    });
  }

  /**
   * Who signed in: the OpenID `sub` of the ID token that came with the tokens (straight from the token endpoint, so
   * TLS vouches for it: OpenID Connect Core §3.1.3.7), else the userinfo endpoint's answer when one is configured,
   * else a name derived from the first access token, stable for this sign-in and telling nothing about the token.
   */
  async subjectOf(tokens: UpstreamTokens): Promise<string> {
    const fromIdToken = tokens.idToken ? this.idTokenSubject(tokens.idToken) : undefined;
    if (fromIdToken) return fromIdToken;
    if (this.settings.userinfoUrl) {
      const fromUserinfo = await this.userinfoSubject(this.settings.userinfoUrl, tokens.accessToken);
      if (fromUserinfo) return fromUserinfo;
    }
    return `sign-in-${(await sha256(tokens.accessToken)).slice(0, 16)}`;
  }

  private idTokenSubject(idToken: string): string | undefined {
    try {
      const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
        sub?: unknown;
        aud?: unknown;
      };
      const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
      if (!audiences.includes(this.settings.client.clientId)) return undefined;
      return typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : undefined;
    } catch {
      return undefined;
    }
  }

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
