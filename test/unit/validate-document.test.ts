import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/kernel/json.js';
import { REPO_ROOT } from '../helpers/paths.js';

/** As built: the compiled validators load from dist/, as they do for users. */
async function built() {
  const module = async <T>(file: string) => (await import(pathToFileURL(path.join(REPO_ROOT, 'dist', file)).href)) as T;
  return {
    ...(await module<typeof import('../../src/load/validate-document.js')>('load/validate-document.js')),
    ...(await module<typeof import('../../src/diagnostics/diagnostic.js')>('diagnostics/diagnostic.js')),
  };
}

const responses = { 200: { description: 'ok' } };
/** Ajv's uniqueItems compares each item with those before it by fast-deep-equal, which calls the item's own `toString`. */
const trap = { toString: 'not a function', in: 'query' };

describe('the schema check on data that makes the validator throw', () => {
  it('reports a warning with a hint instead of throwing', async () => {
    const { checkDocument, validateDocument, Diagnostics } = await built();
    const document: JsonObject = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      tags: [{ name: 'b' }, trap],
      paths: { '/a': { get: { responses } } },
    };
    const check = checkDocument(document);
    expect(check.errors).toEqual([]);
    expect(check.failure).toMatch(/toString/);
    const diagnostics = new Diagnostics();
    validateDocument(document, diagnostics);
    expect(diagnostics.items).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'OTM_VALIDATION', pointer: '#', hint: expect.stringMatching(/lint/) }),
    ]);
  });

  it('answers nothing for a path item, so a watch checks the save whole', async () => {
    const { checkPathItem } = await built();
    const document: JsonObject = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      paths: { '/a': { parameters: [{ name: 'q', in: 'query' }, trap], get: { responses } } },
    };
    expect(checkPathItem(document, '/a')).toBeUndefined();
  });
});
