import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn as signInAs, type SignedIn } from '../helpers/oauth-user.js';
import { type AuthorizationServer, resourceServerClient, signInClient, startAuthorizationServer } from '../helpers/oidc.js';
import { fixtureSpec } from '../helpers/paths.js';
import { buildProject, generateProject, linkDependencies, startHttpServer, tempDir, textOf, type HttpServer } from '../helpers/project.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { startRoundRobin, type RoundRobin } from '../helpers/round-robin.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/**
 * The `oauth` mode's authorization server against RFC 9700, with real parts only: the Tic Tac Toe description,
 * oidc-provider as the API's authorization server and OpenID provider (its refresh tokens are not single-use, so every
 * replay refused here is refused by this server), a real Redis as `<PREFIX>_STORE_URL`, two replicas behind a
 * round-robin balancer, the official MCP client signing users in. A proxy in front of the provider's token endpoint can
 * hand this server an ID token that is not the sign-in's own.
 */
const PREFIX = 'TIC_TAC_TOE';
const API = 'https://tictactoe.example/api';
const SERVER_CLIENT = { id: 'mcp-server', secret: `server-secret-${randomBytes(8).toString('hex')}` };
const API_CLIENT = { id: 'tictactoe-api', secret: `api-secret-${randomBytes(8).toString('hex')}` };
const [OLD_KEY, NEW_KEY] = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')];
/** What this server waits before a refresh token used again counts as a replay rather than a concurrent refresh. */
const REUSE_GRACE_MS = 10_000;
const REGISTRATIONS_PER_MINUTE = 40;
// Above the sign-ins of this file from 127.0.0.1 (the official clients write no X-Forwarded-For), below a burst.
const REGISTRATIONS_PER_SOURCE = 10;

type TokenAnswer = { access_token: string; refresh_token: string };
/** What the proxy does to the provider's token answers: nothing, or put another ID token in. */
type Tampering = 'none' | 'replay-first-id-token' | 'alter-subject';

