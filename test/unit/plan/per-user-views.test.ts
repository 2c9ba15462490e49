import { describe, expect, it } from 'vitest';
import { toRunOptions } from '../../../src/config/resolve-config.js';
import { openapi, planInline, toolNamed } from '../../helpers/plan-inline.js';

/**
 * The per-user views of a plan (build/per-user-tools.ts): what the per-user upstream modes serve when only the
 * deployment's credentials authorize an operation. `users` is the user scheme (OAuth with an authorization code
 * flow); `bot` a header key in Authorization (Discord's bot token), `app` an app key beside the user's token.
 */
const schemes = {
  users: {
    type: 'oauth2',
    flows: {
      authorizationCode: { authorizationUrl: 'https://id.example/auth', tokenUrl: 'https://id.example/token', scopes: { read: 'read' } },
    },
  },
  bot: { type: 'apiKey', in: 'header', name: 'Authorization' },
  app: { type: 'apiKey', in: 'header', name: 'X-App-Key' },
  basic: { type: 'http', scheme: 'basic' },
};
const op = (operationId: string, security: object[], extra: object = {}) => ({
  operationId,
  security,
  responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
  ...extra,
});
const document = openapi(
  {
    '/channels/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: op('getChannel', [{ bot: [] }]),
      delete: op('deleteChannel', [{ bot: [] }]),
    },
    '/channels/{id}/messages': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: op('listMessages', [{ bot: [] }, { users: ['read'], app: [] }]),
    },
    '/channels/{id}/pins': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: op('listPins', [{ users: ['read'], basic: [] }]),
    },
    '/gateway': { get: op('getGateway', [{}, { bot: [] }], { tags: ['status'] }) },
  },
  { components: { securitySchemes: schemes } },
);

describe('per-user views of the plan', () => {
  it('leave out what only the deployment’s credentials authorize, and describe what is left as it is', async () => {
    const result = await planInline(document, { strategy: 'by-tag' });
    const channels = result.plan?.tools.filter((tool) => tool.actions.some((action) => action.operation.id === 'listMessages'))[0];
    expect(channels?.perUser?.actions).toEqual([channels?.actions.find((action) => action.operation.id === 'listMessages')?.name]);
    // The grouped tool keeps its selector, with the one action left; the description names only that one.
    const selector = (channels?.perUser?.inputSchema?.['properties'] as Record<string, { enum?: string[] }>)['action'];
    expect(selector?.enum).toEqual(channels?.perUser?.actions);
    for (const action of channels?.actions ?? [])
      if (!channels?.perUser?.actions.includes(action.name)) expect(channels?.perUser?.description).not.toContain(action.name);
    // A basic credential would replace the user's token in Authorization: listPins is the deployment's; getGateway needs nothing.
    const all =
      result.plan?.tools.flatMap((tool) =>
        tool.actions.map((action) => [action.operation.id, tool.perUser?.actions.includes(action.name) ?? true]),
      ) ?? [];
    expect(Object.fromEntries(all)).toEqual({
      getChannel: false,
      deleteChannel: false,
      listMessages: true,
      listPins: false,
      getGateway: true,
    });
  });

  it('offer what the configuration names for shared credentials, and say so in the tool', async () => {
    const options = toRunOptions({ spec: '-', sharedCredentials: { operations: ['getChannel'], tags: ['nothing'] } });
    const result = await planInline(document, { ...options, spec: '-', strategy: 'per-operation' });
    const shared = toolNamed(result, result.plan?.tools.find((tool) => tool.actions[0]?.operation.id === 'getChannel')?.name ?? '');
    expect(shared.actions[0]?.sharedCredentials).toBe(true);
    expect(shared.perUser?.description).toContain("use this server's own API credentials, shared by every user, not the signed-in user's");
    expect(shared.description).not.toContain('shared by every user');
    const deleted = result.plan?.tools.find((tool) => tool.actions[0]?.operation.id === 'deleteChannel');
    expect(deleted?.perUser).toEqual({ actions: [] });
    expect(deleted?.actions[0]?.sharedCredentials).toBeUndefined();
    // A name that matches nothing would leave an operation out silently: it is a warning with its place.
    expect(result.diagnostics.find((item) => item.code === 'OTM_CONFIG_INVALID')).toMatchObject({
      pointer: '#/sharedCredentials/tags/0',
      message: expect.stringContaining('"nothing"'),
    });
  });

  it('change nothing where every operation is the user’s', async () => {
    const own = openapi({ '/me': { get: op('getMe', [{ users: ['read'] }]) } }, { components: { securitySchemes: schemes } });
    const result = await planInline(own);
    expect(result.plan?.tools.every((tool) => tool.perUser === undefined)).toBe(true);
  });
});
