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
// Refresh tokens rotate (RFC 9700 §4.14.2): each refresh returns a new one of the same sign-in (its family). With
// `<PREFIX>_STORE_URL` (store.ts) every replica sees which were used: a used one presented again revokes the family,
// and /oauth/revoke (RFC 7009) revokes a family at once; a client refreshing several calls at once within a few
// seconds gets the same answer for each, not a revocation. Without a store a used refresh token still works until it
// expires, and revocation reaches only as far as the API's own provider revokes its tokens.
//
// Security rules of the MCP authorization spec and RFC 9700 followed here: errors of a request not yet approved by the
// user are shown on a page, never sent to a redirect URI (anyone may register one: §4.11.2); per-client consent
// before the API's sign-in, showing where the browser goes as it will go there; consent form protected against
// cross-site submission (a cookie bound to the sealed request, Origin checked) and framing; the `state` cookie set only
// after consent and checked at the callback; redirect URIs matched exactly; https except on this machine; tokens
// checked for this server as audience; the client's token never sent upstream.

import {
  OAuthError,
  OAuthErrorCode,
  oauthMetadataResponse,
  type AuthInfo,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { api } from '../../api.js';
import type { OAuthModeSettings } from '../config/upstream-auth.js';
import { log } from '../core/log.js';
import { RateLimiter } from '../core/rate-limit.js';
import { SubjectRateLimiters, subjectLabel, type Caller } from '../credentials/callers.js';
import { sameResource } from '../credentials/mcp-auth.js';
import {
  authenticateClient,
  openClient,
  registerClient,
  type AuthenticatedClient,
  type RegistrationGate,
} from './oauth-clients.js';
import { API_HEADERS, oauthError, preflight, readCookie, readForm, setCookie } from './oauth-http.js';
import { consentPage, errorPage } from './oauth-pages.js';
import { UpstreamOAuthClient } from './oauth-upstream.js';
import { equalText, randomToken, Sealer, sha256 } from './sealed.js';
import { StoreUnavailable, type SharedStore } from './store.js';
import { GrantRefused, TokenEndpointFailure, type UpstreamTokens } from './upstream-token-endpoint.js';

const CONSENT_LIFETIME_S = 600;
const FLOW_LIFETIME_S = 600;
const CODE_LIFETIME_S = 60;
const REFRESH_LIFETIME_S = 30 * 86_400;
/** A refresh token presented again this soon after its first use is the same client refreshing concurrent calls. */
const REFRESH_REUSE_GRACE_S = 10;
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

/** What the consent page posts back: the client (as a digest of its id), redirect URI, PKCE challenge, state. */
type Consent = { cd: string; ru: string; cc: string; st?: string; csrf: string };
/** An approved sign-in on its way through the API's provider: the consent, plus the upstream state, verifier, nonce. */
type Flow = Omit<Consent, 'csrf'> & { s: string; v: string; n?: string };
/**
 * This server's authorization code: the API's own code (`uc`) and the issuer it came with (`ui`), with the verifier
 * and nonce that redeem it; `jti` names it in the store.
 */
type Code = { cd: string; ru: string; cc: string; uc: string; ui?: string; v: string; n?: string; jti: string };
/** A sign-in's tokens: `fid` names its family (every token of one sign-in), `jti` one refresh token. */
type Access = { aud: string; sub: string; cd: string; sc?: string; at: string; fid: string };
type Refresh = { aud: string; sub: string; cd: string; sc?: string; rt: string; fid: string; jti: string };
/** A token answer kept briefly for the concurrent uses of one refresh token. */
type Answer = { body: string };

export type OAuthServer = {
  /**
   * Metadata and /oauth/* endpoints; undefined for every other path. `source`: the address the request came from,
   * when known (registrations are limited per source).
   */
  handle(request: Request, source?: string): Promise<Response | undefined>;
  /** Checks the access tokens this server issued, for the /mcp gate. */
  verifier: OAuthTokenVerifier;
  issuer: string;
  /** This server's MCP endpoint: the audience of its tokens. */
  resource: URL;
  /** The signed-in user of a verified token. */
  callerOf(authInfo: AuthInfo): Caller;
};

/** `store`: what every replica shares (replay detection, revocation); undefined without `<PREFIX>_STORE_URL`. */
export function createOAuthServer(settings: OAuthModeSettings, store: SharedStore | undefined): OAuthServer {
  const sealer = new Sealer(settings.sealingKeys);
  const upstream = new UpstreamOAuthClient(settings);
  const issuer = settings.publicUrl;
  const resource = new URL('/mcp', issuer);
  const secure = issuer.startsWith('https:');
  const methods = ['none', 'client_secret_basic', 'client_secret_post'];
  const metadata = {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    // Only a store makes revocation reach this server's own tokens; without one it is not offered as a promise.
    ...(store
      ? { revocation_endpoint: `${issuer}/oauth/revoke`, revocation_endpoint_auth_methods_supported: methods }
      : {}),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: methods,
    authorization_response_iss_parameter_supported: true,
  };

  /** Cookies of this server's sign-in pages: `__Host-` on https (no Domain, Path=/, Secure), never readable by script. */
  const cookieName = (base: string) => `${secure ? '__Host-' : ''}${base}`;
  const cookie = (name: string, value: string, maxAge: number) => setCookie(name, value, maxAge, secure);
  const registrationGate = registrationLimit(settings.registrationsPerMinute, settings.registrationsPerSource, store);

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

  /**
   * GET /oauth/authorize: checks the request, then asks the user whether this client may act as them. Until the user
   * approves, nothing is sent to the redirect URI: anyone can register one, so an error sent there would make this
   * server an open redirector (RFC 9700 §4.11.2). Errors are shown here instead.
   */
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
    if (redirectUri === undefined || !registration.r.includes(redirectUri))
      return errorPage(
        400,
        'Unknown redirect address',
        'The address this sign-in would return to is not one the application registered, so nothing was sent to it.',
      );
    const state = parameters.get('state') ?? undefined;
    const refuse = (problem: string) =>
      errorPage(400, 'This sign-in request cannot be used', `${problem} Nothing was sent to the application.`);
    if (parameters.get('response_type') !== 'code')
      return refuse('The application asked for something other than response_type=code, the only kind supported.');
    const challenge = parameters.get('code_challenge') ?? '';
    if (parameters.get('code_challenge_method') !== 'S256' || !PKCE_VALUE.test(challenge))
      return refuse('The application sent no PKCE challenge with code_challenge_method=S256, which is required.');
    const target = parameters.get('resource');
    if (target !== null && !sameResource(target, resource))
      return refuse(
        `The application asked for access to another server; this one issues tokens for ${resource.href} only.`,
      );
    if (state !== undefined && state.length > 2048)
      return refuse('The application sent a state value that is too long.');
    const csrf = randomToken();
    const consent: Consent = { cd: await sha256(clientId), ru: redirectUri, cc: challenge, csrf, ...stateField(state) };
    return consentPage(
      {
        apiTitle: api.title,
        clientName: registration.n ?? 'An unnamed application',
        redirectUri,
        signInHost: await upstream.signInHost(),
        scopes: settings.scopes,
        request: await sealer.seal('consent', consent, CONSENT_LIFETIME_S),
      },
      { 'Set-Cookie': cookie(cookieName(`mcp-consent-${csrf.slice(0, 16)}`), csrf, CONSENT_LIFETIME_S) },
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
    const cleared = cookie(csrfCookie, '', 0);
    if (form.get('decision') !== 'allow')
      return backToClient(
        consent.ru,
        { error: 'access_denied', error_description: 'The user did not allow access.' },
        consent.st,
        [cleared],
      );
    const flow: Flow = {
      ...consent,
      s: randomToken(),
      v: randomToken(),
      ...(upstream.asksForIdToken ? { n: randomToken() } : {}),
    };
    const headers = new Headers({
      Location: await upstream.authorizationUrl({
        state: flow.s,
        verifier: flow.v,
        ...(flow.n ? { nonce: flow.n } : {}),
      }),
      'Cache-Control': 'no-store',
    });
    headers.append('Set-Cookie', cleared);
    // The state cookie is set only now, after consent (MCP security best practices).
    headers.append(
      'Set-Cookie',
      cookie(
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
    const cleared = cookie(name, '', 0);
    const error = url.searchParams.get('error');
    let answer: { code: string; iss?: string } | undefined;
    try {
      if (error === null) answer = await upstream.checkCallback(url.searchParams, flow.s);
    } catch (problem) {
      // Not from the provider this sign-in went to (RFC 9207 mix-up) or malformed: the code goes nowhere.
      log('warn', `the sign-in answer was refused: ${problem instanceof Error ? problem.message : String(problem)}`);
      return errorPage(
        400,
        'This sign-in cannot be finished',
        'The answer of the sign-in page could not be verified, so nothing was sent to the application. Start again from your MCP client.',
        { 'Set-Cookie': cleared },
      );
    }
    if (!answer?.code) {
      const denied = error === 'access_denied';
      log('info', `sign-in ended without a code (${(error ?? 'none').replace(/[^\w.-]/g, '').slice(0, 40)})`);
      // The user approved this client on the consent page, so its redirect URI may hear how the sign-in ended.
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
    const ours: Code = {
      cd: flow.cd,
      ru: flow.ru,
      cc: flow.cc,
      uc: answer.code,
      ...(answer.iss ? { ui: answer.iss } : {}),
      v: flow.v,
      ...(flow.n ? { n: flow.n } : {}),
      jti: randomToken(16),
    };
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
    // The API's provider refuses its code a second time anyway; the store says so before asking it.
    if (store && (await store.setOnce(`code:${code.jti}`, '1', CODE_LIFETIME_S)) !== null)
      return oauthError(400, 'invalid_grant', 'The authorization code was used already: sign in again.');
    let tokens: UpstreamTokens;
    try {
      tokens = await upstream.exchangeCode(
        { code: code.uc, ...(code.ui ? { iss: code.ui } : {}) },
        { verifier: code.v, ...(code.n ? { nonce: code.n } : {}) },
      );
    } catch (error) {
      return upstreamFailure(error, 'The authorization code was used already or has expired: sign in again.');
    }
    const subject = await upstream.subjectOf(tokens);
    log('info', `signed in: user ${subjectLabel(subject)}`);
    return issue(subject, client.digest, tokens, { fid: randomToken(16) });
  }

  async function refresh(form: URLSearchParams, client: AuthenticatedClient): Promise<Response> {
    const opened = await sealer.open<Refresh>('refresh', form.get('refresh_token') ?? '', { audience: resource.href });
    if (!opened.ok || opened.payload.cd !== client.digest || typeof opened.payload.fid !== 'string')
      return oauthError(400, 'invalid_grant', 'The refresh token is not valid here or has expired: sign in again.');
    const grant = opened.payload;
    if (store) {
      if ((await store.get(`revoked:${grant.fid}`)) !== null)
        return oauthError(400, 'invalid_grant', 'This sign-in was revoked: sign in again.');
      const firstUse = await store.setOnce(`used:${grant.jti}`, String(Date.now()), grant.exp - Date.now() / 1000 + 60);
      if (firstUse !== null) return reuse(grant, Number(firstUse));
    }
    let tokens: UpstreamTokens;
    try {
      tokens = await upstream.refresh(grant.rt);
    } catch (error) {
      return upstreamFailure(error, `${api.title} no longer accepts this sign-in: sign in again.`);
    }
    log('info', `refreshed: user ${subjectLabel(grant.sub)}`);
    const answer = await issue(grant.sub, grant.cd, tokens, { fid: grant.fid, previousRefresh: grant.rt });
    // Concurrent refreshes of the same token get this very answer (see reuse).
    if (store && answer.ok) {
      const body = await answer.clone().text();
      await store.set(
        `answer:${grant.jti}`,
        await sealer.seal('answer', { body } satisfies Answer, REFRESH_REUSE_GRACE_S),
        REFRESH_REUSE_GRACE_S,
      );
    }
    return answer;
  }

  /**
   * A refresh token used before. Within seconds of its first use it is the same client refreshing concurrent calls
   * (the official client refreshes each call's 401 on its own): it gets the first use's answer, once that is ready.
   * Later it is a replay (RFC 9700 §4.14.2): someone holds a copy, so the whole sign-in is revoked, here and at the
   * API's provider.
   */
  async function reuse(grant: Refresh & { exp: number }, firstUseMs: number): Promise<Response> {
    const shared = store as SharedStore;
    const deadline = firstUseMs + REFRESH_REUSE_GRACE_S * 1000;
    if (Date.now() <= deadline) {
      while (Date.now() <= deadline) {
        const kept = await shared.get(`answer:${grant.jti}`);
        const opened = kept ? await sealer.open<Answer>('answer', kept) : undefined;
        if (opened?.ok)
          return new Response(opened.payload.body, { headers: { ...API_HEADERS, 'Content-Type': 'application/json' } });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return oauthError(
        400,
        'invalid_grant',
        'This refresh token was just used, and that refresh failed: sign in again.',
      );
    }
    await shared.set(`revoked:${grant.fid}`, String(Date.now()), REFRESH_LIFETIME_S + 60);
    log('warn', `a used refresh token was presented again: the sign-in of user ${subjectLabel(grant.sub)} is revoked`);
    await upstream.revoke(grant.rt);
    return oauthError(
      400,
      'invalid_grant',
      'This refresh token was used before, so this sign-in was revoked: sign in again.',
    );
  }

  /**
   * POST /oauth/revoke (RFC 7009): ends the sign-in a refresh or access token belongs to, for the client it was issued
   * to. Its tokens stop working on every replica (with a store) and the API's provider is asked to revoke its own.
   */
  async function revoke(request: Request): Promise<Response> {
    const form = await readForm(request);
    if (!form) return oauthError(400, 'invalid_request', 'Send the revocation as application/x-www-form-urlencoded.');
    const client = await authenticateClient(request, form, sealer);
    if (client instanceof Response) return client;
    const presented = form.get('token') ?? '';
    const kinds: Array<'refresh' | 'access'> =
      form.get('token_type_hint') === 'access_token' ? ['access', 'refresh'] : ['refresh', 'access'];
    let grant: { fid: string; sub: string; cd: string; upstream: string } | undefined;
    for (const kind of kinds) {
      const opened = await sealer.open<Refresh & Access>(kind, presented, { audience: resource.href });
      if (!opened.ok) continue;
      const { fid, sub, cd } = opened.payload;
      grant = { fid, sub, cd, upstream: kind === 'refresh' ? opened.payload.rt : opened.payload.at };
      break;
    }
    // RFC 7009 §2.2: an invalid token, or another client's, is answered like a revoked one.
    if (!grant || grant.cd !== client.digest) return new Response(null, { status: 200, headers: API_HEADERS });
    if (store) await store.set(`revoked:${grant.fid}`, String(Date.now()), REFRESH_LIFETIME_S + 60);
    const upstreamRevoked = await upstream.revoke(grant.upstream);
    if (!store && !upstreamRevoked)
      return oauthError(
        400,
        'unsupported_token_type',
        `This deployment keeps no shared state (${api.envPrefix}_STORE_URL is unset) and ${api.title}'s provider offers no revocation, so the token stays valid until it expires.`,
      );
    log('info', `revoked: the sign-in of user ${subjectLabel(grant.sub)}`);
    return new Response(null, { status: 200, headers: API_HEADERS });
  }

  /**
   * Access and refresh tokens sealing the user's API tokens. The access token expires before the API's token does,
   * so the client refreshes through this server, which refreshes at the API: no call goes out with a stale token.
   */
  async function issue(
    subject: string,
    clientDigest: string,
    tokens: UpstreamTokens,
    family: { fid: string; previousRefresh?: string },
  ): Promise<Response> {
    const now = Date.now() / 1000;
    const upstreamLeft = tokens.expiresAt !== undefined ? tokens.expiresAt - now : Number.POSITIVE_INFINITY;
    const margin = Math.min(30, Math.floor(upstreamLeft / 10));
    const lifetime = Math.max(1, Math.floor(Math.min(settings.tokenTtl, upstreamLeft - margin)));
    const scope = tokens.scope ?? (settings.scopes.length > 0 ? settings.scopes.join(' ') : undefined);
    const common = {
      aud: resource.href,
      sub: subject,
      cd: clientDigest,
      fid: family.fid,
      ...(scope ? { sc: scope } : {}),
    };
    const access: Access = { ...common, at: tokens.accessToken };
    const upstreamRefresh = tokens.refreshToken ?? family.previousRefresh;
    // A new refresh token at every refresh (rotation): the one just used is spent.
    const refreshToken = upstreamRefresh
      ? await sealer.seal(
          'refresh',
          { ...common, rt: upstreamRefresh, jti: randomToken(16) } satisfies Refresh,
          REFRESH_LIFETIME_S,
        )
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
      // The audience is this server's configured URL (never a request's Host): another deployment's token, even one
      // sealed with the same keys, names another audience and does not open.
      const opened = await sealer.open<Access>('access', token, { audience: resource.href });
      if (!opened.ok)
        throw new OAuthError(
          OAuthErrorCode.InvalidToken,
          opened.reason === 'expired'
            ? 'Token has expired'
            : opened.reason === 'audience'
              ? 'Token was not issued for this resource'
              : 'Token was not issued by this server',
        );
      const access = opened.payload;
      if (store) {
        let revoked: string | null;
        try {
          revoked = await store.get(`revoked:${access.fid}`);
        } catch (error) {
          log('error', error instanceof Error ? error.message : String(error));
          throw new OAuthError(OAuthErrorCode.TemporarilyUnavailable, 'Tokens cannot be checked right now; try again');
        }
        if (revoked !== null) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token was revoked');
      }
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
    async handle(request, source) {
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
        if (route === 'POST /oauth/register')
          return await registerClient(request, sealer, () => registrationGate(source));
        if (route === 'GET /oauth/authorize') return await authorize(url);
        if (route === 'POST /oauth/authorize') return await decide(request);
        if (route === 'GET /oauth/callback') return await callback(request, url);
        if (route === 'POST /oauth/token') return await token(request);
        if (route === 'POST /oauth/revoke') return await revoke(request);
        if (['OPTIONS /oauth/register', 'OPTIONS /oauth/token', 'OPTIONS /oauth/revoke'].includes(route))
          return preflight(request);
      } catch (error) {
        log('error', `${route}: ${error instanceof Error ? error.message : String(error)}`);
        // Without the store nothing is decided: no refresh goes through unchecked.
        if (error instanceof StoreUnavailable)
          return oauthError(
            503,
            'temporarily_unavailable',
            'The authorization server cannot check tokens right now; try again shortly.',
          );
        // The API's provider could not be reached (its metadata, to begin with): a page for browsers, JSON for clients.
        if (error instanceof TokenEndpointFailure) {
          const problem = `${api.title}'s sign-in could not be reached; try again later.`;
          return request.method === 'GET'
            ? errorPage(502, 'Sign-in is unavailable', problem)
            : oauthError(502, 'temporarily_unavailable', problem);
        }
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

/**
 * Registrations per minute: counted in the store across replicas when there is one, else by each replica for itself.
 */
/**
 * Registrations per minute: per source address first, so one source cannot use up everyone's, then for the whole
 * deployment (with a store; else per replica). A request whose source is unknown counts only toward the whole.
 */
function registrationLimit(
  perMinute: number,
  perSource: number,
  store: SharedStore | undefined,
): (source: string | undefined) => Promise<number | undefined> {
  if (!store) {
    const whole = new RateLimiter(perMinute);
    const sources = new SubjectRateLimiters(perSource);
    return async (source) => (source === undefined ? undefined : sources.of(source).take()) ?? whole.take();
  }
  return async (source) => {
    const minute = Math.floor(Date.now() / 60_000);
    const untilNextMinute = 60 - (Math.floor(Date.now() / 1000) % 60);
    if (source !== undefined && (await store.count(`registrations:${minute}:source:${source}`, 120)) > perSource)
      return untilNextMinute;
    const count = await store.count(`registrations:${minute}`, 120);
    return count > perMinute ? untilNextMinute : undefined;
  };
}

function stateField(state: string | undefined): { st?: string } {
  return state !== undefined ? { st: state } : {};
}
