import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPlan, type PlanRunResult } from '../../../src/pipeline.js';
import { familyPath } from '../../../src/search/scope-families.js';
import { actionRanker, type SearchIndexData } from '../../../templates/runtime/search/search-ranking.js';
import { REPO_ROOT } from '../../helpers/paths.js';
import { openapi } from '../../helpers/plan-inline.js';

/** The generated server's ranker over a plan's index, answering with `METHOD path` per result. */
function rankerOf(result: PlanRunResult) {
  const search = result.surface?.search;
  const catalog = new Map((search?.catalog ?? []).map((entry) => [entry.id, entry]));
  const rank = actionRanker(
    JSON.parse(search?.index ?? '{}') as SearchIndexData,
    (id) => catalog.get(id)?.path.split('/').length ?? 0,
    (id) => catalog.get(id)?.intent,
  );
  const route = (id: string) => `${catalog.get(id)?.method.toUpperCase()} ${catalog.get(id)?.path}`;
  return (query: string, limit = 5) => rank(query, limit).map((found) => ({ route: route(found.id), variants: found.variants.map(route) }));
}

/** Plans a description given as an object with the search surface. */
function planSearch(document: object): Promise<PlanRunResult> {
  return runPlan({ spec: '-', readStdin: async () => JSON.stringify(document), validate: false, surface: 'search' });
}

const ok = { '200': { description: 'ok' } };
const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const incidents = openapi({
  '/incidents': {
    get: { operationId: 'listIncidents', summary: 'List incidents', responses: ok },
    post: { operationId: 'createIncident', summary: 'Create an incident', responses: ok },
  },
  '/incidents/{id}': {
    parameters: [id],
    get: { operationId: 'getIncident', summary: 'Get an incident', responses: ok },
    put: { operationId: 'updateIncident', summary: 'Update an incident', responses: ok },
    delete: { operationId: 'deleteIncident', summary: 'Delete an incident', responses: ok },
  },
  '/incidents/{id}/related_incidents': {
    parameters: [id],
    get: { operationId: 'getRelatedIncidents', summary: 'Get related incidents', responses: ok },
  },
  '/incidents/{id}/outlier_incident': {
    parameters: [id],
    get: { operationId: 'getOutlierIncident', summary: 'Get the outlier incident', responses: ok },
  },
  '/users': {
    get: {
      operationId: 'listUsers',
      summary: 'List users',
      parameters: [{ name: 'query', in: 'query', schema: { type: 'string' } }],
      responses: ok,
    },
    post: {
      operationId: 'createUser',
      summary: 'Create a user',
      requestBody: {
        content: {
          'application/json': { schema: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' } } } },
        },
      },
      responses: ok,
    },
  },
});

describe('ranking actions', () => {
  it('puts the action on the thing asked for above those on its parts, and lists before it gets', async () => {
    const search = rankerOf(await planSearch(incidents));
    expect(search('get an incident')[0]?.route).toBe('GET /incidents/{id}');
    expect(search('list incidents')[0]?.route).toBe('GET /incidents');
    expect(search('create an incident')[0]?.route).toBe('POST /incidents');
    expect(search('remove the incident')[0]?.route).toBe('DELETE /incidents/{id}');
  });

  it('ranks actions of the safety class the request asks for first', async () => {
    const search = rankerOf(await planSearch(incidents));
    // create_user carries name and email as fields; the request's verb is a read.
    expect(search('list users matching a name or email')[0]?.route).toBe('GET /users');
    expect(search('add a user with a name and email')[0]?.route).toBe('POST /users');
  });

  it('shows one operation at several scopes as one result, the other paths as its variants', async () => {
    const result = await runPlan({ spec: path.join(REPO_ROOT, 'test/fixtures/search/mail-scopes.yaml'), surface: 'search' });
    const found = rankerOf(result)('list the messages in my mailbox');
    const mailbox = found.filter((entry) => ['GET /me/messages', 'GET /users/{user-id}/messages'].includes(entry.route));
    expect(mailbox).toHaveLength(1);
    expect([mailbox[0]?.route, ...(mailbox[0]?.variants ?? [])].sort()).toEqual(['GET /me/messages', 'GET /users/{user-id}/messages']);
    expect(new Set(found.map((entry) => entry.route)).size).toBe(found.length);
  });

  it('keys a family by what its paths share once the scope is taken off', () => {
    expect(familyPath('/me/messages/{message-id}/reply')).toBe(familyPath('/users/{user-id}/messages/{message-id}/reply'));
    expect(familyPath('/orgs/{org}/hooks')).toBe(familyPath('/repos/{owner}/{repo}/hooks'));
    expect(familyPath('/v1/users/{id}/messages')).toBe('messages');
    expect(familyPath('/me/messages')).not.toBe(familyPath('/me/events'));
  });
});
