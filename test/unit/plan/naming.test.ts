import { describe, expect, it } from 'vitest';
import { nameActions } from '../../../src/plan/name/name-tools.js';
import { classifyIntent } from '../../../src/plan/select/classify-intent.js';
import { resourceWords, singular } from '../../../src/plan/text/resource-words.js';
import { openapi, modelOf, planOf } from '../../helpers/inline.js';

const ok = { responses: { 200: { description: 'ok' } } };
const get = (operationId: string) => ({ get: { operationId, ...ok } });
const post = (operationId: string) => ({ post: { operationId, ...ok } });

/** Which tool holds the operation. */
function toolOf(plan: Awaited<ReturnType<typeof planOf>>['plan'], key: string): string | undefined {
  return plan.tools.find((tool) => tool.actions.some((action) => action.operation.key === key))?.name;
}

describe('resource words', () => {
  it('are the nouns of the static segments: singular and plural alike, verbs and fillers left out', () => {
    expect(resourceWords(['repos', 'code_scanning', 'alerts']).keys).toEqual(['repo', 'code', 'scanning', 'alert']);
    expect(resourceWords(['goals', 'add_followers']).keys).toEqual(['goal', 'follower']);
    expect(resourceWords(['credentials', 'revoke']).keys).toEqual(['credential']);
    expect(resourceWords(['codes_of_conduct']).segments).toEqual([['codes', 'conduct']]);
    expect(['issues', 'statuses', 'policies', 'boxes', 'analysis', 'news'].map(singular)).toEqual([
      'issue',
      'status',
      'policy',
      'box',
      'analysis',
      'news',
    ]);
  });
});

describe('tool names', () => {
  it('name a tool after the words every action path shares and list the sub-resources in the title', async () => {
    const { plan } = await planOf(
      openapi({
        '/issues': get('listIssues'),
        '/issues/{id}': {
          get: { operationId: 'getIssue', parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'string' } }], ...ok },
        },
        '/issues/{id}/comments': {
          get: { operationId: 'listComments', parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'string' } }], ...ok },
        },
        '/issues/{id}/events': {
          get: { operationId: 'listEvents', parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'string' } }], ...ok },
        },
        '/releases': get('listReleases'),
      }),
    );
    const issues = plan.tools.find((tool) => tool.name === 'issues_read');
    expect(issues?.actions.map((action) => action.operation.key)).toHaveLength(4);
    expect(issues?.title).toBe('Issues, including comments and events: read');
    expect(toolOf(plan, 'GET /releases')).toBe('releases_read');
  });

  it('keep an operation with the resource that leads its path (a team’s users live with teams)', async () => {
    const paths: Record<string, object> = {
      '/teams': { ...get('listTeams'), ...post('createTeam') },
      '/teams/{id}': { put: { operationId: 'updateTeam', ...ok } },
      '/teams/{id}/users/{user_id}': { put: { operationId: 'updateTeamUser', ...ok } },
      '/users': { ...get('listUsers'), ...post('createUser') },
      '/users/{id}': { put: { operationId: 'updateUser', ...ok } },
    };
    // A tight tool limit makes the team-user operation join one of the two.
    const { plan } = await planOf(openapi(paths), { maxTools: 4 });
    expect(toolOf(plan, 'PUT /teams/{id}/users/{user_id}')).toBe('teams_write');
    expect(plan.tools.map((tool) => tool.name).sort()).toEqual(['teams_read', 'teams_write', 'users_read', 'users_write']);
  });

  it('never name two tools alike, never after the API, never with a number', async () => {
    const paths: Record<string, object> = {};
    for (const resource of ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta']) {
      paths[`/${resource}`] = get(`list_${resource}`);
      paths[`/${resource}/{id}/approve`] = post(`approve_${resource}`);
    }
    // Six unrelated resources in three tools: some tools must hold several, and are named after what they hold.
    const { plan } = await planOf(openapi(paths, { info: { title: 'Acme Widgets API', version: '1' } }), { maxTools: 3 });
    const names = plan.tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(name).not.toMatch(/_\d+$/);
      expect(name).not.toMatch(/acme|widget/);
    }
    expect(new Set(plan.tools.map((tool) => tool.title)).size).toBe(names.length);
  });
});

describe('action names', () => {
  it('keep the names an earlier generation gave, and name new actions around them', async () => {
    const { model } = await modelOf(
      openapi({
        '/issues': { ...get('listIssues'), ...post('createIssue') },
        '/issues/{id}/lock': { put: { operationId: 'lockIssue', ...ok } },
      }),
    );
    const operations = model.operations;
    const fresh = nameActions(operations);
    expect(fresh).toEqual(['list_issues', 'create_issue', 'lock_issue']);
    const keys = operations.map((operation) => operation.key);
    // All pinned: the pins, whatever the naming would say now.
    const pins = new Map(keys.map((key, index) => [key, `pinned_${index}`]));
    expect(nameActions(operations, pins)).toEqual(['pinned_0', 'pinned_1', 'pinned_2']);
    // Some pinned: the others are named as before, never taking a pinned name.
    const taken = new Map([[keys[0] as string, 'create_issue']]);
    expect(nameActions(operations, taken)).toEqual(['create_issue', 'create_issue_2', 'lock_issue']);
    // Pinned to what they would be named anyway: the same names.
    expect(nameActions(operations, new Map(keys.map((key, index) => [key, fresh[index] as string])))).toEqual(fresh);
  });
});

describe('intent', () => {
  it('takes a GET whose operationId starts with the noun of its path as a read (invite_resolve)', async () => {
    const { model } = await modelOf(
      openapi({
        '/invites/{code}': {
          get: {
            operationId: 'invite_resolve',
            parameters: [{ in: 'path', name: 'code', required: true, schema: { type: 'string' } }],
            ...ok,
          },
        },
        '/channels/{id}/invite': {
          get: {
            operationId: 'invite_member',
            parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'string' } }],
            ...ok,
          },
        },
      }),
    );
    const intents = Object.fromEntries(model.operations.map((operation) => [operation.id, classifyIntent(operation)]));
    expect(intents).toEqual({ invite_resolve: 'read', invite_member: 'write' });
  });
});
