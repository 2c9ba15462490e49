import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/kernel/json.js';
import { fixtureSpec, REPO_ROOT } from '../helpers/paths.js';

/** The modules as built: the compiled validators load from dist/, as they do for users. */
async function built() {
  const module = async <T>(file: string) => (await import(pathToFileURL(path.join(REPO_ROOT, 'dist', file)).href)) as T;
  return {
    ...(await module<typeof import('../../src/load/save-validation.js')>('load/save-validation.js')),
    ...(await module<typeof import('../../src/load/reparse-document.js')>('load/reparse-document.js')),
    ...(await module<typeof import('../../src/load/validate-document.js')>('load/validate-document.js')),
    ...(await module<typeof import('../../src/diagnostics/diagnostic.js')>('diagnostics/diagnostic.js')),
  };
}

type Document = JsonObject & { paths: Record<string, JsonObject & { get?: JsonObject }> };

describe('a watch’s validation, save after save', () => {
  it('reports what validating each save whole reports, checking only the item a save changed', async () => {
    const { SaveValidation, DocumentReparse, validateDocument, Diagnostics } = await built();
    const document = JSON.parse(readFileSync(fixtureSpec('oai-petstore-expanded.json'), 'utf8')) as Document;
    const [first, second] = Object.keys(document.paths) as [string, string];
    const saves: Array<[string, (draft: Document) => void, 'from the last' | 'whole']> = [
      ['the first save', () => undefined, 'whole'],
      ['an unknown property in one item', (draft) => void (draft.paths[first]!['bogus'] = 1), 'from the last'],
      ['another item broken too', (draft) => void (draft.paths[second]!['get'] = { responses: 'none' }), 'from the last'],
      ['the same text again', () => undefined, 'from the last'],
      ['the first item mended', (draft) => void delete draft.paths[first]!['bogus'], 'from the last'],
      ['the info broken, outside paths', (draft) => void (draft['info'] = 5), 'whole'],
      ['one item broken after that', (draft) => void (draft.paths[first]!['x'] = 1), 'from the last'],
    ];
    const reparse = new DocumentReparse();
    const validation = new SaveValidation();
    const draft = structuredClone(document);
    for (const [name, edit, expected] of saves) {
      edit(draft);
      const text = JSON.stringify(draft, null, 2);
      const reparsed = reparse.parse(text);
      const root = reparsed?.root ?? (JSON.parse(text) as JsonObject);
      if (!reparsed) reparse.remember(text, root, 10_000, { json: true });
      const found = new Diagnostics();
      expect(validation.validate(root, { text, location: 'x.json' }, found, reparsed), name).toBe(expected);
      await found.settle();
      const whole = new Diagnostics();
      validateDocument(JSON.parse(text) as JsonObject, whole);
      expect(found.items, name).toEqual(whole.items);
      if (name !== 'the first save') expect(found.items.length, name).toBeGreaterThan(0);
    }
    await validation.close();
  });
});
