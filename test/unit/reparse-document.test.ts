import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/kernel/json.js';
import { pathItemSpans } from '../../src/load/path-item-spans.js';
import { stringify as yamlText } from 'yaml';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import { parseText, parseTextAs, parseYamlItem } from '../../src/load/parse-text.js';
import { DocumentReparse } from '../../src/load/reparse-document.js';
import { fixtureSpec } from '../helpers/paths.js';
import { checkYamlEdits } from '../helpers/yaml-edits.js';

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

describe('DocumentReparse: a JSON save parsed from the one before', () => {
  it.each(layouts.flatMap((layout, index) => edits.map((edit) => [index, ...edit] as const)))(
    'layout %i, %s: the document JSON.parse gives for the whole text',
    (layoutIndex, _name, edit, expected) => {
      const layout = layouts[layoutIndex] as (value: unknown) => string;
      const reparse = new DocumentReparse();
      const before = layout(base);
      const root = JSON.parse(before) as JsonObject;
      reparse.remember(before, root, 1000, { json: true });
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
    const reparse = new DocumentReparse();
    const before = JSON.stringify(base);
    expect(reparse.parse(before)).toBeUndefined();
    reparse.remember(before, JSON.parse(before) as JsonObject, 1000, { json: true });
    expect(reparse.parse(before.replace('"ends with', '"ends, with ", "'))).toBeUndefined();
    const twice = '{"paths":{"/a":{"get":{}},"/a":{"put":{}}}}';
    expect(pathItemSpans(twice)).toBeUndefined();
    reparse.remember(twice, JSON.parse(twice) as JsonObject, 6, { json: true });
    expect(reparse.parse(twice.replace('"put"', '"post"'))).toBeUndefined();
  });

  it('replaces an item keyed `__proto__` as an own property, as JSON.parse makes it', () => {
    const reparse = new DocumentReparse();
    const before = '{"paths":{"/a":{"get":{}},"__proto__":{"get":{"summary":"one"}}}}';
    reparse.remember(before, JSON.parse(before) as JsonObject, 8, { json: true });
    const after = before.replace('"one"', '"two"');
    const reparsed = reparse.parse(after);
    expect(reparsed?.key).toBe('__proto__');
    expect(JSON.stringify(reparsed?.root)).toBe(JSON.stringify(JSON.parse(after)));
    expect(Object.getPrototypeOf(reparsed?.root['paths'])).toBe(Object.prototype);
  });

  it('keeps to the size limits: an item that would pass them is parsed whole, where the limit is reported', () => {
    const reparse = new DocumentReparse();
    const before = JSON.stringify(base);
    reparse.remember(before, JSON.parse(before) as JsonObject, 1000, { json: true });
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

/** The YAML description: block scalars, quoted and plain strings, comments between and inside items. */
const yamlBase = {
  ...base,
  paths: {
    ...base.paths,
    '/a': { get: { ...base.paths['/a'].get, description: 'Two lines\nof text, "quoted" # not a comment\n' } },
    '/d: colon': { get: { summary: "'single' quotes", tags: ['x'] } },
  },
};

/** What js-yaml makes of the whole text, as a run without a last document parses it. */
function wholeYaml(text: string): unknown {
  return parseText(text, 'x.yaml', new Diagnostics());
}

/** A YAML text parsed whole, remembered as a watch's load does. */
function rememberedYaml(text: string): DocumentReparse & { root: JsonObject } {
  const reparse = new DocumentReparse();
  const { value, json, spans } = parseTextAs(text, 'x.yaml', new Diagnostics(), { yamlSpans: true });
  expect(json).toBe(false);
  reparse.remember(text, value as JsonObject, 1000, { json, spans });
  return Object.assign(reparse, { root: value as JsonObject });
}

/** Comments where YAML allows them: at the top, between items, at column 0 inside one. */
function commented(text: string): string {
  return `# A description\n${text.replace('  /c:\n', '  # the last item\n  /c:\n').replace('      responses:\n', '# a comment at column 0\n      responses:\n')}`;
}

describe('DocumentReparse: a YAML save parsed from the one before', () => {
  it.each(edits)('%s: the document the whole YAML parse gives', (_name, edit, expected) => {
    const before = commented(yamlText(yamlBase));
    expect(before).toContain('# a comment at column 0');
    const reparse = rememberedYaml(before);
    const changed = structuredClone(yamlBase) as typeof yamlBase & JsonObject;
    edit(changed);
    const after = commented(yamlText(changed));
    const reparsed = reparse.parse(after);
    if (expected === 'whole') {
      expect(reparsed).toBeUndefined();
      return;
    }
    expect(reparsed?.key).toBe(expected);
    expect(reparsed?.root).toEqual(wholeYaml(after));
    expect(reparsed?.root['components']).toBe(reparse.root['components']);
    // The save after it parses from it in turn: the spans after the change moved with its length.
    const later = after.replace('type: string', 'type: number');
    const again = reparse.parse(later);
    expect(again?.key).toBe('/c');
    expect(again?.root).toEqual(wholeYaml(later));
  });

  const item = (text: string) => text.slice(text.indexOf('  /b/{id}:'), text.indexOf('  /c:'));
  it.each([
    ['the key indented otherwise', (text: string) => text.replace('  /b/{id}:', '   /b/{id}:')],
    ['an item written into another', (text: string) => text.replace(item(text), `${item(text)}  /new:\n    get: {}\n`)],
    ['a key of the root written into the last item', (text: string) => text.replace('components:', 'x-added: 1\ncomponents:')],
    [
      'an anchor and its alias inside the item',
      (text: string) => text.replace('required: true', 'required: &yes true\n          deprecated: *yes'),
    ],
    ['a key written twice inside the item', (text: string) => text.replace('required: true', 'required: true\n          required: false')],
    ['text that does not parse', (text: string) => text.replace('required: true', 'required: [true')],
  ])('parses whole what an item alone could answer otherwise: %s', (_name, edit) => {
    const before = yamlText(yamlBase);
    const after = edit(before);
    expect(after).not.toBe(before);
    expect(rememberedYaml(before).parse(after)).toBeUndefined();
  });

  it('keeps no last document where items could read one another: anchors and aliases, flow style', () => {
    const anchored = yamlText(yamlBase)
      .replace('tags:\n        - x', 'tags: &tags\n        - x')
      .replace('components:', '  /e:\n    get:\n      tags: *tags\ncomponents:');
    expect((wholeYaml(anchored) as { paths: Record<string, unknown> }).paths['/e']).toEqual({ get: { tags: ['x'] } });
    const edited = anchored.replace('ends with a backslash', 'ends otherwise');
    expect(edited).not.toBe(anchored);
    expect(rememberedYaml(anchored).parse(edited)).toBeUndefined();
    const flow = `{openapi: 3.0.3, paths: {/a: {get: {summary: x}}}}`;
    expect(parseTextAs(flow, 'x.yaml', new Diagnostics(), { yamlSpans: true }).spans).toBeUndefined();
  });

  it('reads an item written as an explicit key, its value on the next line (how long paths are written)', () => {
    const before = `openapi: 3.0.3\npaths:\n  ? /a/long/path\n  : get:\n      summary: one\n  /b:\n    get: {}\n`;
    const after = before.replace('one', 'two');
    const reparsed = rememberedYaml(before).parse(after);
    expect(reparsed?.key).toBe('/a/long/path');
    expect(reparsed?.root).toEqual(wholeYaml(after));
  });

  it('finds every item, each of whose text parses alone to the item', () => {
    const text = commented(yamlText(yamlBase));
    const spans = parseTextAs(text, 'x.yaml', new Diagnostics(), { yamlSpans: true }).spans ?? [];
    expect(spans.map((span) => span.key)).toEqual(Object.keys(yamlBase.paths));
    for (const span of spans)
      expect(parseYamlItem(text.slice(span.start, span.end), span.key)).toEqual((yamlBase.paths as JsonObject)[span.key]);
  });
});

describe('DocumentReparse on vendored YAML descriptions', () => {
  it.each(['redocly-museum.yaml', 'oai-petstore.yaml', 'oai-uspto.yaml', 'oai-callback-example.yaml', 'oai-link-example.yaml'])(
    '%s: random line edits inside its items, each reparsed as the whole parse reads it',
    (entry) => {
      const report = checkYamlEdits(readFileSync(fixtureSpec(entry), 'utf8'), 150);
      expect(report.mismatches).toEqual([]);
      // About half the edits keep the item valid; those are the ones answered an item at a time.
      expect(report.reparsed).toBeGreaterThan(report.edits / 4);
    },
  );
});