describe('the oauth mode’s authorization server (RFC 9700), two replicas and a shared Redis', () => {
  let dir: string;
  let redis: RedisServer;
  let balancer: RoundRobin;
  let provider: AuthorizationServer;
  let api: Upstream;
  let tokenProxy: Server;
  let tampering: Tampering = 'none';
  let firstIdToken: string | undefined;
  let replicas: HttpServer[] = [];
  let env: Record<string, string>;
  /** Every token the API was called with, by user. */
  const apiTokens = new Map<string, string[]>();
  const users = new Map<string, SignedIn>();
  const mcpUrl = () => new URL('/mcp', balancer.url);

  beforeAll(async () => {
    dir = await tempDir('authorization-server-e2e');
    await generateProject({ spec: fixtureSpec('oai-tictactoe.yaml'), out: dir });
    await linkDependencies(dir);
    await buildProject(dir);
    redis = await startRedis();
    balancer = await startRoundRobin();
    provider = await startAuthorizationServer({
      clients: [
        signInClient(SERVER_CLIENT.id, SERVER_CLIENT.secret, `${balancer.url}/oauth/callback`),
        resourceServerClient(API_CLIENT.id, API_CLIENT.secret),
      ],
      resources: { [API]: { scope: 'board:read board:write', accessTokenTTL: 300 } },
      defaultResource: API,
      scopes: ['openid', 'board:read', 'board:write'],
    });
    tokenProxy = await startTokenProxy(`${provider.issuer}/token`, (answer) => {
      const idToken = answer['id_token'];
      if (typeof idToken !== 'string') return answer;
      firstIdToken ??= idToken;
      if (tampering === 'replay-first-id-token') return { ...answer, id_token: firstIdToken };
      if (tampering === 'alter-subject') return { ...answer, id_token: withSubject(idToken, 'alice') };
      return answer;
    });
    api = await startUpstream();
    api.reply = async (request) => {
      const token = /^Bearer (.+)$/.exec(String(request.headers['authorization'] ?? ''))?.[1] ?? '';
      const info = await provider.introspect(token, API_CLIENT.id, API_CLIENT.secret);
      if (info['active'] !== true || typeof info['sub'] !== 'string')
        return { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' }, body: '{"error":"invalid_token"}' };
      apiTokens.set(info['sub'], [...(apiTokens.get(info['sub']) ?? []), token]);
      return { body: JSON.stringify({ mark: 'X' }) };
    };
    env = {
      [`${PREFIX}_BASE_URL`]: api.url,
      [`${PREFIX}_UPSTREAM_AUTH`]: 'oauth',
      [`${PREFIX}_PUBLIC_URL`]: balancer.url,
      [`${PREFIX}_UPSTREAM_CLIENT_ID`]: SERVER_CLIENT.id,
      [`${PREFIX}_UPSTREAM_CLIENT_SECRET`]: SERVER_CLIENT.secret,
      [`${PREFIX}_UPSTREAM_ISSUER`]: provider.issuer,
      // The provider's own endpoints come from its metadata; its token endpoint is reached through the proxy.
      [`${PREFIX}_UPSTREAM_TOKEN_URL`]: `http://127.0.0.1:${(tokenProxy.address() as AddressInfo).port}/token`,
      [`${PREFIX}_UPSTREAM_SCOPES`]: 'openid board:read board:write',
      [`${PREFIX}_STORE_URL`]: redis.url,
      [`${PREFIX}_OAUTH_REGISTRATIONS_PER_MINUTE`]: String(REGISTRATIONS_PER_MINUTE),
      [`${PREFIX}_OAUTH_REGISTRATIONS_PER_SOURCE`]: String(REGISTRATIONS_PER_SOURCE),
      // An outer proxy (played by the test: it writes X-Forwarded-For) and the round-robin balancer.
      [`${PREFIX}_TRUSTED_PROXY_HOPS`]: '2',
      [`${PREFIX}_LOG_LEVEL`]: 'info',
    };
    // A rolling key rotation, first step: the new key is accepted everywhere before any replica seals with it.
    replicas = await Promise.all([
      startHttpServer(dir, { ...env, [`${PREFIX}_OAUTH_SEALING_KEYS`]: OLD_KEY }),
      startHttpServer(dir, { ...env, [`${PREFIX}_OAUTH_SEALING_KEYS`]: `${OLD_KEY},${NEW_KEY}` }),
    ]);
    balancer.targets = replicas.map((replica) => new URL(replica.url).origin);
  });

  afterAll(async () => {
    for (const { client } of users.values()) await client.close().catch(() => undefined);
    for (const replica of replicas) await replica.stop();
    await balancer?.close();
    await api?.close();
    await new Promise((resolve) => tokenProxy?.close(resolve));
    await provider?.close();
    await redis?.close();
  });

  async function signIn(user: string): Promise<SignedIn> {
    const session = await signInAs(mcpUrl(), user);
    users.set(user, session);
    return session;
  }
  const square = (client: Client) => client.callTool({ name: 'board_read', arguments: { action: 'get_square', row: 1, column: 1 } });
  const form = (path: string, fields: Record<string, string>) =>
    fetch(new URL(path, balancer.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
  const clientIdOf = (user: string) => users.get(user)?.provider.clientInformation()?.client_id ?? '';
  const refreshGrant = (user: string, refreshToken: string) =>
    form('/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientIdOf(user) });
  /** tools/list with a bearer token, straight to the balancer: each call goes to the next replica. */
  const rawCall = (token: string) =>
    fetch(mcpUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
  /** The answer of both replicas to the same token. */
  const onBothReplicas = async (token: string) => {
    const answers = [await rawCall(token), await rawCall(token)];
    return Promise.all(answers.map(async (answer) => ({ status: answer.status, challenge: answer.headers.get('www-authenticate') ?? '' })));
  };
  const restart = async (index: number, keys: string) => {
    await replicas[index]?.stop();
    replicas[index] = await startHttpServer(dir, { ...env, [`${PREFIX}_OAUTH_SEALING_KEYS`]: keys });
    balancer.targets[index] = new URL(replicas[index].url).origin;
  };

  it('keeps users signed in through a rolling key rotation while the replicas hold different key lists', async () => {
    const alice = await signIn('alice');
    expect((await square(alice.client)).isError ?? false).toBe(false);
    // Second step, one replica at a time: the new key seals there, the old one still opens everywhere.
    await restart(0, `${NEW_KEY},${OLD_KEY}`);
    for (let call = 0; call < 2; call++) expect((await square(alice.client)).isError ?? false).toBe(false);
    const refreshed = (await (await refreshGrant('alice', alice.provider.tokens()?.refresh_token ?? '')).json()) as TokenAnswer;
    alice.provider.saveTokens({ ...alice.provider.tokens(), ...refreshed, token_type: 'Bearer' });
    for (const answer of await onBothReplicas(refreshed.access_token)) expect(answer.status).toBe(200);
    // A sign-in whose pages, cookies and codes are sealed by one replica and opened by the other, under either key.
    const bob = await signIn('bob');
    await restart(1, `${NEW_KEY},${OLD_KEY}`);
    for (const user of [alice, bob]) for (let call = 0; call < 2; call++) expect((await square(user.client)).isError ?? false).toBe(false);
    expect([...apiTokens.keys()].sort()).toEqual(['alice', 'bob']);
  });

  it('answers concurrent refreshes with one answer, and a replayed refresh token ends the sign-in on every replica', async () => {
    const carol = await signIn('carol');
    expect((await square(carol.client)).isError ?? false).toBe(false);
    const first = carol.provider.tokens()?.refresh_token ?? '';
    const firstUse = Date.now();
    // Two calls that both found their token expired refresh at once, on both replicas: the same answer for each.
    const [one, two] = await Promise.all([refreshGrant('carol', first), refreshGrant('carol', first)]);
    expect([one.status, two.status]).toEqual([200, 200]);
    const [a, b] = (await Promise.all([one.json(), two.json()])) as TokenAnswer[];
    expect(a?.refresh_token).toBe(b?.refresh_token);
    // Rotation: each refresh returns a new refresh token.
    const second = (await (await refreshGrant('carol', a?.refresh_token ?? '')).json()) as TokenAnswer;
    expect(second.refresh_token).not.toBe(a?.refresh_token);
    expect((await onBothReplicas(second.access_token)).map((answer) => answer.status)).toEqual([200, 200]);
    // Later, the first refresh token again: someone kept a copy. The whole sign-in ends.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstUse + REUSE_GRACE_MS + 500 - Date.now())));
    const replay = await refreshGrant('carol', first);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('revoked') });
    for (let attempt = 0; attempt < 2; attempt++) expect((await refreshGrant('carol', second.refresh_token)).status).toBe(400);
    for (const answer of await onBothReplicas(second.access_token)) {
      expect(answer.status).toBe(401);
      expect(answer.challenge).toContain('error_description="Token was revoked"');
    }
    // And at the API's provider: the API token carol's calls used is no longer active.
    const upstream = apiTokens.get('carol')?.at(-1) ?? '';
    expect((await provider.introspect(upstream, API_CLIENT.id, API_CLIENT.secret))['active']).toBe(false);
    const logs = replicas.map((replica) => replica.stderr()).join('\n');
    expect(logs).toContain('a used refresh token was presented again: the sign-in of user "carol" is revoked');
  });

  it('revokes a sign-in at /oauth/revoke (RFC 7009) for every replica and at the API’s provider, only for its own client', async () => {
    const metadata = (await (await fetch(`${balancer.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata['revocation_endpoint']).toBe(`${balancer.url}/oauth/revoke`);
    const dave = await signIn('dave');
    expect((await square(dave.client)).isError ?? false).toBe(false);
    const tokens = dave.provider.tokens()!;
    // Another client cannot revoke dave's sign-in (answered as RFC 7009 says, changing nothing).
    const foreign = await form('/oauth/revoke', { token: tokens.refresh_token ?? '', client_id: clientIdOf('alice') });
    expect(foreign.status).toBe(200);
    expect((await onBothReplicas(tokens.access_token)).map((answer) => answer.status)).toEqual([200, 200]);
    const revoked = await form('/oauth/revoke', {
      token: tokens.refresh_token ?? '',
      token_type_hint: 'refresh_token',
      client_id: clientIdOf('dave'),
    });
    expect(revoked.status).toBe(200);
    for (const answer of await onBothReplicas(tokens.access_token)) {
      expect(answer.status).toBe(401);
      expect(answer.challenge).toContain('Token was revoked');
    }
    expect((await refreshGrant('dave', tokens.refresh_token ?? '')).status).toBe(400);
    const upstream = apiTokens.get('dave')?.at(-1) ?? '';
    expect((await provider.introspect(upstream, API_CLIENT.id, API_CLIENT.secret))['active']).toBe(false);
    // Other sign-ins go on.
    expect((await square(users.get('alice')!.client)).isError ?? false).toBe(false);
  });

  it('refuses an ID token that is not this sign-in’s own: replayed from another sign-in, or altered', async () => {
    const signedInAs = () =>
      replicas
        .map((replica) => replica.stderr())
        .join('\n')
        .match(/signed in: user "[^"]*"/g) ?? [];
    const before = signedInAs();
    expect(firstIdToken).toBeDefined();
    try {
      // Alice's ID token, valid in every other way (issuer, audience, expiry, signature), handed over for erin's sign-in.
      tampering = 'replay-first-id-token';
      await expect(signInAs(mcpUrl(), 'erin')).rejects.toThrow();
      // Erin's own ID token, rewritten to name alice: the signature no longer matches.
      tampering = 'alter-subject';
      await expect(signInAs(mcpUrl(), 'erin')).rejects.toThrow();
    } finally {
      tampering = 'none';
    }
    expect(signedInAs()).toEqual(before);
    const logs = replicas.map((replica) => replica.stderr()).join('\n');
    expect(logs).toMatch(/unexpected JWT "nonce"|nonce/);
    expect(logs).toMatch(/signature/i);
    // The same sign-in with the provider's own answers works.
    const erin = await signIn('erin');
    expect((await square(erin.client)).isError ?? false, textOf(await square(erin.client))).toBe(false);
  });

  it('shows errors of a request the user has not approved on a page, and the host approval sends the browser to', async () => {
    const register = async (metadata: Record<string, unknown>) =>
      fetch(`${balancer.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token_endpoint_auth_method: 'none', ...metadata }),
      });
    const registered = await register({ redirect_uris: ['https://evil.example\\@good.example/cb'], client_name: 'Helper\u202Etxt.exe' });
    expect(registered.status).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const challenge = randomBytes(32).toString('base64url');
    const authorize = (parameters: Record<string, string>) => {
      const url = new URL(`${balancer.url}/oauth/authorize`);
      const base = {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: 'https://evil.example\\@good.example/cb',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'xyz',
      };
      for (const [name, value] of Object.entries({ ...base, ...parameters })) url.searchParams.set(name, value);
      return fetch(url, { redirect: 'manual' });
    };
    const consent = await authorize({});
    expect(consent.status).toBe(200);
    const html = await consent.text();
    expect(html).toContain('goes to <strong>evil.example</strong> (<code>https://evil.example/@good.example/cb</code>)');
    expect(html).toContain('Helper[U+202E]txt.exe');
    expect(html).not.toContain('\u202E');
    const unverified: Array<Record<string, string>> = [
      { response_type: 'token' },
      { code_challenge_method: 'plain' },
      { code_challenge: 'short' },
      { resource: 'https://other.example/mcp' },
      { state: 'x'.repeat(3000) },
      { redirect_uri: 'https://good.example/cb' },
      { client_id: 'unknown-client' },
    ];
    for (const parameters of unverified) {
      const answer = await authorize(parameters);
      expect(answer.status, JSON.stringify(parameters)).toBe(400);
      expect(answer.headers.get('location'), JSON.stringify(parameters)).toBeNull();
      expect(answer.headers.get('content-type')).toContain('text/html');
    }
  });

  it('limits registrations in size, per source and per minute across the replicas, and gives them a lifetime', async () => {
    // `source`: the client's address as the outer proxy reports it in X-Forwarded-For.
    const register = (body: string, source?: string) =>
      fetch(`${balancer.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(source ? { 'x-forwarded-for': source } : {}) },
        body,
      });
    const metadata = (fields: Record<string, unknown>) =>
      JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none', ...fields });
    const oversized: Array<[string, number, string]> = [
      [metadata({ client_name: 'n'.repeat(300) }), 400, 'invalid_client_metadata'],
      [metadata({ redirect_uris: Array.from({ length: 6 }, (_, index) => `http://127.0.0.1:9/cb${index}`) }), 400, 'invalid_redirect_uri'],
      [metadata({ redirect_uris: [`https://app.example/${'p'.repeat(600)}`] }), 400, 'invalid_redirect_uri'],
      [metadata({ software_statement: 's'.repeat(9000) }), 413, 'invalid_client_metadata'],
    ];
    // Each from a source of its own: these test sizes, not the per-source limit.
    for (const [index, [body, status, error]] of oversized.entries()) {
      const answer = await register(body, `192.0.2.${10 + index}`);
      expect(answer.status).toBe(status);
      expect(await answer.json()).toMatchObject({ error });
    }
    // Five redirect URIs of up to 512 characters each would not fit a usable client_id: refused as a whole.
    const large = await register(
      metadata({ redirect_uris: Array.from({ length: 5 }, (_, index) => `https://app.example/${index}${'p'.repeat(480)}`) }),
      '192.0.2.30',
    );
    expect(large.status).toBe(400);
    expect(((await large.json()) as { error_description: string }).error_description).toContain('too large for a usable client_id');
    const confidential = await register(metadata({ token_endpoint_auth_method: 'client_secret_basic' }), '192.0.2.31');
    expect(confidential.status).toBe(201);
    const issued = (await confidential.json()) as { client_id: string; client_id_issued_at: number; client_secret_expires_at: number };
    expect(issued.client_id.length).toBeLessThanOrEqual(2048);
    expect(issued.client_secret_expires_at - issued.client_id_issued_at).toBe(90 * 86_400);
    // Registrations per minute count across both replicas: the store holds the counts. Started early in a minute, so
    // the whole burst falls into one.
    if (new Date().getSeconds() > 40) await new Promise((resolve) => setTimeout(resolve, (61 - new Date().getSeconds()) * 1000));
    const burst = async (source: string, attempts: number) => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < attempts; attempt++) {
        const answer = await register(metadata({}), source);
        statuses.push(answer.status);
        if (answer.status === 429) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      return statuses;
    };
    const created = (statuses: number[]) => statuses.filter((status) => status === 201).length;
    // One source gets its share and no more, whichever replica answers; another source is not held up by it, and
    // writing more addresses to the left of X-Forwarded-For does not make a source new.
    const first = await burst('203.0.113.7', 2 * REGISTRATIONS_PER_SOURCE);
    expect(created(first)).toBe(REGISTRATIONS_PER_SOURCE);
    expect(first.at(-1)).toBe(429);
    expect(await burst('198.51.100.20', 1)).toEqual([201]);
    expect(await burst('192.0.2.1, 203.0.113.7', 1)).toEqual([429]);
    // Many sources together stop at the deployment's limit.
    const many: number[] = [];
    for (let source = 1; source <= 6; source++) many.push(...(await burst(`198.51.100.${100 + source}`, REGISTRATIONS_PER_SOURCE)));
    expect(created(first) + 1 + created(many)).toBeLessThanOrEqual(REGISTRATIONS_PER_MINUTE);
    expect(many.at(-1)).toBe(429);
  });

  it('refuses to start with a sealing key that could be guessed, without its store, or without a public URL', async () => {
    const refusals: Array<[Record<string, string>, RegExp]> = [
      [{ [`${PREFIX}_OAUTH_SEALING_KEYS`]: Buffer.alloc(32).toString('base64') }, /key 1 repeats one byte value, so it could be guessed/],
      [
        { [`${PREFIX}_OAUTH_SEALING_KEYS`]: Buffer.from('0123456789'.repeat(4)).subarray(0, 32).toString('base64') },
        /too few distinct byte values/,
      ],
      [{ [`${PREFIX}_OAUTH_SEALING_KEYS`]: Buffer.from('The quick brown fox jumps over!!').toString('base64') }, /printable text/],
      [{ [`${PREFIX}_OAUTH_SEALING_KEYS`]: randomBytes(16).toString('base64') }, /key 1 is not 32 bytes/],
      [{ [`${PREFIX}_OAUTH_SEALING_KEYS`]: NEW_KEY, [`${PREFIX}_STORE_URL`]: 'redis://127.0.0.1:9' }, /the store could not be reached/],
      [{ [`${PREFIX}_OAUTH_SEALING_KEYS`]: NEW_KEY, [`${PREFIX}_PUBLIC_URL`]: '' }, /needs TIC_TAC_TOE_PUBLIC_URL/],
    ];
    for (const [overrides, message] of refusals)
      await expect(startHttpServer(dir, { ...env, ...overrides }), JSON.stringify(overrides)).rejects.toThrow(message);
  });

  it('fails closed while the store is unreachable: no refresh and no call goes through unchecked', async () => {
    const erin = users.get('erin')!;
    const tokens = erin.provider.tokens()!;
    expect((await onBothReplicas(tokens.access_token)).map((answer) => answer.status)).toEqual([200, 200]);
    await redis.close();
    const refresh = await refreshGrant('erin', tokens.refresh_token ?? '');
    expect(refresh.status).toBe(503);
    expect(await refresh.json()).toMatchObject({ error: 'temporarily_unavailable' });
    for (const answer of await onBothReplicas(tokens.access_token)) expect(answer.status).not.toBe(200);
  });
});

/**
 * A pass-through proxy to a token endpoint whose JSON answers go through `rewrite` on the way back: the stand-in for
 * someone who can change what this server receives as an ID token.
 */
async function startTokenProxy(target: string, rewrite: (answer: Record<string, unknown>) => Record<string, unknown>): Promise<Server> {
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'accept', 'dpop'])
        if (typeof incoming.headers[name] === 'string') headers[name] = incoming.headers[name];
      void fetch(target, { method: 'POST', headers, body: Buffer.concat(chunks) })
        .then(async (answer) => {
          const text = await answer.text();
          let body = text;
          try {
            body = JSON.stringify(rewrite(JSON.parse(text) as Record<string, unknown>));
          } catch {
            // Not JSON: passed on as it is.
          }
          outgoing.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
          outgoing.end(body);
        })
        .catch(() => outgoing.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** The same JWT with another `sub`, its header and signature kept. */
function withSubject(jwt: string, subject: string): string {
  const [header, payload, signature] = jwt.split('.');
  const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
  return [header, Buffer.from(JSON.stringify({ ...claims, sub: subject })).toString('base64url'), signature].join('.');
}
