import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolModel } from '../../src/plan/tool-plan.js';
import { signIn, type SignedIn } from '../helpers/oauth-user.js';
import {
  type AuthorizationServer,
  resourceServerClient,
  signInClient,
  startAuthorizationServer,
  TOKEN_EXCHANGE,
  tokenExchangeGrant,
} from '../helpers/oidc.js';
import { fixtureSpec } from '../helpers/paths.js';
import { buildProject, generateProject, linkDependencies, startHttpServer, tempDir, textOf, type HttpServer } from '../helpers/project.js';
import { startRoundRobin, type RoundRobin } from '../helpers/round-robin.js';
import { startUpstream, type RecordedRequest, type Upstream } from '../helpers/upstream.js';

/**
 * Discord's description in the per-user modes: 181 of its 242 operations take only the bot token (`BotToken`), which
 * would act as the deployment's bot, not as the signed-in user. Generated with one of them (`get_channel`) named for
 * shared credentials, built, and served by two replicas behind a round-robin balancer per mode, with oidc-provider
 * as the API's authorization server (`oauth`) or the identity provider (`token-exchange`), and a recording API that
 * checks each user token there. Nothing but `get_channel` may ever reach the API with the bot token.
 */
const PREFIX = 'DISCORD';
const API = 'https://discord.example/api';
const BOT_TOKEN = `Bot bot-token-${randomBytes(8).toString('hex')}`;
const SERVER_CLIENT = { id: 'mcp-server', secret: `server-secret-${randomBytes(8).toString('hex')}` };
const API_CLIENT = { id: 'discord-api', secret: `api-secret-${randomBytes(8).toString('hex')}` };
const SHARED = 'get_channel';

let dir: string;
let tools: ToolModel[];
let api: Upstream;
/** The provider the API checks user tokens at: the current mode's. */
let checker: AuthorizationServer | undefined;
/** Users whose tokens the API refuses (revoked there). */
const revoked = new Set<string>();
type Seen = { path: string; method: string; bot: boolean; sub?: string };
const seen: Seen[] = [];
/** Every request that carried the bot token, over both modes. */
const withBotToken: Seen[] = [];

beforeAll(async () => {
  dir = await tempDir('per-user-discord');
  const spec = path.join(path.dirname(dir), `${path.basename(dir)}-discord.json`);
  await writeFile(spec, gunzipSync(await readFile(fixtureSpec('discord-openapi.json.gz'))));
  const generated = await generateProject({ spec, out: dir, sharedCredentials: { operations: [SHARED] } });
  tools = generated.plan?.tools ?? [];
  await linkDependencies(dir);
  await buildProject(dir);
  api = await startUpstream();
  api.reply = async (request: RecordedRequest) => {
    const authorization = String(request.headers['authorization'] ?? '');
    const bot = authorization === BOT_TOKEN;
    const token = /^Bearer (.+)$/.exec(authorization)?.[1];
    const info = token && checker ? await checker.introspect(token, API_CLIENT.id, API_CLIENT.secret) : {};
    const sub = typeof info['sub'] === 'string' ? info['sub'] : undefined;
    seen.push({ path: request.path, method: request.method, bot, ...(sub ? { sub } : {}) });
    if (bot) withBotToken.push({ path: request.path, method: request.method, bot });
    const active = bot || (info['active'] === true && info['aud'] === API && !revoked.has(sub ?? ''));
    if (!active) return { status: 401, body: '{"message": "401: Unauthorized", "code": 0}' };
    return { body: JSON.stringify({ id: '41771983423143937', username: bot ? 'the-bot' : sub, secret_of: bot ? 'bot' : 'user' }) };
  };
}, 600_000);

afterAll(async () => {
  await api?.close();
});

/** What the per-user modes must list: the plan's per-user views, tool by tool, with their actions. */
function expectedListing(): Map<string, string[]> {
  const listing = new Map<string, string[]>();
  for (const tool of tools) {
    const actions = tool.perUser ? tool.perUser.actions : tool.actions.map((action) => action.name);
    if (actions.length > 0) listing.set(tool.name, actions);
  }
  return listing;
}

