import { describe, expect, it } from 'vitest';
import { applyCredentials } from '../../../templates/runtime/credentials/auth.js';
import type { Caller } from '../../../templates/runtime/credentials/callers.js';
import { offeredPerUser, perUserReport, perUserTool } from '../../../templates/runtime/calls/per-user-tools.js';
import type { ActionRoute, ToolDefinition } from '../../../templates/runtime/core/types.js';

// The fixture API (fixture/api.ts): the user scheme is `bearer`; `headerKey` (X-FTL-SID), `queryKey`, `cookieKey`
// are API keys, `basic` is HTTP basic.
const alice: Caller = {
  subject: 'alice',
  upstreamToken: async () => 'alice-token-0123',
  refused: () => undefined,
  signInAgain: 'Sign in again.',
};
const env = {
  FIXTURE_BEARER: 'deployment-token-0123',
  FIXTURE_HEADER_KEY: 'app-key-0123',
  FIXTURE_QUERY_KEY: 'query-key-0123',
  FIXTURE_BASIC_USERNAME: 'operator',
  FIXTURE_BASIC_PASSWORD: 'operator-password',
};

const route = (security: string[][], extra: Partial<ActionRoute> = {}): ActionRoute => ({
  operationId: 'op',
  method: 'delete',
  path: '/channels/{id}',
  arguments: [],
  required: [],
  security,
  accepts: [],
  ...extra,
});

async function sent(security: string[][], caller?: Caller, extra: Partial<ActionRoute> = {}) {
  const headers = new Headers();
  const url = new URL('https://api.example.com/x');
  const cookies: string[] = [];
  await applyCredentials(route(security, extra), url, headers, cookies, env, caller);
  return { headers: Object.fromEntries(headers), query: url.search, cookies };
}

describe('per-user credentials never act as the deployment', () => {
  it('refuse an operation only the environment’s credentials authorize, sending nothing', async () => {
    for (const security of [[['headerKey']], [['basic']], [['queryKey'], ['basic']], [['headerKey', 'queryKey']]])
      await expect(sent(security, alice), JSON.stringify(security)).rejects.toThrow(
        /only this server's own credentials .* authorize DELETE \/channels\/\{id\}.*Nothing was sent/,
      );
  });

  it('send the user’s token with the app keys of the same alternative, and nothing of the deployment besides', async () => {
    expect(await sent([['headerKey'], ['bearer', 'queryKey']], alice)).toEqual({
      headers: { authorization: 'Bearer alice-token-0123' },
      query: '?sid=query-key-0123',
      cookies: [],
    });
    // Basic would replace the user's token in Authorization: that alternative is not the user's.
    await expect(sent([['bearer', 'basic']], alice)).rejects.toThrow(/Nothing was sent/);
  });

  it('send nothing for an operation that needs no credential, even when the environment has one for it', async () => {
    expect(await sent([[], ['headerKey']], alice)).toEqual({ headers: {}, query: '', cookies: [] });
    expect(await sent([], alice)).toEqual({ headers: {}, query: '', cookies: [] });
  });

  it('use the environment’s credentials only where the configuration named the operation for them', async () => {
    expect(await sent([['headerKey']], alice, { sharedCredentials: true })).toEqual({
      headers: { 'x-ftl-sid': 'app-key-0123' },
      query: '',
      cookies: [],
    });
  });

  it('leave env mode as it was', async () => {
    expect(await sent([['headerKey']])).toMatchObject({ headers: { 'x-ftl-sid': 'app-key-0123' } });
    expect(await sent([['bearer']])).toMatchObject({ headers: { authorization: 'Bearer deployment-token-0123' } });
  });
});

describe('per-user views of tools', () => {
  const routeOf = (security: string[][], extra: Partial<ActionRoute> = {}) => route(security, extra);
  const tool = (
    name: string,
    actions: Record<string, ActionRoute>,
    perUser?: ToolDefinition['perUser'],
    destructive = false,
  ): ToolDefinition => ({
    name,
    title: `${name} title`,
    description: `${name} description`,
    annotations: { readOnlyHint: false, destructiveHint: destructive },
    inputSchema: { type: 'object', properties: { action: { type: 'string', enum: Object.keys(actions) } } },
    actions,
    ...(perUser ? { perUser } : {}),
  });
  const channels = tool(
    'channels_delete',
    {
      delete_channel: routeOf([['headerKey']]),
      leave_thread: routeOf([['bearer']]),
      purge: routeOf([['headerKey']], { sharedCredentials: true }),
    },
    { actions: ['leave_thread', 'purge'], description: 'Only leave_thread and purge.', inputSchema: { type: 'object', properties: {} } },
    true,
  );
  const bots = tool('bots_write', { create_bot: routeOf([['basic']]) }, { actions: [] });
  const users = tool('users_read', { '': routeOf([['bearer']]) });

  it('serve the view the generator planned, and nothing of a tool without offered actions', () => {
    const view = perUserTool(channels);
    expect(view).toMatchObject({ name: 'channels_delete', title: 'channels_delete title', description: 'Only leave_thread and purge.' });
    expect(Object.keys(view?.actions ?? {})).toEqual(['leave_thread', 'purge']);
    expect(perUserTool(bots)).toBeUndefined();
    expect(perUserTool(users)).toBe(users);
    expect([offeredPerUser(channels, 'delete_channel'), offeredPerUser(channels, 'leave_thread'), offeredPerUser(users, '')]).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('say at start how many actions are not offered, of which kind, why, and which use shared credentials', () => {
    const lines = perUserReport([channels, bots, users]);
    expect(lines).toHaveLength(2);
    expect(lines[0]?.text).toContain('2 of 5 actions are not offered (0 reads, 1 write, 1 deletion)');
    expect(lines[0]?.text).toContain("only this server's own credentials (basic, headerKey) authorize them");
    expect(lines[0]?.text).toContain('Not offered: channels_delete/delete_channel, bots_write/create_bot.');
    expect(lines[1]?.text).toContain("actions that use this server's own credentials");
    expect(lines[1]?.text).toContain('channels_delete/purge');
    expect(perUserReport([users])).toEqual([]);
  });
});
