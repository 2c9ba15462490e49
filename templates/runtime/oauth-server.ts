// `oauth` mode: this server is the OAuth 2.1 authorization server its MCP clients see, and behind it an OAuth client
// of the API's own authorization server. A client registers (RFC 7591), sends its user here with PKCE (S256 only);
// the user approves the client on this server's consent page, then signs in at the API's provider; this server turns
// the API's answer into its own authorization code, access and refresh tokens. It keeps no state: each of those
// carries the user's API tokens sealed inside (sealed.ts), so any replica serves any user, and the API's tokens never
// reach the client. Discovery: RFC 8414 metadata at /.well-known/oauth-authorization-server, RFC 9728 metadata at
// /.well-known/oauth-protected-resource/mcp.
//
// Replayed authorization codes: the code this server issues carries the API's own authorization code, which is
// exchanged at the API only when the client redeems ours. The API's authorization server allows that exchange once
// (RFC 6749 §4.1.2), so a second redemption fails on every replica without state here; codes also live 60 seconds
// and are bound to the client, its redirect URI and its PKCE verifier.
//
// Security rules of the MCP authorization spec followed here: per-client consent before the API's sign-in, consent
// form protected against cross-site submission (a cookie bound to the sealed request, Origin checked) and framing;
// the `state` cookie set only after consent and checked at the callback; redirect URIs matched exactly; https except
// on this machine; tokens checked for this server as audience; the client's token never sent upstream.