/** oidc-provider as Discord's authorization server for the `oauth` mode, and the provider the API checks tokens at. */
async function startDiscordProvider(balancer: RoundRobin): Promise<AuthorizationServer> {
  const provider = await startAuthorizationServer({
    clients: [
      signInClient(SERVER_CLIENT.id, SERVER_CLIENT.secret, `${balancer.url}/oauth/callback`),
      resourceServerClient(API_CLIENT.id, API_CLIENT.secret),
    ],
    resources: { [API]: { scope: 'identify', accessTokenTTL: 300 } },
    defaultResource: API,
    scopes: ['openid', 'identify'],
  });
  checker = provider;
  return provider;
}

/** The `oauth` mode's environment of a server behind `balancer`, signing users in at `provider`. */
function oauthEnv(balancer: RoundRobin, provider: AuthorizationServer): Record<string, string> {
  return {
    [`${PREFIX}_BASE_URL`]: api.url,
    [`${PREFIX}_BOT_TOKEN`]: BOT_TOKEN,
    [`${PREFIX}_UPSTREAM_AUTH`]: 'oauth',
    [`${PREFIX}_PUBLIC_URL`]: balancer.url,
    [`${PREFIX}_OAUTH_SEALING_KEYS`]: randomBytes(32).toString('base64'),
    [`${PREFIX}_UPSTREAM_CLIENT_ID`]: SERVER_CLIENT.id,
    [`${PREFIX}_UPSTREAM_CLIENT_SECRET`]: SERVER_CLIENT.secret,
    // ID tokens are checked against their issuer, found by discovery.
    [`${PREFIX}_UPSTREAM_ISSUER`]: provider.issuer,
    [`${PREFIX}_UPSTREAM_SCOPES`]: 'openid identify',
  };
}

