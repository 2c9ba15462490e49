import { describe, expect, it } from 'vitest';
import { runPlan } from '../../../src/pipeline.js';
import { fixtureSpec } from '../../helpers/paths.js';
import { openapi, planInline } from '../../helpers/plan-inline.js';

describe('the user scheme of the per-user upstream modes', () => {
  it('is the OAuth scheme with an authorization code flow, asking for the scopes the operations need', async () => {
    const result = await runPlan({ spec: fixtureSpec('oai-tictactoe.yaml') });
    expect(result.plan?.api.userAuth).toEqual({
      scheme: 'user2AppOauth',
      authorizationUrl: 'https://learn.openapis.org/oauth/2.0/auth',
      tokenUrl: 'https://learn.openapis.org/oauth/2.0/token',
      scopes: ['board:read', 'board:write'],
    });
    // Only the selected operations count: reading alone asks for board:read alone.
    const reads = await runPlan({ spec: fixtureSpec('oai-tictactoe.yaml'), select: { includeMethods: ['get'] } });
    expect(reads.plan?.api.userAuth?.scopes).toEqual(['board:read']);
  });

  it('falls back to a bearer scheme, and is absent when the operations use no user credential', async () => {
    const operation = (security: object[]) => ({ get: { operationId: 'list', security, responses: { '200': { description: 'ok' } } } });
    const schemes = {
      components: {
        securitySchemes: {
          key: { type: 'apiKey', in: 'header', name: 'X-Key' },
          token: { type: 'http', scheme: 'bearer' },
        },
      },
    };
    const bearer = await planInline(openapi({ '/items': operation([{ key: [] }, { token: [] }]) }, schemes));
    expect(bearer.plan?.api.userAuth).toEqual({ scheme: 'token', scopes: [] });
    const keyOnly = await planInline(openapi({ '/items': operation([{ key: [] }]) }, schemes));
    expect(keyOnly.plan?.api.userAuth).toBeUndefined();
  });
});
