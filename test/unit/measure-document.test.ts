import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import { measureDocument, measureShared } from '../../src/load/measure-document.js';
import { parseText } from '../../src/load/parse-text.js';

const SPECS = path.resolve(import.meta.dirname, '../fixtures/specs');

/** `levels` nested lists around a string. */
function nested(levels: number): unknown {
  let node: unknown = 'leaf';
  for (let level = 0; level < levels; level++) node = [node];
  return node;
}

/** A list that holds `copies` times the same list, `levels` deep: an alias expansion without its text. */
function shared(levels: number, copies: number): unknown {
  let node: unknown = ['x'];
  for (let level = 0; level < levels; level++) node = Array.from({ length: copies }, () => node);
  return node;
}

describe('measureDocument', () => {
  // The plain walk answers most documents; every answer must be the one the general measure gives.
  const limits = { depth: 20, nodes: 1_000 };
  const cases: Array<[string, unknown]> = [
    ['an empty object', {}],
    ['well within the limits', { a: [1, { b: null }], c: { d: 'e' } }],
    ['just under the depth limit', nested(19)],
    ['at the depth limit', nested(20)],
    ['over the depth limit', nested(21)],
    ['just under the node limit', Array.from({ length: 999 }, (_, index) => index)],
    ['over the node limit', Array.from({ length: 1_000 }, (_, index) => index)],
    ['shared subtrees within the limits', shared(3, 4)],
    ['shared subtrees over the node limit', shared(6, 4)],
  ];
  for (const [name, document] of cases) {
    it(`measures ${name} as the general measure does`, () => {
      expect(measureDocument(document, limits)).toEqual(measureShared(document as object, limits));
    });
  }

  it('finds a cycle, which the plain walk leaves to the general measure', () => {
    const loop: Record<string, unknown> = { name: 'loop' };
    loop['again'] = { inner: loop };
    expect(measureDocument({ root: loop }, limits)).toEqual({ ok: false, problem: 'cycle', pointer: '#/root/again/inner' });
  });

  it('gives the general measure’s answer on every vendored description', () => {
    const files = readdirSync(SPECS).filter((file) => /\.(json|ya?ml)$/.test(file));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const parsed = parseText(readFileSync(path.join(SPECS, file), 'utf8'), file, new Diagnostics()) as object;
      const measured = measureDocument(parsed);
      expect(measured.ok, file).toBe(true);
      expect(measured, file).toEqual(measureShared(parsed, { depth: 512, nodes: 5_000_000 }));
    }
  });
});
