import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { JsonObject } from '../../src/kernel/json.js';
import { withPathItemErrors } from '../../src/load/path-item-errors.js';
import { expectItemChecksAgree } from '../helpers/path-item-edits.js';
import { fixtureSpec } from '../helpers/paths.js';

function read(entry: string): JsonObject {
  const text = readFileSync(fixtureSpec(entry), 'utf8');
  return (entry.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as JsonObject;
}

describe('a path item revalidated alone', () => {
  it.each(['oai-uber.json', 'oai-petstore-expanded.json', 'redocly-museum.yaml', 'oai-tictactoe.yaml'])(
    'gives what validating the whole of %s gives, for every edit, whatever the other items got wrong',
    async (entry) => {
      expect(await expectItemChecksAgree(read(entry))).toBeGreaterThanOrEqual(2 * 7 * 2);
    },
  );

  it('puts an item’s errors where the whole validation puts them, and says so where their place is unknown', () => {
    const error = (instancePath: string) => ({ instancePath, message: 'm' });
    const keys = ['/a', '/b~c/d', '/e'];
    const others = [error('/info'), error('/paths')];
    const a = error('/paths/~1a/get');
    const b = error('/paths/~1b~0c~1d');
    const e = error('/paths/~1e/x');
    const fresh = error('/paths/~1b~0c~1d/post');
    expect(withPathItemErrors([...others, a, b, e], keys, '/b~c/d', [fresh])).toEqual([...others, a, fresh, e]);
    expect(withPathItemErrors([...others, a, e], keys, '/b~c/d', [fresh])).toEqual([...others, a, fresh, e]);
    expect(withPathItemErrors([a, ...others], keys, '/b~c/d', [fresh])).toEqual([a, fresh, ...others]);
    expect(withPathItemErrors([...others, e], keys, '/b~c/d', [fresh])).toEqual([...others, fresh, e]);
    expect(withPathItemErrors([...others, b, b], keys, '/b~c/d', [])).toEqual(others);
    expect(withPathItemErrors([], keys, '/b~c/d', [fresh])).toEqual([fresh]);
    // No item had errors, others did: before them or after them, the whole document has to tell; none now, none move.
    expect(withPathItemErrors(others, keys, '/b~c/d', [fresh])).toBeUndefined();
    expect(withPathItemErrors(others, keys, '/b~c/d', [])).toEqual(others);
    // Not the order of the document's items: another document's errors.
    expect(withPathItemErrors([e, a], keys, '/b~c/d', [])).toBeUndefined();
    expect(withPathItemErrors([a, error('/info'), e], keys, '/b~c/d', [])).toBeUndefined();
    expect(withPathItemErrors([error('/paths/~1z')], keys, '/b~c/d', [])).toBeUndefined();
  });
});
