import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSpec } from '../helpers/paths.js';
import { type AuthorizationServer, resourceServerClient, signInClient, startAuthorizationServer } from '../helpers/oidc.js';
import { Browser, signIn as signInAs, type SignedIn } from '../helpers/oauth-user.js';
import { buildProject, generateProject, linkDependencies, startHttpServer, tempDir, textOf, type HttpServer } from '../helpers/project.js';
import { startRoundRobin, type RoundRobin } from '../helpers/round-robin.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/**
 * `<PREFIX>_UPSTREAM_AUTH=oauth`, with real parts only: the Tic Tac Toe description (its `user2AppOauth` scheme has an
 * authorization code flow), oidc-provider as the API's authorization server, a recording API that checks every token
 * by introspection there, two processes of the generated server behind a round-robin balancer, and the official MCP
 * client's OAuth support signing two users in (the pages submitted by a headless browser).
 */
const PREFIX = 'TIC_TAC_TOE';
/** The API's identifier at its authorization server: the audience of the users' API tokens. */
const API = 'https://tictactoe.example/api';
const SERVER_CLIENT = { id: 'mcp-server', secret: `server-secret-${randomBytes(8).toString('hex')}` };
const API_CLIENT = { id: 'tictactoe-api', secret: `api-secret-${randomBytes(8).toString('hex')}` };
/** Seconds the API's access tokens live: short, so that the test sees expiry and refresh. */
const API_TOKEN_TTL = 12;
const KEYS = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64url')];

type ApiCall = { method: string; path: string; token?: string; sub?: string; active: boolean };

