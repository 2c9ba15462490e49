import { describe, expect, it } from 'vitest';
import { PathItemReplay } from '../../src/cache/path-item-replay.js';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import type { JsonObject } from '../../src/kernel/json.js';
import type { OpenApiDocument } from '../../src/load/openapi-document.js';
import { buildApiModel } from '../../src/model/build-api-model.js';

const documentOf = (root: JsonObject): OpenApiDocument => ({
  version: '3.0',
  versionString: '3.0.3',
  root: structuredClone(root),
  source: { kind: 'file', location: 'proof.json' },
});

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } };

/**
 * Reaches the named schemas in an order that edits change: `/a` (sorted first) reaches nothing at first, `/b` reaches
 * Item and, through it, Part, and makes a scheme for its credential parameter; an unchanged item warns; two
 * operations share an id; `/d` reads a parameter of `/c`.
 */
const base: JsonObject = {
  openapi: '3.0.3',
  info: { title: 'Proof', version: '1' },
  paths: {
    '/a': { get: { operationId: 'same', responses: { '204': { description: 'none' } } } },
    '/b/{id}': { get: { operationId: 'getB', parameters: [{ name: 'api_key', in: 'query', schema: { type: 'string' } }], responses: ok } },
    '/c': {
      get: {
        operationId: 'same',
        parameters: [{ name: 'q', in: 'query', schema: { type: 'string', pattern: '[' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Other' } } } } },
      },
    },
    '/d': { get: { parameters: [{ $ref: '#/paths/~1c/get/parameters/0' }], responses: ok } },
  },
  components: {
    schemas: {
      Item: { type: 'object', properties: { part: { $ref: '#/components/schemas/Part' }, n: { type: 'integer', minimum: 'x' } } },
      Part: { type: 'string', enum: [1, 'a'] },
      Other: { type: 'array', items: { $ref: '#/components/schemas/Part' } },
    },
  },
};

type Edit = (root: JsonObject) => void;
const paths = (root: JsonObject) => root['paths'] as Record<string, JsonObject>;
const edits: Array<[string, Edit]> = [
  ['nothing', () => {}],
  // /a now reaches Other first, and Part through it: every later item starts from another converter state.
  [
    'the first item reaches schemas',
    (root) =>
      ((paths(root)['/a'] as JsonObject)['get'] = {
        operationId: 'same',
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Other' } } } } },
      }),
  ],
  // /a now makes the scheme for the credential parameter that /b/{id} made before.
  [
    'the first item makes a credential scheme',
    (root) =>
      (((paths(root)['/a'] as JsonObject)['get'] as JsonObject)['parameters'] = [
        { name: 'api_key', in: 'query', schema: { type: 'string' } },
      ]),
  ],
  // The same scheme key from another spelling: a scheme of another name, which /b/{id}'s parameter no longer matches.
  [
    'the first item makes the scheme from another spelling',
    (root) =>
      (((paths(root)['/a'] as JsonObject)['get'] as JsonObject)['parameters'] = [
        { name: 'api-key', in: 'query', schema: { type: 'string' } },
      ]),
  ],
  ['a summary', (root) => (((paths(root)['/b/{id}'] as JsonObject)['get'] as JsonObject)['summary'] = 'Gets a B.')],
  ['the id one operation shares', (root) => (((paths(root)['/c'] as JsonObject)['get'] as JsonObject)['operationId'] = 'other')],
  [
    'the parameter another item reads',
    (root) =>
      (((paths(root)['/c'] as JsonObject)['get'] as JsonObject)['parameters'] = [{ name: 'q', in: 'query', schema: { type: 'integer' } }]),
  ],
  ['a component', (root) => (((root['components'] as JsonObject)['schemas'] as JsonObject)['Part'] = { type: 'integer' })],
  ['an added item', (root) => (paths(root)['/0'] = { post: { responses: ok } })],
  ['back to the start', () => {}],
];

/** Expects the model of `root` built through `memo` to be a fresh build's: its JSON, diagnostics, schemas and schemes. */
function expectFreshModel(root: JsonObject, memo: PathItemReplay, name: string): void {
  const replayedDiagnostics = new Diagnostics();
  const replayed = buildApiModel(documentOf(root), replayedDiagnostics, memo);
  const freshDiagnostics = new Diagnostics();
  const fresh = buildApiModel(documentOf(root), freshDiagnostics);
  expect(JSON.stringify(replayed), name).toBe(JSON.stringify(fresh));
  expect(replayedDiagnostics.items, name).toEqual(freshDiagnostics.items);
  expect(Object.keys(replayed.schemas), name).toEqual(Object.keys(fresh.schemas));
  expect(replayed.securitySchemes, name).toEqual(fresh.securitySchemes);
}

describe('replaying path items in a watch', () => {
  it('builds the model a fresh build gives, with its diagnostics and named schemas in the same order, edit after edit', () => {
    const memo = new PathItemReplay();
    let root = structuredClone(base);
    for (const [name, edit] of edits) {
      root = name === 'back to the start' ? structuredClone(base) : structuredClone(root);
      edit(root);
      expectFreshModel(root, memo, name);
    }
  });

  it('replays what did not change, and builds again what reads a changed part', () => {
    const memo = new PathItemReplay();
    const first = buildApiModel(documentOf(base), new Diagnostics(), memo);
    const edited = structuredClone(base);
    ((paths(edited)['/c'] as JsonObject)['get'] as JsonObject)['summary'] = 'Changed.';
    const second = buildApiModel(documentOf(edited), new Diagnostics(), memo);
    const byKey = (model: typeof first, key: string) => model.operations.find((operation) => operation.key === key);
    // Unchanged: the same nested objects as the build before (copied at the top only, for the ids made unique).
    expect(byKey(second, 'GET /b/{id}')?.responses).toBe(byKey(first, 'GET /b/{id}')?.responses);
    expect(byKey(second, 'GET /b/{id}')).not.toBe(byKey(first, 'GET /b/{id}'));
    // Changed, or reading a changed item through a `$ref` into paths: built again.
    expect(byKey(second, 'GET /c')?.responses).not.toBe(byKey(first, 'GET /c')?.responses);
    expect(byKey(second, 'GET /d')?.parameters).not.toBe(byKey(first, 'GET /d')?.parameters);
  });
});

/** The one path key whose item differs between two roots, null for none; undefined where more differ, or the rest. */
function changedKey(before: JsonObject, after: JsonObject): string | null | undefined {
  if (JSON.stringify({ ...before, paths: null }) !== JSON.stringify({ ...after, paths: null })) return undefined;
  const [a, b] = [paths(before), paths(after)];
  if (JSON.stringify(Object.keys(a)) !== JSON.stringify(Object.keys(b))) return undefined;
  const changed = Object.keys(a).filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key]));
  return changed.length === 0 ? null : changed.length === 1 ? changed[0] : undefined;
}

