import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/kernel/json.js';
import { withPathItemErrors } from '../../src/load/path-item-errors.js';
import { REPO_ROOT } from './paths.js';

/** The checks as built: the validators compiled by npm run build load from dist/, as they do for users. */
export async function builtChecks() {
  return (await import(
    pathToFileURL(path.join(REPO_ROOT, 'dist/load/validate-document.js')).href
  )) as typeof import('../../src/load/validate-document.js');
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** What a save may do to a path item: break it in several ways, empty it, make it not an object. */
const EDITS: Record<string, (item: JsonObject) => JsonValue> = {
  'an unknown property': (item) => ({ ...item, bogus: 1 }),
  'responses of the wrong type': (item) => {
    const method = METHODS.find((name) => item[name] !== undefined);
    return method ? { ...item, [method]: { ...(item[method] as JsonObject), responses: 'none' } } : { ...item, get: 3 };
  },
  'parameters no schema allows': (item) => {
    const method = METHODS.find((name) => item[name] !== undefined) ?? 'get';
    return { ...item, [method]: { ...((item[method] as JsonObject | undefined) ?? {}), parameters: [{ in: 'nowhere' }, 5] } };
  },
  'an empty item': () => ({}),
  'a string': () => 'x',
  null: () => null,
};

function withItem(document: JsonObject, key: string, value: JsonValue): JsonObject {
  return { ...document, paths: { ...(document['paths'] as JsonObject), [key]: value } };
}

function itemOf(document: JsonObject, key: string): JsonObject {
  const value = (document['paths'] as JsonObject)[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}

/**
 * Edits items of `document` (the first, second, middle and last) every way EDITS knows, and back to as written, over
 * three starting points (as written; the first and last items broken; the first item and the info broken), and
 * expects the errors of the edited item checked alone, merged with the starting point's, to be the whole edited
 * document's. Answers how many edits were merged (the rest are where the merge rightly declines).
 */
export async function expectItemChecksAgree(document: JsonObject): Promise<number> {
  const { checkDocument, checkPathItem } = await builtChecks();
  const keys = Object.keys(document['paths'] as JsonObject);
  const [first, second, last] = [keys[0] as string, (keys[1] ?? keys[0]) as string, keys.at(-1) as string];
  const middle = keys[Math.floor(keys.length / 2)] as string;
  const bases = [
    document,
    withItem(withItem(document, first, { ...itemOf(document, first), bogus: 1 }), last, 'x'),
    { ...withItem(document, first, { ...itemOf(document, first), bogus: 1 }), info: 5 },
  ];
  let merged = 0;
  for (const base of bases) {
    const before = checkDocument(base);
    for (const key of new Set([first, second, middle, last])) {
      for (const [name, edit] of [...Object.entries(EDITS), ['the item as written', () => itemOf(document, key)] as const]) {
        const next = withItem(base, key, edit(itemOf(base, key)));
        const own = checkPathItem(next, key);
        expect(own, 'the compiled path item validator').toBeDefined();
        const errors = withPathItemErrors(before.errors, keys, key, own ?? []);
        if (errors === undefined) {
          // Only where no item had errors, something else had, and the edited item has: their place is the whole
          // validation's to tell.
          expect(before.errors.some((error) => error.instancePath.startsWith('/paths/'))).toBe(false);
          expect(before.errors.length).toBeGreaterThan(0);
          expect(own?.length).toBeGreaterThan(0);
          continue;
        }
        expect(errors, `${key}: ${name}`).toEqual(checkDocument(next).errors);
        merged++;
      }
    }
  }
  return merged;
}