/** The checks both modes share, against a signed-in user's client and a bearer token of that user. */
function servesOnlyTheUser(context: () => { alice: SignedIn; balancer: RoundRobin; replicas: HttpServer[] }) {
  const rawCall = (token: string, name: string, args: Record<string, unknown>) =>
    fetch(new URL('/mcp', context().balancer.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }),
    });

  it('lists only what the user’s own token can do, each tool’s description and action enum saying no more', async () => {
    const { alice } = context();
    const listed = (await alice.client.listTools()).tools;
    const expected = expectedListing();
    expect(new Set(listed.map((tool) => tool.name))).toEqual(new Set(expected.keys()));
    let offered = 0;
    for (const tool of listed) {
      const actions = expected.get(tool.name) ?? [];
      offered += actions.length;
      const selector = (tool.inputSchema.properties?.['action'] as { enum?: string[] } | undefined)?.enum;
      // A grouped tool keeps its selector, whatever is left of it: calls have the same shape in every mode.
      const all = tools.find((candidate) => candidate.name === tool.name)?.actions.map((action) => action.name) ?? [];
      if (all.length > 1) expect(selector, tool.name).toEqual(actions);
      else expect(selector, tool.name).toBeUndefined();
      // The description's action lines name the offered actions and none of the others.
      for (const action of all)
        if (action)
          expect(new RegExp(`^- ${action}\\b`, 'm').test(tool.description ?? ''), `${tool.name} ${action}`).toBe(
            actions.includes(action) && actions.length > 1,
          );
    }
    // 61 actions the user's token authorizes (or that need no credential), and the one named for shared credentials.
    expect(offered).toBe(62);
    expect(listed.some((tool) => tool.name === 'channels_delete')).toBe(false);
    const shared = listed.find((tool) => tool.name === 'channels_read');
    expect(shared?.description).toContain("use this server's own API credentials, shared by every user, not the signed-in user's");
  });

  it('calls the API with the user’s token, and with the bot token only for the operation named for shared credentials', async () => {
    const { alice } = context();
    seen.length = 0;
    const me = await alice.client.callTool({ name: 'users_read', arguments: { action: 'get_my_user' } });
    expect(me.isError ?? false, textOf(me)).toBe(false);
    expect(seen.at(-1)).toMatchObject({ path: '/users/@me', bot: false, sub: 'alice' });
    const channel = await alice.client.callTool({
      name: 'channels_read',
      arguments: { action: 'get', channel_id: '41771983423143937' },
    });
    expect(channel.isError ?? false, textOf(channel)).toBe(false);
    expect(seen.at(-1)).toMatchObject({ path: '/channels/41771983423143937', method: 'GET', bot: true });
    expect(JSON.stringify(channel)).not.toContain(BOT_TOKEN.slice(4));
  });

  it('refuses what is not offered, sending nothing', async () => {
    const { alice } = context();
    seen.length = 0;
    const deleted = await alice.client
      .callTool({ name: 'channels_delete', arguments: { action: 'delete', channel_id: '41771983423143937' } })
      .then(
        (result) => textOf(result),
        (error: unknown) => String(error),
      );
    expect(deleted).toMatch(/channels_delete.*not found|Unknown tool/i);
    const guild = await alice.client.callTool({ name: 'guilds_read', arguments: { action: 'get_guild', guild_id: '41771983423143937' } });
    expect(guild.isError).toBe(true);
    expect(seen).toEqual([]);
  });

  it('answers a user the API revoked with HTTP 401 and a challenge to sign in again, never with data', async () => {
    const { alice, balancer } = context();
    revoked.add('alice');
    try {
      seen.length = 0;
      const answer = await rawCall(alice.provider.tokens()?.access_token ?? '', 'users_read', { action: 'get_my_user' });
      expect(answer.status).toBe(401);
      const challenge = answer.headers.get('www-authenticate') ?? '';
      expect(challenge).toContain('error="invalid_token"');
      expect(challenge).toContain(`resource_metadata="${balancer.url}/.well-known/oauth-protected-resource/mcp"`);
      const body = await answer.text();
      expect(body).toContain('Sign in again');
      expect(body).not.toContain('the-bot');
      expect(seen.map((request) => request.bot)).toEqual([false]);
    } finally {
      revoked.delete('alice');
    }
  });

  it('sent the bot token only for the operation named for shared credentials', () => {
    expect(withBotToken.length).toBeGreaterThan(0);
    for (const request of withBotToken) expect(`${request.method} ${request.path}`).toBe('GET /channels/41771983423143937');
  });

  it('says at start what it does not offer and what uses the shared credentials', () => {
    const logs = context()
      .replicas.map((replica) => replica.stderr())
      .join('\n');
    expect(logs).toContain('Per-user mode: 180 of 242 actions are not offered (72 reads, 76 writes, 32 deletions)');
    expect(logs).toContain('channels_delete/delete');
    expect(logs).toMatch(/shared by every signed-in user \(sharedCredentials\), 1: channels_read\/get\./);
    expect(logs).not.toContain(BOT_TOKEN.slice(4));
  });
}

describe('oauth mode on Discord: the bot token never acts for a signed-in user', () => {
  let balancer: RoundRobin;
  let provider: AuthorizationServer;
  let replicas: HttpServer[] = [];
  let alice: SignedIn;

  beforeAll(async () => {
    balancer = await startRoundRobin();
    provider = await startDiscordProvider(balancer);
    const env = oauthEnv(balancer, provider);
    replicas = await Promise.all([startHttpServer(dir, env), startHttpServer(dir, env)]);
    balancer.targets = replicas.map((replica) => new URL(replica.url).origin);
    alice = await signIn(new URL('/mcp', balancer.url), 'alice');
  }, 120_000);

  afterAll(async () => {
    await alice?.client.close().catch(() => undefined);
    for (const replica of replicas) await replica.stop();
    await balancer?.close();
    await provider?.close();
  });

  servesOnlyTheUser(() => ({ alice, balancer, replicas }));
});

