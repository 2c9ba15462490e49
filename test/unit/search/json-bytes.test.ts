import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../src/kernel/json.js';
import { jsonBytes } from '../../../src/search/json-bytes.js';

/** A small deterministic generator (the same values every run), so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** Characters of every UTF-8 length and escape: quotes, backslashes, controls, U+2028, paired and lone surrogates. */
const ALPHABET = ['a', 'Z', ' ', '"', '\\', '\n', '\u0000', '\u001f', '\u007f', 'é', '\u2028', '€', '😀', '\ud800', '\udc00', '/'];

function randomValue(next: () => number, depth: number): JsonValue {
  const pick = Math.floor(next() * (depth > 3 ? 5 : 8));
  switch (pick) {
    case 0:
      return Array.from({ length: Math.floor(next() * 12) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join('');
    case 1:
      return [0, -0, 1.5, -3, 1e21, 1e-7, 2 ** 53, Number.NaN, Infinity][Math.floor(next() * 9)] as number;
    case 2:
      return next() < 0.5;
    case 3:
      return null;
    case 4:
      return 'plain text';
    case 5:
    case 6: {
      const object: { [key: string]: JsonValue } = {};
      for (let index = Math.floor(next() * 5); index > 0; index--) object[randomValue(next, 5) as string] = randomValue(next, depth + 1);
      return object;
    }
    default:
      return Array.from({ length: Math.floor(next() * 5) }, () => randomValue(next, depth + 1));
  }
}

const written = (value: JsonValue) => Buffer.byteLength(JSON.stringify(value));

describe('jsonBytes', () => {
  it('is the UTF-8 size of what JSON.stringify writes, for random values with every kind of character', () => {
    const next = random(31);
    for (let run = 0; run < 2_000; run++) {
      const value = { entry: randomValue(next, 0) };
      expect(jsonBytes(value)).toBe(written(value));
    }
  });

  it('takes keys such as __proto__ as JSON.stringify does', () => {
    const value = JSON.parse('{"__proto__": {"x": "ü"}, "y": "\\u2029"}') as JsonValue;
    expect(jsonBytes(value)).toBe(written(value));
  });

  it('measures a part shared by several values once, and the same each time', () => {
    const shared = { type: 'object', properties: { name: { type: 'string', description: `A "quoted" name, ${'long '.repeat(60)}` } } };
    const first = { inputSchema: { $defs: { Shared: shared } } };
    const second = { other: [shared, shared], more: 'téxt' };
    expect(jsonBytes(first)).toBe(written(first));
    expect(jsonBytes(second)).toBe(written(second));
    expect(jsonBytes(first)).toBe(written(first));
  });
});