import {
  OAuthError,
  OAuthErrorCode,
  oauthMetadataResponse,
  type AuthInfo,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { api } from '../api.js';
import { subjectLabel, type Caller } from './callers.js';
import { log } from './log.js';
import { sameResource } from './mcp-auth.js';
import { authenticateClient, openClient, registerClient, type AuthenticatedClient } from './oauth-clients.js';
import { API_HEADERS, oauthError, preflight, readCookie, readForm } from './oauth-http.js';
import { consentPage, errorPage } from './oauth-pages.js';
import { UpstreamOAuthClient } from './oauth-upstream.js';
import { equalText, randomToken, Sealer, sha256 } from './sealed.js';
import type { OAuthModeSettings } from './upstream-auth.js';
import { GrantRefused, TokenEndpointFailure, type UpstreamTokens } from './upstream-token-endpoint.js';

const CONSENT_LIFETIME_S = 600;
const FLOW_LIFETIME_S = 600;
const CODE_LIFETIME_S = 60;
const REFRESH_LIFETIME_S = 30 * 86_400;
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

/** What the consent page posts back: the client (as a digest of its id), redirect URI, PKCE challenge, state. */
type Consent = { cd: string; ru: string; cc: string; st?: string; csrf: string };
/** An approved sign-in on its way through the API's provider: the consent, plus the upstream state and verifier. */
type Flow = Omit<Consent, 'csrf'> & { s: string; v: string };
/** This server's authorization code: the API's own code (`uc`) with the verifier that redeems it. */
type Code = { cd: string; ru: string; cc: string; uc: string; v: string };
type Access = { aud: string; sub: string; cd: string; sc?: string; at: string };
type Refresh = { aud: string; sub: string; cd: string; sc?: string; rt: string };

export type OAuthServer = {
  /** Metadata and /oauth/* endpoints; undefined for every other path. */
  handle(request: Request): Promise<Response | undefined>;
  /** Checks the access tokens this server issued, for the /mcp gate. */
  verifier: OAuthTokenVerifier;
  issuer: string;
  /** This server's MCP endpoint: the audience of its tokens. */
  resource: URL;
  /** The signed-in user of a verified token. */
  callerOf(authInfo: AuthInfo): Caller;
};

export function createOAuthServer(settings: OAuthModeSettings): OAuthServer {
  const sealer = new Sealer(settings.sealingKeys);
  const upstream = new UpstreamOAuthClient(settings);
  const issuer = settings.publicUrl;
  const resource = new URL('/mcp', issuer);
  const secure = issuer.startsWith('https:');
  const signInHost = new URL(settings.authorizationUrl).host;
  const metadata = {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    authorization_response_iss_parameter_supported: true,
  };

  /** Cookies of this server's sign-in pages: `__Host-` on https (no Domain, Path=/, Secure), never readable by script. */
  const cookieName = (base: string) => `${secure ? '__Host-' : ''}${base}`;
  const setCookie = (name: string, value: string, maxAge: number) =>
    `${name}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

  /** Sends the browser back to the client: its redirect URI with the result, its state and this issuer (RFC 9207). */
  const backToClient = (
    redirectUri: string,
    result: Record<string, string>,
    state?: string,
    cookies: string[] = [],
  ) => {
    const target = new URL(redirectUri);
    for (const [name, value] of Object.entries({ ...result, ...(state !== undefined ? { state } : {}), iss: issuer }))
      target.searchParams.set(name, value);
    const headers = new Headers({ Location: target.href, 'Cache-Control': 'no-store' });
    for (const cookie of cookies) headers.append('Set-Cookie', cookie);
    return new Response(null, { status: 303, headers });
  };

  /** GET /oauth/authorize: checks the request, then asks the user whether this client may act as them. */
  async function authorize(url: URL): Promise<Response> {
    const parameters = url.searchParams;
    const clientId = parameters.get('client_id') ?? '';
    const registration = await openClient(sealer, clientId);
    if (!registration)
      return errorPage(
        400,
        'Unknown client',
        'The application that sent you here is not registered with this server (or registered under a retired key). Start again from your MCP client.',
      );
    const redirectUri = parameters.get('redirect_uri') ?? (registration.r.length === 1 ? registration.r[0] : undefined);
    // Until the redirect URI is known to be the client's, errors are shown here and never sent anywhere.
    if (redirectUri === undefined || !registration.r.includes(redirectUri))
      return errorPage(
        400,
        'Unknown redirect address',
        'The address this sign-in would return to is not one the application registered, so nothing was sent to it.',
      );
    const state = parameters.get('state') ?? undefined;
    const refuse = (error: string, description: string) =>
      backToClient(redirectUri, { error, error_description: description }, state);
    if (parameters.get('response_type') !== 'code')
      return refuse('unsupported_response_type', 'Only response_type=code is supported.');
    const challenge = parameters.get('code_challenge') ?? '';
    if (parameters.get('code_challenge_method') !== 'S256' || !PKCE_VALUE.test(challenge))
      return refuse('invalid_request', 'PKCE is required, with code_challenge_method=S256.');
    const target = parameters.get('resource');
    if (target !== null && !sameResource(target, resource))
      return refuse('invalid_target', `This server issues tokens for ${resource.href} only.`);
    if (state !== undefined && state.length > 2048) return refuse('invalid_request', 'state is too long.');
    const csrf = randomToken();
    const consent: Consent = { cd: await sha256(clientId), ru: redirectUri, cc: challenge, csrf, ...stateField(state) };
    return consentPage(
      {
        apiTitle: api.title,
        clientName: registration.n ?? 'An unnamed application',
        redirectUri,
        signInHost,
        scopes: settings.scopes,
        request: await sealer.seal('consent', consent, CONSENT_LIFETIME_S),
      },
      { 'Set-Cookie': setCookie(cookieName(`mcp-consent-${csrf.slice(0, 16)}`), csrf, CONSENT_LIFETIME_S) },
    );
  }

  /** POST /oauth/authorize: the user's decision; on approval the browser goes on to the API's sign-in. */
  async function decide(request: Request): Promise<Response> {
    // Browsers say where a form was posted from: only this server's own consent page may approve.
    const origin = request.headers.get('origin');
    if ((origin !== null && origin !== issuer) || request.headers.get('sec-fetch-site') === 'cross-site')
      return errorPage(403, 'Refused', 'This approval was sent from another site; nothing was approved.');
    const form = await readForm(request);
    if (!form) return errorPage(400, 'Refused', 'The approval form could not be read.');
    const opened = await sealer.open<Consent>('consent', form.get('request') ?? '');
    if (!opened.ok)
      return errorPage(
        400,
        'This page has expired',
        'Nothing was approved. Start the sign-in again from your MCP client.',
      );
    const { cd, ru, cc, st, csrf } = opened.payload;
    const consent = { cd, ru, cc, ...stateField(st) };
    const csrfCookie = cookieName(`mcp-consent-${csrf.slice(0, 16)}`);
    if (!equalText(readCookie(request, csrfCookie) ?? '', csrf))
      return errorPage(
        403,
        'Refused',
        'This approval did not come from the page this server showed in this browser; nothing was approved. Start the sign-in again from your MCP client.',
      );
    const cleared = setCookie(csrfCookie, '', 0);
    if (form.get('decision') !== 'allow')
      return backToClient(
        consent.ru,
        { error: 'access_denied', error_description: 'The user did not allow access.' },
        consent.st,
        [cleared],
      );
    const flow: Flow = { ...consent, s: randomToken(), v: randomToken() };
    const headers = new Headers({
      Location: await upstream.authorizationUrl(flow.s, flow.v),
      'Cache-Control': 'no-store',
    });
    headers.append('Set-Cookie', cleared);
    // The state cookie is set only now, after consent (MCP security best practices).
    headers.append(
      'Set-Cookie',
      setCookie(
        cookieName(`mcp-flow-${flow.s.slice(0, 16)}`),
        await sealer.seal('flow', flow, FLOW_LIFETIME_S),
        FLOW_LIFETIME_S,
      ),
    );
    return new Response(null, { status: 303, headers });
  }

  /** GET /oauth/callback: the API's provider sends the user back; the client gets this server's code. */
  async function callback(request: Request, url: URL): Promise<Response> {
    const state = url.searchParams.get('state') ?? '';
    const name = cookieName(`mcp-flow-${state.slice(0, 16)}`);
    const sealed = state.length >= 16 ? readCookie(request, name) : undefined;
    const opened = sealed ? await sealer.open<Flow>('flow', sealed) : undefined;
    if (!opened?.ok || !equalText(opened.payload.s, state))
      return errorPage(
        400,
        'This sign-in cannot be finished',
        'It was not started in this browser, was finished already, or took longer than 10 minutes. Start again from your MCP client.',
      );
    const flow = opened.payload;
    const cleared = setCookie(name, '', 0);
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error !== null || !code) {
      const denied = error === 'access_denied';
      log(
        'info',
        `sign-in at ${signInHost} ended without a code (${(error ?? 'none').replace(/[^\w.-]/g, '').slice(0, 40)})`,
      );
      return backToClient(
        flow.ru,
        {
          error: denied ? 'access_denied' : 'server_error',
          error_description: denied ? 'The sign-in at the API was declined.' : 'The sign-in at the API failed.',
        },
        flow.st,
        [cleared],
      );
    }
    const ours: Code = { cd: flow.cd, ru: flow.ru, cc: flow.cc, uc: code, v: flow.v };
    return backToClient(flow.ru, { code: await sealer.seal('code', ours, CODE_LIFETIME_S) }, flow.st, [cleared]);
  }

  async function token(request: Request): Promise<Response> {
    const form = await readForm(request);
    if (!form)
      return oauthError(400, 'invalid_request', 'Send the token request as application/x-www-form-urlencoded.');
    const client = await authenticateClient(request, form, sealer);
    if (client instanceof Response) return client;
    const target = form.get('resource');
    if (target !== null && !sameResource(target, resource))
      return oauthError(400, 'invalid_target', `This server issues tokens for ${resource.href} only.`);
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') return redeemCode(form, client);
    if (grant === 'refresh_token') return refresh(form, client);
    return oauthError(400, 'unsupported_grant_type', 'Use authorization_code or refresh_token.');
  }

  async function redeemCode(form: URLSearchParams, client: AuthenticatedClient): Promise<Response> {
    const opened = await sealer.open<Code>('code', form.get('code') ?? '');
    if (!opened.ok)
      return oauthError(
        400,
        'invalid_grant',
        opened.reason === 'expired'
          ? 'The authorization code has expired: sign in again.'
          : 'The authorization code is not valid.',
      );
    const code = opened.payload;
    if (code.cd !== client.digest) return oauthError(400, 'invalid_grant', 'The code was issued to another client.');
    const redirectUri = form.get('redirect_uri');
    if (redirectUri !== null && redirectUri !== code.ru)
      return oauthError(400, 'invalid_grant', 'redirect_uri differs from the authorization request.');
    const verifier = form.get('code_verifier') ?? '';
    if (!PKCE_VALUE.test(verifier) || !equalText(await sha256(verifier), code.cc))
      return oauthError(400, 'invalid_grant', 'The PKCE code_verifier does not match the code_challenge.');
    let tokens: UpstreamTokens;
    try {
      tokens = await upstream.exchangeCode(code.uc, code.v);
    } catch (error) {
      return upstreamFailure(error, 'The authorization code was used already or has expired: sign in again.');
    }
    const subject = await upstream.subjectOf(tokens);
    log('info', `signed in: user ${subjectLabel(subject)}`);
    return issue(subject, client.digest, tokens, undefined);
  }

  async function refresh(form: URLSearchParams, client: AuthenticatedClient): Promise<Response> {
    const opened = await sealer.open<Refresh>('refresh', form.get('refresh_token') ?? '');
    if (!opened.ok || opened.payload.cd !== client.digest || opened.payload.aud !== resource.href)
      return oauthError(400, 'invalid_grant', 'The refresh token is not valid here or has expired: sign in again.');
    const grant = opened.payload;
    let tokens: UpstreamTokens;
    try {
      tokens = await upstream.refresh(grant.rt);
    } catch (error) {
      return upstreamFailure(error, `${api.title} no longer accepts this sign-in: sign in again.`);
    }
    log('info', `refreshed: user ${subjectLabel(grant.sub)}`);
    return issue(grant.sub, grant.cd, tokens, grant.rt);
  }

  /**
   * Access and refresh tokens sealing the user's API tokens. The access token expires before the API's token does,
   * so the client refreshes through this server, which refreshes at the API: no call goes out with a stale token.
   */
  async function issue(
    subject: string,
    clientDigest: string,
    tokens: UpstreamTokens,
    previousRefresh: string | undefined,
  ): Promise<Response> {
    const now = Date.now() / 1000;
    const upstreamLeft = tokens.expiresAt !== undefined ? tokens.expiresAt - now : Number.POSITIVE_INFINITY;
    const margin = Math.min(30, Math.floor(upstreamLeft / 10));
    const lifetime = Math.max(1, Math.floor(Math.min(settings.tokenTtl, upstreamLeft - margin)));
    const scope = tokens.scope ?? (settings.scopes.length > 0 ? settings.scopes.join(' ') : undefined);
    const common = { aud: resource.href, sub: subject, cd: clientDigest, ...(scope ? { sc: scope } : {}) };
    const access: Access = { ...common, at: tokens.accessToken };
    const upstreamRefresh = tokens.refreshToken ?? previousRefresh;
    const refreshToken = upstreamRefresh
      ? await sealer.seal('refresh', { ...common, rt: upstreamRefresh } satisfies Refresh, REFRESH_LIFETIME_S)
      : undefined;
    return Response.json(
      {
        access_token: await sealer.seal('access', access, lifetime),
        token_type: 'Bearer',
        expires_in: lifetime,
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
        ...(scope ? { scope } : {}),
      },
      { headers: API_HEADERS },
    );
  }

  const verifier: OAuthTokenVerifier = {
    async verifyAccessToken(token) {
      const opened = await sealer.open<Access>('access', token);
      if (!opened.ok)
        throw new OAuthError(
          OAuthErrorCode.InvalidToken,
          opened.reason === 'expired' ? 'Token has expired' : 'Token was not issued by this server',
        );
      const access = opened.payload;
      return {
        token,
        clientId: access.cd,
        scopes: access.sc?.split(' ') ?? [],
        expiresAt: access.exp,
        // Checked against this server's own URL by the gate: a token of another deployment is refused.
        resource: new URL(access.aud),
        extra: { subject: access.sub, upstreamToken: access.at },
      };
    },
  };

  return {
    issuer,
    resource,
    verifier,
    callerOf(authInfo) {
      const { subject, upstreamToken } = authInfo.extra as { subject: string; upstreamToken: string };
      return {
        subject,
        upstreamToken: async () => upstreamToken,
        // The token lives in the client's access token; a refresh through this server replaces it.
        refused: () => undefined,
        signInAgain: `${api.title} refused your sign-in: it has expired or was revoked there. Sign in again: reconnect this server in your MCP client (or clear its saved authorization), which opens the sign-in page.`,
      };
    },
    async handle(request) {
      const url = new URL(request.url);
      const metadataAnswer = oauthMetadataResponse(request, {
        oauthMetadata: metadata,
        resourceServerUrl: resource,
        resourceName: api.title,
        ...(settings.scopes.length > 0 ? { scopesSupported: settings.scopes } : {}),
      });
      if (metadataAnswer) return metadataAnswer;
      if (!url.pathname.startsWith('/oauth/')) return undefined;
      const route = `${request.method} ${url.pathname}`;
      try {
        if (route === 'POST /oauth/register') return await registerClient(request, sealer);
        if (route === 'GET /oauth/authorize') return await authorize(url);
        if (route === 'POST /oauth/authorize') return await decide(request);
        if (route === 'GET /oauth/callback') return await callback(request, url);
        if (route === 'POST /oauth/token') return await token(request);
        if (route === 'OPTIONS /oauth/register' || route === 'OPTIONS /oauth/token') return preflight(request);
      } catch (error) {
        log('error', `${route}: ${error instanceof Error ? error.message : String(error)}`);
        return oauthError(500, 'server_error', 'The authorization server failed; try again.');
      }
      return Response.json({ error: 'Not found' }, { status: 404 });
    },
  };
}

/** The API's provider refused (the user must sign in again) or failed (the deployment's problem, already logged). */
function upstreamFailure(error: unknown, refusal: string): Response {
  if (error instanceof GrantRefused) return oauthError(400, 'invalid_grant', refusal);
  if (!(error instanceof TokenEndpointFailure)) throw error;
  return oauthError(502, 'temporarily_unavailable', `${api.title}'s sign-in could not be completed; try again later.`);
}

function stateField(state: string | undefined): { st?: string } {
  return state !== undefined ? { st: state } : {};
}