/**
 * The same in `oauth` mode on the search surface (`--surface search`): the catalog holds all 242 actions, so what a
 * user may reach is decided per call — no search proposes an action the user's token cannot do, and calling one by
 * its id sends nothing.
 */
describe('oauth mode on the search surface of Discord: a search never offers what only the bot token may do', () => {
  let searchDir: string;
  let searchTools: ToolModel[];
  let balancer: RoundRobin;
  let provider: AuthorizationServer;
  let replica: HttpServer | undefined;
  let alice: SignedIn;
  type Found = { action: string; call: string; variants?: Array<{ action: string }> };

  /** Catalog ids (`tool.action`, the tool alone for a single-action tool) of what the user's token may do. */
  const offeredIds = (): Set<string> => {
    const ids = new Set<string>();
    for (const tool of searchTools) {
      const offered = tool.perUser ? tool.perUser.actions : tool.actions.map((action) => action.name);
      for (const action of offered) ids.add(tool.actions.length === 1 ? tool.name : `${tool.name}.${action}`);
    }
    return ids;
  };

  beforeAll(async () => {
    searchDir = await tempDir('per-user-discord-search');
    const spec = path.join(path.dirname(searchDir), `${path.basename(searchDir)}-discord.json`);
    await writeFile(spec, gunzipSync(await readFile(fixtureSpec('discord-openapi.json.gz'))));
    const generated = await generateProject({ spec, out: searchDir, surface: 'search', sharedCredentials: { operations: [SHARED] } });
    searchTools = generated.plan?.tools ?? [];
    await linkDependencies(searchDir);
    await buildProject(searchDir);
    balancer = await startRoundRobin();
    provider = await startDiscordProvider(balancer);
    replica = await startHttpServer(searchDir, oauthEnv(balancer, provider));
    balancer.targets = [new URL(replica.url).origin];
    alice = await signIn(new URL('/mcp', balancer.url), 'alice');
  }, 600_000);

  afterAll(async () => {
    await alice?.client.close().catch(() => undefined);
    await replica?.stop();
    await balancer?.close();
    await provider?.close();
  });

  const search = async (query: string): Promise<Found[]> => {
    const result = await alice.client.callTool({ name: 'search_actions', arguments: { query, limit: 10 } });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    return (result.structuredContent as { results?: Found[] } | undefined)?.results ?? [];
  };

  it('proposes only actions the user’s own token can do, whatever is asked', async () => {
    const offered = offeredIds();
    // 61 the user's token authorizes (or that need no credential), and the one named for shared credentials.
    expect(offered.size).toBe(62);
    let proposed = 0;
    for (const query of [
      'delete a channel',
      'ban a member from a guild',
      'send a message',
      'create a webhook',
      'roles',
      'my user',
      'application commands',
      'invite',
    ]) {
      for (const found of await search(query)) {
        for (const id of [found.action, ...(found.variants ?? []).map((variant) => variant.action)]) {
          expect(offered.has(id), `${query}: ${id}`).toBe(true);
          proposed++;
        }
      }
    }
    expect(proposed).toBeGreaterThan(10);
  });

  it('calls what it offers with the user’s token, and the shared operation with the bot token', async () => {
    seen.length = 0;
    const me = await alice.client.callTool({ name: 'call_read_action', arguments: { action: 'users_read.get_my_user', arguments: {} } });
    expect(me.isError ?? false, textOf(me)).toBe(false);
    expect(seen.at(-1)).toMatchObject({ path: '/users/@me', bot: false, sub: 'alice' });
    const channel = await alice.client.callTool({
      name: 'call_read_action',
      arguments: { action: 'channels_read.get', arguments: { channel_id: '41771983423143937' } },
    });
    expect(channel.isError ?? false, textOf(channel)).toBe(false);
    expect(seen.at(-1)).toMatchObject({ path: '/channels/41771983423143937', bot: true });
    expect(JSON.stringify([me, channel])).not.toContain(BOT_TOKEN.slice(4));
  });

  it('refuses an action only the bot token may do when called by its id, sending nothing', async () => {
    seen.length = 0;
    const deleted = await alice.client.callTool({
      name: 'call_delete_action',
      arguments: { action: 'channels_delete.delete', arguments: { channel_id: '41771983423143937' } },
    });
    expect(deleted.isError).toBe(true);
    // Said as for an id that does not exist, with close matches the user may call instead (none of them the bot's).
    expect(textOf(deleted)).toContain('There is no action "channels_delete.delete".');
    const suggested = /Close matches: (.*?)\. Find the id/.exec(textOf(deleted))?.[1]?.split(', ') ?? [];
    for (const id of suggested) expect(offeredIds().has(id), id).toBe(true);
    const guild = await alice.client.callTool({
      name: 'call_read_action',
      arguments: { action: 'guilds_read.get', arguments: { guild_id: '41771983423143937' } },
    });
    expect(guild.isError).toBe(true);
    expect(textOf(guild)).toContain('There is no action "guilds_read.get".');
    expect(seen).toEqual([]);
  });
});

