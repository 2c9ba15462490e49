import { describe, expect, it } from 'vitest';
import { decodeTable, EMPTY, encodeTable, lookupRank } from '../../../src/plan/budget/o200k-table.js';

const encoder = new TextEncoder();
const TOKENS = [
  'a',
  'b',
  'ab',
  'hello',
  ' world',
  '\u00e9t\u00e9',
  '{"',
  '":',
  ...Array.from({ length: 300 }, (_, index) => `t${index}`),
].map((text) => encoder.encode(text));

/**
 * The file as a big-endian machine's native 32-bit reads would see it, made visible on this little-endian one: the
 * offset and slot words byte-swapped. The header is read with an explicit byte order, so it stays as written.
 */
function asSeenBigEndian(file: Uint8Array): Uint8Array {
  const header = new DataView(file.buffer, file.byteOffset, 16);
  const words = 4 + header.getUint32(4, true) + 1 + header.getUint32(8, true);
  const seen = file.slice();
  Buffer.from(seen.buffer, 16, (words - 4) * 4).swap32();
  return seen;
}

describe('the o200k table file', () => {
  it('finds every token at its rank, and no other byte string', () => {
    const table = decodeTable(encodeTable(TOKENS, () => true));
    TOKENS.forEach((token, rank) => expect(lookupRank(table, token, 0, token.length)).toBe(rank));
    const absent = encoder.encode('abc');
    expect(lookupRank(table, absent, 0, absent.length)).toBe(EMPTY);
  });

  it('reads its little-endian words right on a big-endian machine', () => {
    const file = encodeTable(TOKENS, (rank) => rank !== 3);
    const native = decodeTable(file.slice(), 'LE');
    const swapped = decodeTable(asSeenBigEndian(file), 'BE');
    expect(Array.from(swapped.offsets)).toEqual(Array.from(native.offsets));
    expect(Array.from(swapped.slots)).toEqual(Array.from(native.slots));
    TOKENS.forEach((token, rank) => expect(lookupRank(swapped, token, 0, token.length)).toBe(rank === 3 ? EMPTY : rank));
  });

  it('refuses a file it did not write', () => {
    const file = encodeTable(TOKENS, () => true);
    expect(() => decodeTable(file.subarray(0, file.length - 1))).toThrow(/npm run build/);
  });
});
