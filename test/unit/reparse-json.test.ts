import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/kernel/json.js';
import { pathItemSpans } from '../../src/load/path-item-spans.js';
import { JsonReparse } from '../../src/load/reparse-json.js';

/** A description whose strings hold what a scanner trips on: quotes, backslashes, braces, brackets, a `paths` word. */
const base = {
  openapi: '3.0.3',
  info: { title: 'Quoting "paths": {', description: 'a \\ backslash, a \\" quote, a } brace ] and [' },
  paths: {
    '/a': { get: { summary: 'ends with a backslash \\', responses: { '200': { description: '}}]]' } } } },
    '/b/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1.5e3 } }] } },
    '/c': { parameters: [], post: { requestBody: { content: { 'text/plain': { schema: { type: 'string', example: '"{' } } } } } },
  },
  components: { schemas: { Paths: { type: 'object', properties: { paths: { type: 'string' } } } } },
};

/** Both layouts a description is saved in: one line, and indented. */
const layouts = [(value: unknown) => JSON.stringify(value), (value: unknown) => JSON.stringify(value, null, 2)];

/** Edits of the document, as functions of a copy, named by what they change. */
/** Each edit, and the key of the one item it changed (or `whole`: the text is parsed whole). */
const edits: Array<[string, (root: typeof base & JsonObject) => void, string]> = [
  ['a summary inside one item', (root) => void (root.paths['/a'].get.summary = 'now "quoted" \\ and {'), '/a'],
  ['a number inside one item', (root) => void (root.paths['/b/{id}'].get.parameters[0]!.schema.minimum = 2), '/b/{id}'],
  ['the last item', (root) => void (root.paths['/c'].parameters = [{ name: 'q', in: 'query' }] as never), '/c'],
  ['an item replaced by a scalar', (root) => void ((root.paths as JsonObject)['/a'] = 7), '/a'],
  ['a path key', (root) => void renameKey(root.paths, '/a', '/aa'), 'whole'],
  ['an item added', (root) => void ((root.paths as JsonObject)['/d'] = { get: {} }), 'whole'],
  ['an item removed', (root) => void delete (root.paths as JsonObject)['/b/{id}'], 'whole'],
  ['two items at once', (root) => void ((root.paths['/a'].get.summary = 'x'), (root.paths['/c'].parameters = [1] as never)), 'whole'],
  ['the info outside paths', (root) => void (root.info.title = 'Other'), 'whole'],
];

function renameKey(object: JsonObject, from: string, to: string): void {
  const entries = Object.entries(object).map(([key, value]) => [key === from ? to : key, value] as const);
  for (const key of Object.keys(object)) delete object[key];
  Object.assign(object, Object.fromEntries(entries));
}

describe('JsonReparse: a save parsed from the one before', () => {
  it.each(layouts.flatMap((layout, index) => edits.map((edit) => [index, ...edit] as const)))(
    'layout %i, %s: the document JSON.parse gives for the whole text',
    (layoutIndex, _name, edit, expected) => {
      const layout = layouts[layoutIndex] as (value: unknown) => string;
      const reparse = new JsonReparse();
      const before = layout(base);
      const root = JSON.parse(before) as JsonObject;
      reparse.remember(before, root, 1000);
      const changed = structuredClone(base) as typeof base & JsonObject;
      edit(changed);
      const after = layout(changed);
      const reparsed = reparse.parse(after);
      if (expected === 'whole') {
        expect(reparsed).toBeUndefined();
        return;
      }
      expect(JSON.stringify(reparsed?.root)).toBe(JSON.stringify(JSON.parse(after)));
      // It says what it was parsed from, and which item changed (what validation checks again).
      expect(reparsed?.from).toBe(root);
      expect(reparsed?.key).toBe(expected);
      // Everything but the changed item is the last document's objects.
      expect(reparsed?.root['components']).toBe(root['components']);
      // The save after it parses from it in turn: the spans after the change moved with its length.
      (changed.paths['/c'] as JsonObject)['summary'] = 'later';
      const later = layout(changed);
      const again = reparse.parse(later);
      expect(again?.from).toBe(reparsed?.root);
      expect(again?.key).toBe('/c');
      expect(JSON.stringify(again?.root)).toBe(JSON.stringify(JSON.parse(later)));
    },
  );

  it('parses whole what it cannot place: text that does not parse, a path written twice, no last document', () => {
    const reparse = new JsonReparse();
    const before = JSON.stringify(base);
    expect(reparse.parse(before)).toBeUndefined();
    reparse.remember(before, JSON.parse(before) as JsonObject, 1000);
    expect(reparse.parse(before.replace('"ends with', '"ends, with ", "'))).toBeUndefined();
    const twice = '{"paths":{"/a":{"get":{}},"/a":{"put":{}}}}';
    expect(pathItemSpans(twice)).toBeUndefined();
    reparse.remember(twice, JSON.parse(twice) as JsonObject, 6);
    expect(reparse.parse(twice.replace('"put"', '"post"'))).toBeUndefined();
  });

  it('replaces an item keyed `__proto__` as an own property, as JSON.parse makes it', () => {
    const reparse = new JsonReparse();
    const before = '{"paths":{"/a":{"get":{}},"__proto__":{"get":{"summary":"one"}}}}';
    reparse.remember(before, JSON.parse(before) as JsonObject, 8);
    const after = before.replace('"one"', '"two"');
    const reparsed = reparse.parse(after);
    expect(reparsed?.key).toBe('__proto__');
    expect(JSON.stringify(reparsed?.root)).toBe(JSON.stringify(JSON.parse(after)));
    expect(Object.getPrototypeOf(reparsed?.root['paths'])).toBe(Object.prototype);
  });

  it('keeps to the size limits: an item that would pass them is parsed whole, where the limit is reported', () => {
    const reparse = new JsonReparse();
    const before = JSON.stringify(base);
    reparse.remember(before, JSON.parse(before) as JsonObject, 1000);
    const deep = `${'['.repeat(600)}${']'.repeat(600)}`;
    expect(reparse.parse(before.replace('"ends with a backslash \\\\"', deep))).toBeUndefined();
    expect(reparse.parse(before.replace('"ends with a backslash \\\\"', '[[1]]'))).toBeDefined();
  });

  it('finds the spans of every path item, strings with quotes, backslashes and brackets jumped over', () => {
    for (const layout of layouts) {
      const text = layout(base);
      const spans = pathItemSpans(text) ?? [];
      expect(spans.map((span) => span.key)).toEqual(Object.keys(base.paths));
      for (const span of spans) expect(JSON.parse(text.slice(span.start, span.end))).toEqual((base.paths as JsonObject)[span.key]);
    }
  });
});
