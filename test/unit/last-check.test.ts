import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/kernel/json.js';
import { documentSpans, pathItemSpans } from '../../src/load/path-item-spans.js';
import { changedItem, textPieces } from '../../src/load/text-pieces.js';
import { fixtureSpec, REPO_ROOT } from '../helpers/paths.js';

/** The modules as built: the compiled validators load from dist/, as they do for users. */
async function built() {
  const module = async <T>(file: string) => (await import(pathToFileURL(path.join(REPO_ROOT, 'dist', file)).href)) as T;
  const { changeFromLast, checkFromLast } = await module<typeof import('../../src/load/last-check.js')>('load/last-check.js');
  type Kept = Parameters<typeof checkFromLast>[0];
  return {
    ...(await module<typeof import('../../src/load/validate-document.js')>('load/validate-document.js')),
    /** The check of a text from the last one's, as a regeneration makes it: the change found, then the check. */
    checkFromLast: (kept: Kept, root: JsonObject, text: string) => {
      const change = changeFromLast(kept.pieces, root, text);
      return change && checkFromLast(kept, root, change);
    },
  };
}

type Document = JsonObject & { paths: Record<string, JsonValue> };

const museum = load(readFileSync(fixtureSpec('redocly-museum.yaml'), 'utf8')) as Document;
const petstore = JSON.parse(readFileSync(fixtureSpec('oai-petstore-expanded.json'), 'utf8')) as Document;

const withItem = (document: Document, key: string, value: JsonValue): Document => ({
  ...document,
  paths: { ...document.paths, [key]: value },
});
const piecesOf = (text: string) => textPieces(text, documentSpans(text) ?? { items: [] });
const textOf = (document: Document) => JSON.stringify(document, null, 2);

describe('a JSON text known by its pieces', () => {
  it('tells the one item a new text changed, with the new text’s pieces', () => {
    const before = textOf(museum);
    const keys = Object.keys(museum.paths);
    for (const key of keys) {
      const values: JsonValue[] = [{ get: { responses: {} } }, 'x', null, { ...(museum.paths[key] as JsonObject), 'x-note': 'é ∑ 😀' }];
      for (const value of values) {
        const after = textOf(withItem(museum, key, value));
        const changed = changedItem(piecesOf(before), after);
        expect(changed?.index, key).toBe(keys.indexOf(key));
        expect(JSON.parse(changed?.itemText ?? ''), key).toEqual(value);
        expect(changed?.pieces, key).toEqual(piecesOf(after));
      }
    }
  });

  it('answers nothing for a change across items, outside paths or to a key, and -1 for the same text', () => {
    const before = piecesOf(textOf(museum));
    const [first, second] = Object.keys(museum.paths) as [string, string];
    const twoItems = withItem(withItem(museum, first, 'x'), second, 'y');
    const renamed = {
      ...museum,
      paths: Object.fromEntries(Object.entries(museum.paths).map(([key, item]) => [key === first ? `${key}x` : key, item])),
    };
    for (const [name, document] of [
      ['two items', twoItems],
      ['the info', { ...museum, info: { title: 'Changed', version: '1' } }],
      ['a key', renamed],
      ['an item added', withItem(museum, '/added', {})],
    ] as const)
      expect(changedItem(before, textOf(document)), name).toBeUndefined();
    expect(changedItem(before, textOf(museum))?.index).toBe(-1);
  });
});

describe('a schema check from the last run’s', () => {
  it('reports what checking the whole edited document reports, checking only the item that changed', async () => {
    const { checkFromLast, checkDocument } = await built();
    let merged = 0;
    for (const document of [museum, petstore]) {
      const keys = Object.keys(document.paths);
      const [first, last] = [keys[0] as string, keys.at(-1) as string];
      const middle = keys[Math.floor(keys.length / 2)] as string;
      // As written, and with the first item broken: the merge then has errors of an item to keep its place among.
      for (const base of [document, withItem(document, first, { ...(document.paths[first] as JsonObject), bogus: 1 })]) {
        const baseText = textOf(base);
        const kept = { pieces: piecesOf(baseText), check: checkDocument(base) };
        for (const key of new Set([first, middle, last])) {
          const item = base.paths[key] as JsonObject;
          const method = ['get', 'post', 'put', 'delete'].find((name) => item[name] !== undefined) ?? 'get';
          for (const value of [
            { ...item, bogus: 1 },
            { ...item, [method]: { ...(item[method] as JsonObject), responses: 'none' } },
            {},
            'a string',
            document.paths[key] as JsonValue,
          ]) {
            const next = withItem(base, key, value);
            const text = textOf(next);
            const fromLast = checkFromLast(kept, JSON.parse(text) as JsonObject, text);
            const whole = checkDocument(next);
            if (!fromLast) {
              // Only where no item had errors, something else had, and the edited item has.
              expect(kept.check.errors.some((error) => error.instancePath.startsWith('/paths/'))).toBe(false);
              continue;
            }
            expect(fromLast.check.errors, `${key}: ${JSON.stringify(value).slice(0, 40)}`).toEqual(whole.errors);
            expect(fromLast.pieces).toEqual(piecesOf(text));
            merged++;
          }
        }
      }
    }
    expect(merged).toBeGreaterThan(40);
  });

  it('checks whole what changed outside one item, or into text that is not one value', async () => {
    const { checkFromLast, checkDocument } = await built();
    const text = textOf(museum);
    const kept = { pieces: piecesOf(text), check: checkDocument(museum) };
    const info = textOf({ ...museum, info: 5 });
    expect(checkFromLast(kept, JSON.parse(info) as JsonObject, info)).toBeUndefined();
    // A new key spliced into an item's text: the change lies inside the item's span, but adds an item.
    const [first] = Object.keys(museum.paths) as [string];
    const span = pathItemSpans(text)![0]!;
    const spliced = `${text.slice(0, span.end - 1)}}, "/spliced": {${text.slice(span.end - 1)}`;
    const root = JSON.parse(spliced) as Document;
    expect(Object.keys(root.paths)).toContain('/spliced');
    expect(checkFromLast(kept, root, spliced), first).toBeUndefined();
    expect(checkFromLast(kept, JSON.parse(text) as JsonObject, text)).toBe(kept);
  });
});