describe('replaying path items the regeneration cache stored', () => {
  it('builds the model a fresh build gives from builds stored as JSON, where only one item changed', () => {
    let before = structuredClone(base);
    let recording = new PathItemReplay(false);
    buildApiModel(documentOf(before), new Diagnostics(), recording);
    let resumed = 0;
    for (const [name, edit] of edits) {
      const root = name === 'back to the start' ? structuredClone(base) : structuredClone(before);
      edit(root);
      const key = changedKey(before, root);
      const stored = recording.stored();
      // What the cache reads back: JSON, with nothing shared with this process's objects.
      recording =
        key === undefined || !stored
          ? new PathItemReplay(false)
          : PathItemReplay.resumed(JSON.parse(JSON.stringify(stored)), key ?? undefined);
      if (key !== undefined && stored) resumed++;
      expectFreshModel(root, recording, name);
      before = root;
    }
    expect(resumed).toBeGreaterThanOrEqual(6);
  });

  it('replays the items the texts say are unchanged, and builds the changed one and what reads it', () => {
    const recording = new PathItemReplay(false);
    const first = buildApiModel(documentOf(base), new Diagnostics(), recording);
    const edited = structuredClone(base);
    ((paths(edited)['/c'] as JsonObject)['get'] as JsonObject)['summary'] = 'Changed.';
    const resumed = PathItemReplay.resumed(JSON.parse(JSON.stringify(recording.stored())), '/c');
    const second = buildApiModel(documentOf(edited), new Diagnostics(), resumed);
    const byKey = (model: typeof first, key: string) => model.operations.find((operation) => operation.key === key);
    expect(byKey(second, 'GET /c')?.summary).toBe('Changed.');
    expect(byKey(second, 'GET /b/{id}')).toEqual(byKey(first, 'GET /b/{id}'));
  });
});
