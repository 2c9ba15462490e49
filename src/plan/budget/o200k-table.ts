import { endianness } from 'node:os';

/**
 * o200k's mergeable tokens as one binary file (built by scripts/build-o200k.mjs from gpt-tokenizer's ranks), read
 * with one readFileSync into typed arrays: about 4 MB of memory and a few milliseconds, where gpt-tokenizer's
 * 2.4 MB array literal costs V8 some 45 MB and a few hundred milliseconds to compile and turn into a Map.
 *
 * Layout, little-endian, every section starting at a multiple of 4:
 * - header, 4 × uint32: MAGIC, token count, slot count (a power of two), byte count;
 * - offsets, (token count + 1) × uint32: the bytes of the token of rank r are bytes[offsets[r], offsets[r + 1]);
 * - slots, slot count × int32: an open-addressing hash table (linear probing on `hashBytes`) of ranks, EMPTY where
 *   none; a token that gpt-tokenizer can never look up is left out of it (see scripts/build-o200k.mjs);
 * - bytes: every token's bytes, in rank order.
 * A lookup hashes a range of a byte array and compares bytes: no string is made.
 */
const MAGIC = 0x6b303032; // "200k" read as a little-endian uint32
const HEADER_WORDS = 4;
export const EMPTY = -1;

export type O200kTable = {
  offsets: Uint32Array;
  slots: Int32Array;
  bytes: Uint8Array;
  /** Slot count − 1. */
  mask: number;
};

/** FNV-1a over bytes[start, end), then murmur3's final mix so that the low bits (the slot) depend on every byte. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ bytes[index]!, 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** The rank of the token whose bytes are bytes[start, end), or EMPTY. */
export function lookupRank(table: O200kTable, bytes: Uint8Array, start: number, end: number): number {
  const { offsets, slots, bytes: tokens, mask } = table;
  const length = end - start;
  for (let slot = hashBytes(bytes, start, end) & mask; ; slot = (slot + 1) & mask) {
    const rank = slots[slot]!;
    if (rank === EMPTY) return EMPTY;
    const from = offsets[rank]!;
    if (offsets[rank + 1]! - from !== length) continue;
    let same = true;
    for (let index = 0; index < length; index++)
      if (tokens[from + index] !== bytes[start + index]) {
        same = false;
        break;
      }
    if (same) return rank;
  }
}

/** The file's bytes for tokens in rank order; `reachable(rank)` says which go into the hash table. */
export function encodeTable(tokens: readonly Uint8Array[], reachable: (rank: number) => boolean): Uint8Array {
  let slotCount = 1;
  while (slotCount < tokens.length * 2.5) slotCount *= 2; // a load under 0.4: short probe runs
  const byteCount = tokens.reduce((sum, token) => sum + token.length, 0);
  const words = HEADER_WORDS + tokens.length + 1 + slotCount;
  const file = new Uint8Array(words * 4 + byteCount);
  const view = new DataView(file.buffer);
  [MAGIC, tokens.length, slotCount, byteCount].forEach((value, index) => view.setUint32(index * 4, value, true));

  const offsetsAt = HEADER_WORDS * 4;
  const slotsAt = offsetsAt + (tokens.length + 1) * 4;
  const bytesAt = slotsAt + slotCount * 4;
  let offset = 0;
  tokens.forEach((token, rank) => {
    view.setUint32(offsetsAt + rank * 4, offset, true);
    file.set(token, bytesAt + offset);
    offset += token.length;
  });
  view.setUint32(offsetsAt + tokens.length * 4, offset, true);

  const slots = new Int32Array(slotCount).fill(EMPTY);
  tokens.forEach((token, rank) => {
    if (!reachable(rank)) return;
    let slot = hashBytes(token, 0, token.length) & (slotCount - 1);
    while (slots[slot] !== EMPTY) slot = (slot + 1) & (slotCount - 1);
    slots[slot] = rank;
  });
  slots.forEach((rank, slot) => view.setInt32(slotsAt + slot * 4, rank, true));
  return file;
}

/**
 * Typed-array views over a file `encodeTable` wrote (copied only where alignment or byte order requires).
 * `byteOrder` is this machine's; a parameter so that a test can read the file as a big-endian machine does.
 */
export function decodeTable(file: Uint8Array, byteOrder: 'BE' | 'LE' = endianness()): O200kTable {
  const aligned = file.byteOffset % 4 === 0 ? file : file.slice();
  const header = new DataView(aligned.buffer, aligned.byteOffset, HEADER_WORDS * 4);
  const [magic, tokenCount, slotCount, byteCount] = [0, 1, 2, 3].map((index) => header.getUint32(index * 4, true)) as [
    number,
    number,
    number,
    number,
  ];
  const wordCount = HEADER_WORDS + tokenCount + 1 + slotCount;
  if (magic !== MAGIC || aligned.length !== wordCount * 4 + byteCount)
    throw new Error('The o200k table is not a file scripts/build-o200k.mjs wrote: run `npm run build`.');
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, wordCount);
  if (byteOrder === 'BE') Buffer.from(words.buffer, words.byteOffset, words.byteLength).swap32();
  const offsetsAt = aligned.byteOffset + HEADER_WORDS * 4;
  const slotsAt = offsetsAt + (tokenCount + 1) * 4;
  return {
    offsets: new Uint32Array(aligned.buffer, offsetsAt, tokenCount + 1),
    slots: new Int32Array(aligned.buffer, slotsAt, slotCount),
    bytes: new Uint8Array(aligned.buffer, slotsAt + slotCount * 4, byteCount),
    mask: slotCount - 1,
  };
}
