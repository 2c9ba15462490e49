import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/kernel/json.js';
import { resumedDocument, type KeptCheck } from '../../src/load/last-check.js';
import { lazyDocument } from '../../src/load/lazy-document.js';
import { MAX_DOCUMENT_NODES, measureDocument } from '../../src/load/measure-document.js';
import { documentSpans } from '../../src/load/path-item-spans.js';
import { textPieces } from '../../src/load/text-pieces.js';
import { fixtureSpec } from '../helpers/paths.js';

type Document = JsonObject & { paths: Record<string, JsonValue> };

const parsedFixture = (name: string): Document =>
  (name.endsWith('.json')
    ? JSON.parse(readFileSync(fixtureSpec(name), 'utf8'))
    : load(readFileSync(fixtureSpec(name), 'utf8'))) as Document;

const FIXTURES = ['redocly-museum.yaml', 'oai-petstore-expanded.json', 'oai-uber.json', 'stripe-shaped.yaml', 'oai-callback-example.yaml'];

/** Names that JSON.parse orders or stores unlike others: integer-like keys come first, `__proto__` is an own key. */
const oddNames = (document: Document): Document => {
  const components = (document['components'] ?? {}) as JsonObject;
  const schemas = (components['schemas'] ?? {}) as JsonObject;
  const odd = JSON.parse('{"__proto__": {"type": "string"}, "200": {"type": "integer"}, "1": {"type": "boolean"}}') as JsonObject;
  return { ...document, components: { ...components, schemas: { ...schemas, ...odd } } } as Document;
};

const lazyOf = (text: string) => {
  const spans = documentSpans(text);
  if (!spans?.outline) throw new Error('no outline');
  return lazyDocument(text, spans.outline, spans.items);
};

afterEach(() => vi.restoreAllMocks());

describe('a description parsed as far as it is read', () => {
  it('reads as JSON.parse reads the text: the same keys in the same order, the same values', () => {
    for (const name of FIXTURES)
      for (const document of [parsedFixture(name), oddNames(parsedFixture(name))])
        for (const text of [JSON.stringify(document, null, 2), JSON.stringify(document)]) {
          const lazy = lazyOf(text);
          // JSON.stringify reads every key in order, and each value as it reads.
          expect(JSON.stringify(lazy), name).toBe(JSON.stringify(JSON.parse(text)));
          expect(Object.keys(lazy), name).toEqual(Object.keys(JSON.parse(text) as JsonObject));
        }
  });

  it('parses a part the first time it is read, and only that part', () => {
    const document = oddNames(parsedFixture('redocly-museum.yaml'));
    const text = JSON.stringify(document, null, 2);
    const lazy = lazyOf(text) as Document & { components: { schemas: JsonObject } };
    const parse = vi.spyOn(JSON, 'parse');
    const schemas = lazy.components.schemas;
    const names = Object.keys(schemas);
    expect(names).toEqual(Object.keys((document['components'] as { schemas: JsonObject }).schemas));
    expect(parse).not.toHaveBeenCalled();
    const [first, second] = names as [string, string];
    expect(schemas[first]).toEqual((JSON.parse(text) as typeof lazy).components.schemas[first]);
    parse.mockClear();
    expect(schemas[first]).toBe(schemas[first]);
    expect(parse).not.toHaveBeenCalled();
    expect(Object.getOwnPropertyDescriptor(schemas, second)?.get).toBeTypeOf('function');
    expect(Object.getOwnPropertyDescriptor(schemas, first)?.get).toBeUndefined();
    // A part written before it is read is the value written.
    schemas[second] = 'replaced';
    expect(schemas[second]).toBe('replaced');
    expect(Object.keys(lazy.paths)).toEqual(Object.keys(document.paths));
    expect(parse).not.toHaveBeenCalled();
  });

  it('is outlined only where no outlined object writes a key twice', () => {
    const text = JSON.stringify(parsedFixture('oai-petstore-expanded.json'), null, 2);
    const twice = text.replace('"schemas": {', '"schemas": { "Pet": {},');
    expect(documentSpans(twice)?.outline).toBeUndefined();
    expect(documentSpans(twice)?.items).toEqual(documentSpans(text)?.items);
    // Deeper than the outline goes, a key written twice is JSON.parse's to settle, as it was.
    expect(documentSpans(text.replace('"required": [', '"required": [], "required": ['))?.outline).toBeDefined();
  });

  it('outlines the named parts of a Swagger 2.0 description', () => {
    const text = JSON.stringify(parsedFixture('oai-uber.json'), null, 2);
    const outline = documentSpans(text)?.outline ?? [];
    const definitions = outline.find((member) => member.key === 'definitions');
    expect(definitions?.entries?.map((entry) => entry.key)).toEqual(Object.keys(JSON.parse(text).definitions as JsonObject));
  });
});

