import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/oauth-user.js';
import { startAuthorizationServer, TOKEN_EXCHANGE, tokenExchangeGrant, type AuthorizationServer } from '../helpers/oidc.js';
import { fixtureSpec } from '../helpers/paths.js';
import { buildProject, generateProject, linkDependencies, startHttpServer, tempDir, textOf, type HttpServer } from '../helpers/project.js';
import { startRoundRobin, type RoundRobin } from '../helpers/round-robin.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/**
 * `<PREFIX>_UPSTREAM_AUTH=token-exchange`: the MCP clients and the API trust the same identity provider (oidc-provider,
 * with an RFC 8693 grant on its extension point). Clients sign in there for this server (the official client's OAuth
 * support, via this server's protected-resource metadata); this server checks their tokens by introspection and
 * exchanges them for tokens whose audience is the API. Two replicas behind a round-robin balancer.
 */
const PREFIX = 'TIC_TAC_TOE';
const API = 'https://tictactoe.example/api';
const SERVER_CLIENT = { id: 'mcp-server', secret: `server-secret-${randomBytes(8).toString('hex')}` };
const API_CLIENT = { id: 'tictactoe-api', secret: `api-secret-${randomBytes(8).toString('hex')}` };
/** Seconds the clients' tokens for this server live: short, so that the test sees them expire. */
const CLIENT_TOKEN_TTL = 20;

type ApiCall = { path: string; token?: string; sub?: string; aud?: unknown; active: boolean };

describe('upstream token exchange: each user’s token is exchanged for one meant for the API', () => {
  let dir: string;
  let balancer: RoundRobin;
  let idp: AuthorizationServer;
  let api: Upstream;
  let replicas: HttpServer[] = [];
  let env: Record<string, string>;
  const calls: ApiCall[] = [];
  const refused = new Set<string>();
  const users = new Map<string, SignedIn>();
  let exchanges = 0;
  const mcpResource = () => `${balancer.url}/mcp`;

  beforeAll(async () => {
    dir = await tempDir('upstream-exchange-e2e');
    await generateProject({ spec: fixtureSpec('oai-tictactoe.yaml'), out: dir });
    await linkDependencies(dir);
    await buildProject(dir);
    balancer = await startRoundRobin();
    idp = await startAuthorizationServer({
      clients: [
        {
          client_id: SERVER_CLIENT.id,
          client_secret: SERVER_CLIENT.secret,
          redirect_uris: [],
          response_types: [],
          grant_types: [TOKEN_EXCHANGE, 'client_credentials'],
        },
        { client_id: API_CLIENT.id, client_secret: API_CLIENT.secret, redirect_uris: [], grant_types: [], response_types: [] },
      ],
      resources: {
        [mcpResource()]: { scope: 'mcp', accessTokenTTL: CLIENT_TOKEN_TTL },
        [API]: { scope: 'board:read board:write', accessTokenTTL: 300 },
      },
      defaultResource: mcpResource(),
      scopes: ['mcp', 'board:read', 'board:write'],
      registration: true,
      extend: tokenExchangeGrant({
        exchanger: SERVER_CLIENT.id,
        from: mcpResource(),
        to: API,
        scope: 'board:read board:write',
        refuse: new Set(['mallory']),
      }),
    });
    idp.provider.on('grant.success', (ctx) => {
      if ((ctx.oidc.params as Record<string, unknown>)['grant_type'] === TOKEN_EXCHANGE) exchanges++;
    });
    api = await startUpstream();
    api.reply = async (request) => {
      const token = /^Bearer (.+)$/.exec(String(request.headers['authorization'] ?? ''))?.[1];
      const info = token ? await idp.introspect(token, API_CLIENT.id, API_CLIENT.secret) : {};
      const sub = typeof info['sub'] === 'string' ? info['sub'] : undefined;
      const active = info['active'] === true && info['aud'] === API && !refused.has(sub ?? '');
      calls.push({ path: request.path, ...(token ? { token } : {}), ...(sub ? { sub } : {}), aud: info['aud'], active });
      if (request.path === '/board') return { body: JSON.stringify({ winner: '.', board: [] }) };
      if (!active) return { status: 401, body: '{"error":"invalid_token"}' };
      return { body: JSON.stringify('X') };
    };
    env = {
      [`${PREFIX}_BASE_URL`]: api.url,
      [`${PREFIX}_MCP_AUTH_ISSUER`]: idp.issuer,
      [`${PREFIX}_MCP_AUTH_INTROSPECTION_URL`]: `${idp.issuer}/token/introspection`,
      [`${PREFIX}_MCP_AUTH_CLIENT_ID`]: SERVER_CLIENT.id,
      [`${PREFIX}_MCP_AUTH_CLIENT_SECRET`]: SERVER_CLIENT.secret,
      [`${PREFIX}_MCP_AUTH_RESOURCE`]: mcpResource(),
      [`${PREFIX}_MCP_AUTH_SCOPES`]: 'mcp',
      [`${PREFIX}_UPSTREAM_AUTH`]: 'token-exchange',
      [`${PREFIX}_UPSTREAM_TOKEN_URL`]: `${idp.issuer}/token`,
      [`${PREFIX}_UPSTREAM_CLIENT_ID`]: SERVER_CLIENT.id,
      [`${PREFIX}_UPSTREAM_CLIENT_SECRET`]: SERVER_CLIENT.secret,
      [`${PREFIX}_UPSTREAM_RESOURCE`]: API,
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
    await idp?.close();
  });

  const square = (client: Client, row: number) =>
    client.callTool({ name: 'board_read', arguments: { action: 'get_square', row, column: 1 } });
  const rawCall = (token: string, origin = balancer.url) =>
    fetch(new URL('/mcp', origin), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
  const expectChallenge = async (answer: Response, description: string) => {
    expect(answer.status).toBe(401);
    const challenge = answer.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain(`error_description="${description}"`);
    expect(challenge).toContain(`resource_metadata="${balancer.url}/.well-known/oauth-protected-resource/mcp"`);
  };

  it('calls the API with a token exchanged for each user, never with the client’s own token', async () => {
    for (const user of ['alice', 'bob']) users.set(user, await signIn(new URL(mcpResource()), user));
    const alice = users.get('alice')!;
    const bob = users.get('bob')!;
    const results = await Promise.all([square(alice.client, 1), square(bob.client, 2), square(alice.client, 3), square(bob.client, 3)]);
    for (const result of results) expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(calls.every((call) => call.active && call.aud === API)).toBe(true);
    expect(
      calls
        .filter((call) => call.sub === 'alice')
        .map((call) => call.path)
        .sort(),
    ).toEqual(['/board/1/1', '/board/3/1']);
    expect(
      calls
        .filter((call) => call.sub === 'bob')
        .map((call) => call.path)
        .sort(),
    ).toEqual(['/board/2/1', '/board/3/1']);
    const clientTokens = [alice, bob].map(({ provider }) => provider.tokens()?.access_token);
    for (const call of calls) expect(clientTokens).not.toContain(call.token);
    const aliceTokens = new Set(calls.filter((call) => call.sub === 'alice').map((call) => call.token));
    const bobTokens = new Set(calls.filter((call) => call.sub === 'bob').map((call) => call.token));
    expect([...aliceTokens].some((token) => bobTokens.has(token))).toBe(false);
    for (const served of balancer.served) expect(served.filter((request) => request === 'POST /mcp').length).toBeGreaterThan(1);
  });

  it('reuses an exchanged token per user on each replica, never across users', async () => {
    const before = exchanges;
    calls.length = 0;
    const alice = users.get('alice')!;
    for (let row = 1; row <= 3; row++) expect((await square(alice.client, row)).isError ?? false).toBe(false);
    // One exchange per replica at most: later calls reuse what the replica got.
    expect(exchanges - before).toBeLessThanOrEqual(1);
    expect(new Set(calls.map((call) => call.token)).size).toBeLessThanOrEqual(2);
    expect(calls.every((call) => call.sub === 'alice')).toBe(true);
  });

  it('answers a cut result’s link with the reader’s own token: the link names the request, not who made it', async () => {
    const alice = users.get('alice')!;
    const bob = users.get('bob')!;
    const original = api.reply;
    const long = 'X'.repeat(60_000);
    api.reply = async (request) => {
      const answer = await original(request);
      return request.path === '/board/3/2' && answer.status === undefined ? { body: JSON.stringify(long) } : answer;
    };
    try {
      calls.length = 0;
      const result = await alice.client.callTool({ name: 'board_read', arguments: { action: 'get_square', row: 3, column: 2 } });
      const link = (result.content as Array<{ type: string; uri?: string }>).find((item) => item.type === 'resource_link');
      expect(link?.uri, textOf(result)).toBeDefined();
      const read = await bob.client.readResource({ uri: link?.uri as string });
      expect((read.contents[0] as { text?: string }).text).toBe(JSON.stringify(long));
      expect(calls.map((call) => `${call.sub} ${call.path} ${call.active}`)).toEqual(['alice /board/3/2 true', 'bob /board/3/2 true']);
    } finally {
      api.reply = original;
    }
  });

  it('refuses forged tokens, tokens for another audience and tokens that name no user', async () => {
    await expectChallenge(await rawCall('forged-token-0123456789'), 'Token is not active');
    // The API's token (exchanged for alice) is not a token for this server.
    const apiToken = calls.find((call) => call.sub === 'alice')?.token ?? '';
    await expectChallenge(await rawCall(apiToken), 'Token was not issued for this server');
    // A token of the server's own client (client credentials) is for this server, but speaks for nobody.
    const anonymous = await fetch(`${idp.issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${SERVER_CLIENT.id}:${SERVER_CLIENT.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: mcpResource(), scope: 'mcp' }),
    });
    const { access_token: machineToken } = (await anonymous.json()) as { access_token: string };
    await expectChallenge(await rawCall(machineToken), 'Token names no user');
  });

  it('refuses a token issued for another server on the same host, whatever Host header it comes with', async () => {
    // Another deployment on this host, behind the same identity provider, whose public URL names another port.
    const gate = {
      [`${PREFIX}_BASE_URL`]: api.url,
      [`${PREFIX}_MCP_AUTH_INTROSPECTION_URL`]: `${idp.issuer}/token/introspection`,
      [`${PREFIX}_MCP_AUTH_CLIENT_ID`]: SERVER_CLIENT.id,
      [`${PREFIX}_MCP_AUTH_CLIENT_SECRET`]: SERVER_CLIENT.secret,
    };
    await expect(startHttpServer(dir, gate)).rejects.toThrow(/set TIC_TAC_TOE_PUBLIC_URL to the origin clients reach it at/);
    const other = await startHttpServer(dir, { ...gate, [`${PREFIX}_PUBLIC_URL`]: 'http://127.0.0.1:9' });
    try {
      // Alice's token names this deployment (the balancer's port). Sent to the other one, even with this one's Host.
      const token = users.get('alice')?.provider.tokens()?.access_token ?? '';
      const answer = await postWithHost(new URL('/mcp', other.url), new URL(balancer.url).host, token);
      expect(answer.status).toBe(401);
      expect(answer.challenge).toContain('error_description="Token was not issued for this server"');
    } finally {
      await other.stop();
    }
  });

  it('answers the identity provider’s refusal and the API’s refusal with HTTP 401 and a challenge to sign in again', async () => {
    const mallory = await signIn(new URL(mcpResource()), 'mallory');
    users.set('mallory', mallory);
    const squareCall = (token: string) =>
      fetch(new URL('/mcp', balancer.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'board_read', arguments: { action: 'get_square', row: 1, column: 1 } },
        }),
      });
    const denied = await squareCall(mallory.provider.tokens()?.access_token ?? '');
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await denied.text()).toContain('would not exchange your sign-in for a token for Tic Tac Toe (invalid_grant)');
    await expect(square(mallory.client, 1)).rejects.toThrow();
    expect(calls.some((call) => call.sub === 'mallory')).toBe(false);

    const bob = users.get('bob')!;
    refused.add('bob');
    const refusedCall = await squareCall(bob.provider.tokens()?.access_token ?? '');
    expect(refusedCall.status).toBe(401);
    expect(await refusedCall.text()).toContain('Sign in again');
    await expect(square(bob.client, 1)).rejects.toThrow();
    refused.delete('bob');
    // The refused token was forgotten: the next calls exchange again, and work.
    const before = exchanges;
    for (let attempt = 0; attempt < 2; attempt++) expect((await square(bob.client, 2)).isError ?? false).toBe(false);
    expect(exchanges - before).toBeGreaterThanOrEqual(1);
  });

  it('limits each user’s calls on their own', async () => {
    const limited = await startHttpServer(dir, { ...env, [`${PREFIX}_RATE_LIMIT`]: '2' });
    const { Client: McpClient, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const connect = async (user: string) => {
      const client = new McpClient({ name: `${user}-limited`, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(new StreamableHTTPClientTransport(new URL(limited.url), { authProvider: users.get(user)!.provider }));
      return client;
    };
    const [alice, bob] = [await connect('alice'), await connect('bob')];
    try {
      for (let call = 0; call < 2; call++) expect((await square(alice, 1)).isError ?? false).toBe(false);
      const over = await square(alice, 1);
      expect(over.isError).toBe(true);
      expect(textOf(over)).toContain('Too many tool calls');
      expect((await square(bob, 1)).isError ?? false).toBe(false);
    } finally {
      await alice.close();
      await bob.close();
      await limited.stop();
    }
  });

  it('refuses an expired client token with a challenge; the client refreshes it at the identity provider', async () => {
    const alice = users.get('alice')!;
    const expired = alice.provider.tokens()?.access_token ?? '';
    await new Promise((resolve) => setTimeout(resolve, CLIENT_TOKEN_TTL * 1000 + 500));
    const answer = await rawCall(expired);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await square(alice.client, 2)).isError ?? false).toBe(false);
    expect(alice.provider.tokens()?.access_token).not.toBe(expired);
    expect(calls.at(-1)).toMatchObject({ sub: 'alice', active: true });
  });

  it('logs users by subject and never logs a token', () => {
    const logs = replicas.map((replica) => replica.stderr()).join('\n');
    expect(logs).toContain('user "alice": board_read/get_square GET /board/');
    expect(logs).toContain('user "bob": board_read/get_square GET /board/');
    const secrets = [
      ...calls.flatMap((call) => (call.token ? [call.token] : [])),
      ...[...users.values()].flatMap(({ provider }) => [provider.tokens()?.access_token ?? '']),
      SERVER_CLIENT.secret,
    ];
    for (const secret of secrets) expect(secret.length > 10 && logs.includes(secret)).toBe(false);
  });
});

/** tools/list with a bearer token and a Host header of our choosing (fetch always sends the URL's own host). */
function postWithHost(url: URL, host: string, token: string): Promise<{ status: number; challenge: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        },
      },
      (incoming) => {
        incoming.resume();
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, challenge: String(incoming.headers['www-authenticate'] ?? '') }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
  });
}
