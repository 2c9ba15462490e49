import { describe, expect, it } from 'vitest';
import { sameJson } from '../../src/cache/same-json.js';

/** A small deterministic generator of JSON-like values, with the values JSON.stringify treats specially mixed in. */
function randomValues(seed: number, count: number): unknown[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const leaves: unknown[] = [0, -0, 1, 2.5, NaN, Infinity, '', 'a', 'b', true, false, null, undefined, () => 1];
  const make = (depth: number): unknown => {
    const roll = next();
    if (depth > 2 || roll < 0.5) return leaves[Math.floor(next() * leaves.length)];
    const size = Math.floor(next() * 3);
    if (roll < 0.75) return Array.from({ length: size }, () => make(depth + 1));
    const object: Record<string, unknown> = {};
    for (let index = 0; index < size; index++) object[['x', 'y', 'z'][Math.floor(next() * 3)] as string] = make(depth + 1);
    return object;
  };
  return Array.from({ length: count }, () => make(0));
}

describe('sameJson', () => {
  it('answers true only for values JSON.stringify prints alike', () => {
    const values = randomValues(7, 400);
    let equalPairs = 0;
    for (const a of values)
      for (const b of values) {
        if (!sameJson(a, b)) continue;
        equalPairs++;
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      }
    // Not a vacuous check: many pairs are equal, beyond each value with itself.
    expect(equalPairs).toBeGreaterThan(values.length * 2);
  });

  it('finds equal content in distinct objects, key order included', () => {
    const operation = { key: 'get /a', parameters: [{ name: 'q', schema: { type: 'string' } }], summary: undefined };
    expect(sameJson(operation, structuredClone(operation))).toBe(true);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ a: 1, gone: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, gone: undefined })).toBe(true);
    expect(sameJson({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false);
    expect(sameJson({ a: '1' }, { a: 1 })).toBe(false);
  });

  it('answers false where JSON.stringify would have to be imitated', () => {
    expect(sameJson([undefined], [null])).toBe(false);
    expect(sameJson(NaN, NaN)).toBe(false);
    expect(sameJson({ toJSON: () => 'x' }, { toJSON: () => 'x' })).toBe(false);
  });
});
