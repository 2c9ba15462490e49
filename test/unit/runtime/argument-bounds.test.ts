import { describe, expect, it } from 'vitest';
import { argumentBoundsProblem, bodyBoundsProblem, MAX_ARGUMENT_DEPTH } from '../../../templates/runtime/arguments/argument-bounds.js';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
};

describe('argument bounds', () => {
  it('pass ordinary arguments, and refuse too many values or too deep a nesting with what to do instead', () => {
    expect(
      argumentBoundsProblem({ action: 'add_pet', name: 'x', tags: [{ id: 1 }], meta: nested(MAX_ARGUMENT_DEPTH - 2) }),
    ).toBeUndefined();
    expect(argumentBoundsProblem({ category: Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, 1])) })).toMatch(
      /more than 50,000 values.*Nothing was sent: send fewer items/,
    );
    // Deeper than any stack would bear for a recursive walk: the walk is iterative and stops at the bound.
    expect(argumentBoundsProblem(nested(100_000))).toMatch(/nest deeper than 64 levels.*Nothing was sent/);
  });

  it('check a request body’s text before it is parsed, strings and escapes included', () => {
    const keys = `{${Array.from({ length: 250_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(bodyBoundsProblem(`{"params":{"arguments":${keys}}}`)).toMatch(/more than 100,000 values/);
    expect(bodyBoundsProblem(`{"a":${'['.repeat(5_000)}${']'.repeat(5_000)}}`)).toMatch(/deeper than 1000 levels/);
    // Brackets and commas inside strings (and escaped quotes) are text, not structure.
    expect(bodyBoundsProblem(JSON.stringify({ text: `${'[,'.repeat(200_000)}\\"` }))).toBeUndefined();
  });
});