describe('upstream OAuth: every user calls the API as themselves, through two replicas', () => {
  let dir: string;
  let balancer: RoundRobin;
  let authorizationServer: AuthorizationServer;
  let api: Upstream;
  let replicas: HttpServer[] = [];
  let env: Record<string, string>;
  const calls: ApiCall[] = [];
  /** Users whose tokens the API refuses from now on (revoked there). */
  const refused = new Set<string>();
  const users = new Map<string, SignedIn>();
  const mcpUrl = () => new URL('/mcp', balancer.url);

  beforeAll(async () => {
    dir = await tempDir('upstream-oauth-e2e');
    await generateProject({ spec: fixtureSpec('oai-tictactoe.yaml'), out: dir });
    await linkDependencies(dir);
    await buildProject(dir);
    balancer = await startRoundRobin();
    authorizationServer = await startAuthorizationServer({
      clients: [
        signInClient(SERVER_CLIENT.id, SERVER_CLIENT.secret, `${balancer.url}/oauth/callback`),
        resourceServerClient(API_CLIENT.id, API_CLIENT.secret),
      ],
      resources: { [API]: { scope: 'board:read board:write', accessTokenTTL: API_TOKEN_TTL } },
      defaultResource: API,
      scopes: ['openid', 'board:read', 'board:write'],
      // Dave's refresh tokens are single-use, as OAuth 2.1 asks of refresh tokens held by public clients. Only his:
      // the other users' clients refresh several concurrent calls at once, which such a provider takes for reuse.
      rotateRefreshTokensOf: new Set(['dave']),
    });
    api = await startUpstream();
    // The API: checks each token at its authorization server, records whose it is, and answers as the API would.
    api.reply = async (request) => {
      const token = /^Bearer (.+)$/.exec(String(request.headers['authorization'] ?? ''))?.[1];
      const info = token ? await authorizationServer.introspect(token, API_CLIENT.id, API_CLIENT.secret) : {};
      const sub = typeof info['sub'] === 'string' ? info['sub'] : undefined;
      const active = info['active'] === true && info['aud'] === API && !refused.has(sub ?? '');
      calls.push({ method: request.method, path: request.path, ...(token ? { token } : {}), ...(sub ? { sub } : {}), active });
      if (request.path === '/board') return { body: JSON.stringify({ winner: '.', board: [] }) };
      if (!active)
        return { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' }, body: '{"error":"invalid_token"}' };
      // The square's answer echoes the request's Authorization header: it must never reach the model.
      if (request.method === 'GET') return { body: JSON.stringify({ mark: 'X', seen: request.headers['authorization'] }) };
      return { body: JSON.stringify({ winner: '.', board: [['X', '.', '.']] }) };
    };
    env = {
      [`${PREFIX}_BASE_URL`]: api.url,
      [`${PREFIX}_UPSTREAM_AUTH`]: 'oauth',
      [`${PREFIX}_PUBLIC_URL`]: balancer.url,
      [`${PREFIX}_OAUTH_SEALING_KEYS`]: KEYS.join(','),
      [`${PREFIX}_UPSTREAM_CLIENT_ID`]: SERVER_CLIENT.id,
      [`${PREFIX}_UPSTREAM_CLIENT_SECRET`]: SERVER_CLIENT.secret,
      // The description's URLs are learn.openapis.org's; a deployment names its provider, whose OpenID metadata gives
      // the endpoints and the keys its ID tokens are checked against.
      [`${PREFIX}_UPSTREAM_ISSUER`]: authorizationServer.issuer,
      // The description's scopes, plus openid so that the provider names the user.
      [`${PREFIX}_UPSTREAM_SCOPES`]: 'openid board:read board:write',
      [`${PREFIX}_LOG_LEVEL`]: 'debug',
    };
    replicas = await Promise.all([startHttpServer(dir, env), startHttpServer(dir, env)]);
    balancer.targets = replicas.map((replica) => new URL(replica.url).origin);
  });

  afterAll(async () => {
    for (const { client } of users.values()) await client.close().catch(() => undefined);
    for (const replica of replicas) await replica.stop();
    await balancer?.close();
    await api?.close();
    await authorizationServer?.close();
  });

  async function signIn(user: string): Promise<SignedIn> {
    const session = await signInAs(mcpUrl(), user);
    expect(session.provider.authorizationUrl?.href).toMatch(new RegExp(`^${balancer.url}/oauth/authorize\\?`));
    users.set(user, session);
    return session;
  }

  const rawCall = (token: string | undefined, origin = balancer.url) =>
    fetch(new URL('/mcp', origin), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
  const refreshGrant = (user: string, refreshToken: string) =>
    fetch(`${balancer.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: users.get(user)?.provider.clientInformation()?.client_id ?? '',
      }),
    });
  /** A fresh access token of a signed-in user, by the refresh grant; the client keeps the new tokens. */
  const freshAccessToken = async (user: string) => {
    const { provider } = users.get(user)!;
    const answer = await refreshGrant(user, provider.tokens()?.refresh_token ?? '');
    expect(answer.status).toBe(200);
    const tokens = (await answer.json()) as { access_token: string; refresh_token: string; token_type: string };
    // Keeps the issuer the client stamped on what it stored (SEP-2352).
    provider.saveTokens({ ...provider.tokens(), ...tokens });
    return tokens.access_token;
  };
  /** A connection with a bearer token of its own, to a server's origin: no sign-in, no refresh. */
  const connectWith = async (token: string, origin: string) => {
    const { Client: McpClient, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const client = new McpClient({ name: 'bearer-client', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', origin), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    return client;
  };
  const resourceMetadata = () => `resource_metadata="${balancer.url}/.well-known/oauth-protected-resource/mcp"`;

  it('publishes the authorization server and protected-resource metadata, and challenges clients without a token', async () => {
    const resource = (await (await fetch(`${balancer.url}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({ resource: `${balancer.url}/mcp`, authorization_servers: [balancer.url] });
    const server = (await (await fetch(`${balancer.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(server).toMatchObject({
      issuer: balancer.url,
      authorization_endpoint: `${balancer.url}/oauth/authorize`,
      token_endpoint: `${balancer.url}/oauth/token`,
      registration_endpoint: `${balancer.url}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      authorization_response_iss_parameter_supported: true,
    });
    const answer = await rawCall(undefined);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(answer.headers.get('www-authenticate')).toContain(resourceMetadata());
  });

  it('signs two users in and calls the API with each one’s own token, whichever replica serves', async () => {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    calls.length = 0;
    const square = (client: Client, row: number) =>
      client.callTool({ name: 'board_read', arguments: { action: 'get_square', row, column: 1 } });
    const mark = (client: Client, row: number) =>
      client.callTool({ name: 'board_write', arguments: { row, column: 2, request_body: 'X' } });
    // Interleaved and concurrent: each user's calls alternate between the replicas.
    const results = await Promise.all([
      square(alice.client, 1),
      square(bob.client, 2),
      mark(alice.client, 1),
      mark(bob.client, 2),
      square(alice.client, 3),
      square(bob.client, 3),
    ]);
    for (const result of results) expect(result.isError ?? false, textOf(result)).toBe(false);
    const bySub = (sub: string) => calls.filter((call) => call.sub === sub);
    expect(calls.every((call) => call.active)).toBe(true);
    expect(
      bySub('alice')
        .map((call) => call.path)
        .sort(),
    ).toEqual(['/board/1/1', '/board/1/2', '/board/3/1']);
    expect(
      bySub('bob')
        .map((call) => call.path)
        .sort(),
    ).toEqual(['/board/2/1', '/board/2/2', '/board/3/1']);
    // Each user's API token is their own, and neither is what their MCP client holds.
    const aliceTokens = new Set(bySub('alice').map((call) => call.token));
    const bobTokens = new Set(bySub('bob').map((call) => call.token));
    expect([...aliceTokens].some((token) => bobTokens.has(token))).toBe(false);
    for (const { provider } of [alice, bob]) {
      const held = JSON.stringify(provider.tokens());
      for (const call of calls) expect(held).not.toContain(call.token);
      for (const call of calls) expect(call.token).not.toBe(provider.tokens()?.access_token);
    }
    // Both replicas answered /mcp requests and the sign-in endpoints.
    for (const served of balancer.served) {
      expect(served.filter((request) => request === 'POST /mcp').length).toBeGreaterThan(2);
      expect(served.some((request) => request.includes('/oauth/'))).toBe(true);
    }
  });

  it('never hands the user’s API token to the model, even when the API echoes it', async () => {
    const alice = users.get('alice');
    const result = await alice!.client.callTool({ name: 'board_read', arguments: { action: 'get_square', row: 2, column: 3 } });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const token = calls.at(-1)?.token ?? '';
    expect(token.length).toBeGreaterThan(10);
    expect(JSON.stringify(result)).not.toContain(token);
    expect(JSON.stringify(result)).toContain('[redacted]');
  });

  it('does not offer operations only the deployment’s own credentials authorize, and sends nothing for them', async () => {
    // get (the whole board) takes the API key or the app's client credentials, never a user's token: not offered per user.
    const listed = (await users.get('bob')!.client.listTools()).tools.find((tool) => tool.name === 'board_read');
    expect((listed?.inputSchema.properties?.['action'] as { enum?: string[] }).enum).toEqual(['get_square']);
    const before = calls.length;
    const result = await users.get('bob')!.client.callTool({ name: 'board_read', arguments: { action: 'get' } });
    expect(result.isError).toBe(true);
    expect(calls.length).toBe(before);
  });

  it('refuses forged tokens, tokens of another kind, the API’s own tokens and another deployment’s tokens', async () => {
    const alice = users.get('alice')!;
    const access = await freshAccessToken('alice');
    const refresh = alice.provider.tokens()?.refresh_token ?? '';
    const apiToken = calls.find((call) => call.sub === 'alice')?.token ?? '';
    const tampered = `${access.slice(0, 100)}${access[100] === 'A' ? 'B' : 'A'}${access.slice(101)}`;
    for (const token of ['forged-token-0123456789', tampered, refresh, apiToken]) {
      const answer = await rawCall(token);
      expect(answer.status, token.slice(0, 20)).toBe(401);
      expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(answer.headers.get('www-authenticate')).toContain(resourceMetadata());
    }
    expect((await rawCall(access)).status).toBe(200);
    // The same keys, another public URL: a token for this deployment names another audience there.
    const other = await startHttpServer(dir, {
      [`${PREFIX}_BASE_URL`]: api.url,
      [`${PREFIX}_UPSTREAM_AUTH`]: 'oauth',
      [`${PREFIX}_PUBLIC_URL`]: 'http://localhost:9',
      [`${PREFIX}_OAUTH_SEALING_KEYS`]: KEYS.join(','),
      [`${PREFIX}_UPSTREAM_CLIENT_ID`]: SERVER_CLIENT.id,
      [`${PREFIX}_UPSTREAM_AUTHORIZATION_URL`]: `${authorizationServer.issuer}/auth`,
      [`${PREFIX}_UPSTREAM_TOKEN_URL`]: `${authorizationServer.issuer}/token`,
    });
    try {
      const answer = await rawCall(access, new URL(other.url).origin);
      expect(answer.status).toBe(401);
      expect(((await answer.json()) as { error_description: string }).error_description).toBe('Token was not issued for this resource');
    } finally {
      await other.stop();
    }
  });

  it('refuses a replayed authorization code on every replica, and a code without the right PKCE verifier', async () => {
    const carol = await signIn('carol');
    const alice = users.get('alice')!;
    const client = alice.provider.clientInformation()!;
    const redeem = (code: string, verifier: string) =>
      fetch(`${balancer.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          client_id: client.client_id,
          redirect_uri: alice.provider.redirectUrl,
        }),
      });
    // Carol's client redeemed this code when she signed in; the balancer sends the replays to both replicas.
    for (let attempt = 0; attempt < 2; attempt++) {
      const replay = await fetch(`${balancer.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: carol.callback.searchParams.get('code') ?? '',
          code_verifier: carol.provider.codeVerifier(),
          client_id: carol.provider.clientInformation()?.client_id ?? '',
          redirect_uri: carol.provider.redirectUrl,
        }),
      });
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
    }
    // The API's provider saw its code used twice and revoked what it had granted (RFC 6749 §4.1.2): carol's calls
    // now answer HTTP 401 and her refresh fails: her client cannot go on without signing in again.
    await expect(carol.client.callTool({ name: 'board_read', arguments: { action: 'get_square', row: 1, column: 1 } })).rejects.toThrow();
    // A fresh code: the wrong verifier is refused here, without spending the API's code; the right one then works.
    alice.provider.authorizationUrl = undefined;
    const authorization = new URL(`${balancer.url}/oauth/authorize`);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = (await import('node:crypto')).createHash('sha256').update(verifier).digest('base64url');
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: alice.provider.redirectUrl,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'state-123',
    }))
      authorization.searchParams.set(name, value);
    const callback = await new Browser('alice').signIn(authorization, alice.provider.redirectUrl);
    expect(callback.searchParams.get('state')).toBe('state-123');
    expect(callback.searchParams.get('iss')).toBe(balancer.url);
    const code = callback.searchParams.get('code') ?? '';
    const wrong = await redeem(code, randomBytes(32).toString('base64url'));
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant' });
    const right = await redeem(code, verifier);
    expect(right.status).toBe(200);
    expect(await right.json()).toMatchObject({ token_type: 'Bearer' });
  });

  it('refuses a replayed refresh token when the API’s provider makes them single-use, and that ends the sign-in', async () => {
    const dave = await signIn('dave');
    const used = dave.provider.tokens()?.refresh_token ?? '';
    const fresh = await freshAccessToken('dave');
    expect(dave.provider.tokens()?.refresh_token).not.toBe(used);
    const replay = await refreshGrant('dave', used);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('sign in again') });
    // The provider revoked everything it had granted on that sign-in: the newer tokens are dead too.
    const renewed = await refreshGrant('dave', dave.provider.tokens()?.refresh_token ?? '');
    expect(renewed.status).toBe(400);
    const client = await connectWith(fresh, balancer.url);
    try {
      // The API refuses the revoked token: HTTP 401, which a client without a way to sign in cannot get past.
      await expect(client.callTool({ name: 'board_read', arguments: { action: 'get_square', row: 1, column: 1 } })).rejects.toThrow(/401/);
    } finally {
      await client.close();
    }
  });

  it('limits each user’s calls on their own', async () => {
    // A third process of the same deployment (same public URL and keys), reached directly.
    const limited = await startHttpServer(dir, { ...env, [`${PREFIX}_RATE_LIMIT`]: '2' });
    const origin = new URL(limited.url).origin;
    const [alice, bob] = [
      await connectWith(await freshAccessToken('alice'), origin),
      await connectWith(await freshAccessToken('bob'), origin),
    ];
    const square = (client: Client) => client.callTool({ name: 'board_read', arguments: { action: 'get_square', row: 1, column: 1 } });
    try {
      for (let call = 0; call < 2; call++) expect((await square(alice)).isError ?? false).toBe(false);
      const over = await square(alice);
      expect(over.isError).toBe(true);
      expect(textOf(over)).toContain('Too many tool calls');
      const other = await square(bob);
      expect(other.isError ?? false, textOf(other)).toBe(false);
    } finally {
      await alice.close();
      await bob.close();
      await limited.stop();
    }
  });

  it('lets the user sign in only through its own consent page, for registered redirect URIs, with PKCE S256', async () => {
    const alice = users.get('alice')!;
    const client = alice.provider.clientInformation()!;
    const authorize = (parameters: Record<string, string>) => {
      const url = new URL(`${balancer.url}/oauth/authorize`);
      const base = { response_type: 'code', client_id: client.client_id, redirect_uri: alice.provider.redirectUrl };
      for (const [name, value] of Object.entries({ ...base, ...parameters })) url.searchParams.set(name, value);
      return fetch(url, { redirect: 'manual' });
    };
    const challenge = randomBytes(32).toString('base64url');
    // A redirect URI the client did not register: shown, never followed.
    const foreign = await authorize({
      redirect_uri: 'https://attacker.example/cb',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('location')).toBeNull();
    // Without PKCE, or with plain PKCE: refused on a page, never sent to the redirect URI (RFC 9700 §4.11.2).
    const withoutS256: Array<Record<string, string>> = [{}, { code_challenge: challenge, code_challenge_method: 'plain' }];
    for (const parameters of withoutS256) {
      const refusedRequest = await authorize(parameters);
      expect(refusedRequest.status).toBe(400);
      expect(refusedRequest.headers.get('location')).toBeNull();
      expect(await refusedRequest.text()).toContain('PKCE challenge');
    }
    // The consent page: no framing; its form only works with the cookie it set, and only from this site.
    const page = await authorize({ code_challenge: challenge, code_challenge_method: 'S256' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).toContain('alice&#39;s assistant');
    expect(html).toContain(alice.provider.redirectUrl);
    const sealed = /name="request" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const cookie = page.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    const decide = (headers: Record<string, string>) =>
      fetch(`${balancer.url}/oauth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ request: sealed, decision: 'allow' }),
      });
    expect((await decide({})).status).toBe(403);
    expect((await decide({ cookie, origin: 'https://attacker.example' })).status).toBe(403);
    const approved = await decide({ cookie, origin: balancer.url });
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toMatch(new RegExp(`^${authorizationServer.issuer}/auth\\?`));
    // Only https, loopback http and private-use redirect URIs register.
    const registration = await fetch(`${balancer.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://attacker.example/cb'], token_endpoint_auth_method: 'none' }),
    });
    expect(registration.status).toBe(400);
    expect(await registration.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('refuses an expired token with a challenge, and the client refreshes it through the API’s refresh', async () => {
    const alice = users.get('alice')!;
    const expired = await freshAccessToken('alice');
    const held = alice.provider.tokens()?.access_token;
    const before = calls.filter((call) => call.sub === 'alice').at(-1)?.token;
    await new Promise((resolve) => setTimeout(resolve, API_TOKEN_TTL * 1000 + 500));
    const answer = await rawCall(expired);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(answer.headers.get('www-authenticate')).toContain('error_description="Token has expired"');
    const result = await alice.client.callTool({ name: 'board_read', arguments: { action: 'get_square', row: 1, column: 3 } });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(alice.provider.tokens()?.access_token).not.toBe(held);
    const after = calls.at(-1);
    expect(after).toMatchObject({ sub: 'alice', active: true });
    expect(after?.token).not.toBe(before);
  });

  it('answers the API’s refusal of a user’s token with HTTP 401 and a challenge, so that the client signs in again', async () => {
    refused.add('bob');
    const answer = await fetch(new URL('/mcp', balancer.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${await freshAccessToken('bob')}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'board_read', arguments: { action: 'get_square', row: 1, column: 1 } },
      }),
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(answer.headers.get('www-authenticate')).toContain(resourceMetadata());
    expect(await answer.text()).toContain('Sign in again');
    // The official client refreshes once, is refused again, and gives up instead of returning the API's refusal.
    await expect(
      users.get('bob')!.client.callTool({ name: 'board_read', arguments: { action: 'get_square', row: 1, column: 1 } }),
    ).rejects.toThrow();
    // Alice is not affected.
    const other = await users.get('alice')!.client.callTool({ name: 'board_read', arguments: { action: 'get_square', row: 1, column: 1 } });
    expect(other.isError ?? false, textOf(other)).toBe(false);
    refused.delete('bob');
  });

  it('without a store: rotates refresh tokens without replay detection, and revokes only at the API’s provider', async () => {
    // What the README says holds without <PREFIX>_STORE_URL: no revocation endpoint is promised in the metadata ...
    const server = (await (await fetch(`${balancer.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(server).not.toHaveProperty('revocation_endpoint');
    // ... a used refresh token works again until it expires (each refresh still returns a new one) ...
    const frank = await signIn('frank');
    const used = frank.provider.tokens()?.refresh_token ?? '';
    await freshAccessToken('frank');
    expect(frank.provider.tokens()?.refresh_token).not.toBe(used);
    const again = await refreshGrant('frank', used);
    expect(again.status).toBe(200);
    // ... and /oauth/revoke reaches the API's provider, whose refusal then ends the sign-in at the API.
    const revoked = await fetch(`${balancer.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: used, client_id: frank.provider.clientInformation()?.client_id ?? '' }),
    });
    expect(revoked.status).toBe(200);
    // The API's refusal comes back as HTTP 401 with a challenge: the client tries its refresh token, which the
    // provider refuses too, so the client can only sign the user in again.
    await expect(frank.client.callTool({ name: 'board_read', arguments: { action: 'get_square', row: 1, column: 1 } })).rejects.toThrow(
      /sign in again/i,
    );
    expect((await refreshGrant('frank', frank.provider.tokens()?.refresh_token ?? '')).status).toBe(400);
  });

  it('logs users by subject and never logs a token', () => {
    const logs = replicas.map((replica) => replica.stderr()).join('\n');
    expect(logs).toContain('signed in: user "alice"');
    expect(logs).toContain('user "alice": board_read/get_square GET /board/');
    expect(logs).toContain('user "bob": board_write PUT /board/');
    const secrets = [
      ...calls.flatMap((call) => (call.token ? [call.token] : [])),
      ...[...users.values()].flatMap(({ provider }) => [provider.tokens()?.access_token ?? '', provider.tokens()?.refresh_token ?? '']),
      SERVER_CLIENT.secret,
      ...KEYS,
    ];
    for (const secret of secrets) expect(secret.length > 10 && logs.includes(secret)).toBe(false);
  });
});
