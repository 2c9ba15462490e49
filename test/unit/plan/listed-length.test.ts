import { describe, expect, it } from 'vitest';
import { jsonLength } from '../../../src/plan/build/listed-length.js';

/** A small deterministic generator (the same values every run), so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** Characters that stress the escapes: quotes, backslashes, controls, U+2028, paired and lone surrogates, non-ASCII. */
const ALPHABET = ['a', 'Z', ' ', '"', '\\', '\n', '\u0000', '\u001f', '\u007f', 'é', '\u2028', '😀', '\ud800', '\udc00', '/'];

function randomValue(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 6 : 9));
  switch (pick) {
    case 0:
      return Array.from({ length: Math.floor(next() * 12) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join('');
    case 1:
      return [0, -0, 1.5, -3, 1e21, 1e-7, 2 ** 53, Number.NaN, Infinity][Math.floor(next() * 9)];
    case 2:
      return next() < 0.5;
    case 3:
      return null;
    case 4:
      return undefined;
    case 5:
      return 'plain text';
    case 6:
    case 7: {
      const object: Record<string, unknown> = {};
      for (let index = Math.floor(next() * 5); index > 0; index--) object[randomValue(next, 5) as string] = randomValue(next, depth + 1);
      return object;
    }
    default:
      return Array.from({ length: Math.floor(next() * 5) }, () => randomValue(next, depth + 1));
  }
}

describe('jsonLength', () => {
  it('is the length of what JSON.stringify writes, for random values with every kind of escape', () => {
    const next = random(16);
    for (let run = 0; run < 2_000; run++) {
      const value = { entry: randomValue(next, 0) };
      expect(jsonLength(value)).toBe(JSON.stringify(value).length);
    }
  });

  it('leaves out what JSON.stringify leaves out, and writes null for it in arrays', () => {
    const value = { a: undefined, b: () => 1, c: [undefined, () => 1], d: 'x' };
    expect(jsonLength(value)).toBe(JSON.stringify(value).length);
    expect(jsonLength(undefined)).toBeUndefined();
  });

  it('defers to toJSON and to keys such as __proto__ as JSON.stringify does', () => {
    const withProto = JSON.parse('{"__proto__": {"x": 1}, "y": "\\u2029"}') as object;
    const value = { when: new Date(0), withProto, toJSONText: { toJSON: 'not a function' } };
    expect(jsonLength(value)).toBe(JSON.stringify(value).length);
  });

  it('measures a part shared by several values once, and the same each time', () => {
    const shared = { type: 'object', properties: { name: { type: 'string', description: 'A "quoted" name' } } };
    const first = { inputSchema: { $defs: { Shared: shared } } };
    const second = { other: [shared, shared], more: 'text' };
    expect(jsonLength(first)).toBe(JSON.stringify(first).length);
    expect(jsonLength(second)).toBe(JSON.stringify(second).length);
  });
});