describe('a text resumed from the last run’s check', () => {
  const document = parsedFixture('redocly-museum.yaml');
  const text = JSON.stringify(document, null, 2);
  const last: KeptCheck = {
    pieces: textPieces(text, documentSpans(text) ?? { items: [] }),
    check: { errors: [] },
    nodes: 1000,
    refs: { allInternal: true, noneIntoPaths: true },
  };
  const key = Object.keys(document.paths)[1] as string;
  const edited = (value: JsonValue) => JSON.stringify({ ...document, paths: { ...document.paths, [key]: value } }, null, 2);

  it('is the edited document, with the item that changed and a bound of its values', () => {
    const value = { get: { summary: 'Changed', responses: { 200: { $ref: '#/components/responses/GetMuseumHours200' } } } };
    const resumed = resumedDocument(edited(value), last);
    expect(resumed?.change.key).toBe(key);
    expect(JSON.stringify(resumed?.root)).toBe(JSON.stringify(JSON.parse(edited(value))));
    expect(resumed?.nodes).toBe(1000 + (measureDocument(value) as { nodes: number }).nodes);
    expect(resumed?.refs).toEqual({ allInternal: true, noneIntoPaths: true });
    // What the item's `$ref`s show joins what the rest of the text showed.
    const intoPaths = { get: { responses: { 200: { $ref: '#/paths/~1x/get/responses/200' } } } };
    expect(resumedDocument(edited(intoPaths), last)?.refs).toEqual({ allInternal: true, noneIntoPaths: false });
    // The next run resumes from this one's pieces, outline included, as from a check of the edited text.
    expect(resumed?.change.pieces).toEqual(textPieces(edited(value), documentSpans(edited(value)) ?? { items: [] }));
    const same = resumedDocument(text, last);
    expect(same?.change.key).toBeUndefined();
    expect(JSON.stringify(same?.root)).toBe(JSON.stringify(document));
  });

  /** A new key spliced into the changed item's text: the change lies inside the item's span, but adds an item. */
  const spliced = (text: string) => {
    const span = documentSpans(text)?.items.find((item) => item.key === key);
    if (!span) throw new Error('no span');
    return `${text.slice(0, span.end - 1)}}, "/spliced": {${text.slice(span.end - 1)}`;
  };

  it('is left to a whole parse where it cannot answer as JSON.parse would, or near the limits', () => {
    const { outline: _outline, ...withoutOutline } = last.pieces;
    const value = { get: { responses: {} } };
    let deep: JsonValue = 1;
    for (let level = 0; level < 510; level++) deep = [deep];
    for (const [why, text, check] of [
      ['no outline', edited(value), { ...last, pieces: withoutOutline }],
      ['no count of values', edited(value), { ...last, nodes: undefined }],
      ['a last text with a $ref to another document', edited(value), { ...last, refs: { allInternal: false, noneIntoPaths: true } }],
      ['an item with a $ref to another document', edited({ get: { responses: { 200: { $ref: 'other.json#/ok' } } } }), last],
      ['a change outside paths', JSON.stringify({ ...document, info: { title: 'x' } }, null, 2), last],
      ['an item that is not one value', spliced(edited(value)), last],
      ['too many values', edited(value), { ...last, nodes: MAX_DOCUMENT_NODES - 2 }],
      ['too deep', edited({ get: { 'x-deep': deep } }), last],
    ] as const)
      expect(resumedDocument(text, check), why).toBeUndefined();
  });
});
