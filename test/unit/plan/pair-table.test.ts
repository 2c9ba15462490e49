import { describe, expect, it } from 'vitest';
import { PairTable } from '../../../src/plan/group/pair-table.js';

describe('pair table', () => {
  const blocks = [0, 1, 0, -1, 2, 0, 1, 0, 2, 1];
  const table = new PairTable(blocks, 12, 300);

  it('keeps each pair of one block once, in a dense range, the same whichever slot comes first', () => {
    const seen = new Set<number>();
    for (let i = 0; i < blocks.length; i++)
      for (let j = i + 1; j < blocks.length; j++) {
        const at = table.index(i, j);
        expect(table.index(j, i)).toBe(at);
        if (blocks[i] !== blocks[j] || blocks[i] === -1) {
          expect(at).toBe(-1);
          continue;
        }
        expect(seen.has(at)).toBe(false);
        seen.add(at);
      }
    // Blocks of 4, 3 and 2 slots: 6 + 3 + 1 pairs.
    expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(table.scores).toHaveLength(10);
    expect([...table.scores].every((score) => score === -Infinity)).toBe(true);
  });

  it('stores counts in the narrowest type that holds them', () => {
    expect(table.sharedCounts).toBeInstanceOf(Uint8Array);
    expect(table.argumentUnions).toBeInstanceOf(Uint16Array);
    expect(new PairTable([0, 0], 1, 70_000).argumentUnions).toBeInstanceOf(Uint32Array);
  });
});