describe('token-exchange mode on Discord: the bot token never acts for a signed-in user', () => {
  let balancer: RoundRobin;
  let idp: AuthorizationServer;
  let replicas: HttpServer[] = [];
  let alice: SignedIn;
  let mallory: SignedIn;
  const mcpResource = () => `${balancer.url}/mcp`;

  beforeAll(async () => {
    balancer = await startRoundRobin();
    idp = await startAuthorizationServer({
      clients: [
        {
          client_id: SERVER_CLIENT.id,
          client_secret: SERVER_CLIENT.secret,
          redirect_uris: [],
          response_types: [],
          grant_types: [TOKEN_EXCHANGE],
        },
        resourceServerClient(API_CLIENT.id, API_CLIENT.secret),
      ],
      resources: { [mcpResource()]: { scope: 'mcp', accessTokenTTL: 300 }, [API]: { scope: 'identify', accessTokenTTL: 300 } },
      defaultResource: mcpResource(),
      scopes: ['mcp', 'identify'],
      registration: true,
      extend: tokenExchangeGrant({
        exchanger: SERVER_CLIENT.id,
        from: mcpResource(),
        to: API,
        scope: 'identify',
        refuse: new Set(['mallory']),
      }),
    });
    checker = idp;
    const env = {
      [`${PREFIX}_BASE_URL`]: api.url,
      [`${PREFIX}_BOT_TOKEN`]: BOT_TOKEN,
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
      [`${PREFIX}_UPSTREAM_SCOPES`]: 'identify',
    };
    replicas = await Promise.all([startHttpServer(dir, env), startHttpServer(dir, env)]);
    balancer.targets = replicas.map((replica) => new URL(replica.url).origin);
    alice = await signIn(new URL(mcpResource()), 'alice');
    mallory = await signIn(new URL(mcpResource()), 'mallory');
  }, 120_000);

  afterAll(async () => {
    for (const user of [alice, mallory]) await user?.client.close().catch(() => undefined);
    for (const replica of replicas) await replica.stop();
    await balancer?.close();
    await idp?.close();
  });

  servesOnlyTheUser(() => ({ alice, balancer, replicas }));

  it('answers a user the identity provider refuses to exchange for with HTTP 401, sending nothing to the API', async () => {
    seen.length = 0;
    const answer = await fetch(new URL('/mcp', balancer.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${mallory.provider.tokens()?.access_token ?? ''}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'users_read', arguments: { action: 'get_my_user' } },
      }),
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await answer.text()).toContain('would not exchange your sign-in');
    // Through the official client: the challenge sends it back to sign in, and no call reaches the API.
    await expect(mallory.client.callTool({ name: 'users_read', arguments: { action: 'get_my_user' } })).rejects.toThrow();
    expect(seen).toEqual([]);
  });
});
