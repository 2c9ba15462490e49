import { readFileSync } from 'node:fs';
import { asciiPieceEnd } from './o200k-pieces.js';
import { decodeTable, EMPTY, lookupRank, type O200kTable } from './o200k-table.js';

/**
 * Where the build writes the table: from the package root, so that the same path serves this module in dist/ and,
 * in tests, in src/.
 */
const TABLE_URL = new URL('../../../dist/o200k_base.bin', import.meta.url);

/**
 * o200k's pre-tokenizer, as gpt-tokenizer 4.0.0 writes it (a test keeps the two the same): words with an optional
 * leading mark and a contraction, numbers of up to three digits, punctuation runs, line breaks, white space.
 */
const CONTRACTION = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;
export const O200K_PIECES = new RegExp(
  [
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}`,
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
    String.raw`\s*[\r\n]+`,
    String.raw`\s+(?!\S)`,
    String.raw`\s+`,
  ].join('|'),
  'gu',
);

/** Larger than any rank: a pair that is no token. */
const NO_MERGE = 0x7fffffff;

/** Pieces counted by merging, kept: JSON repeats its keys and words, and a lookup is cheaper than a merge. */
const CACHE_LIMIT = 100_000;

/**
 * Counts o200k tokens exactly as gpt-tokenizer 4.0.0's `countTokens(text, { disallowedSpecial: new Set() })` does:
 * special-token text counted as plain text, a piece that is one token counted as one, every other piece merged byte
 * pair by byte pair, the lowest rank first and the leftmost of equal ranks. A lone surrogate is written as U+FFFD, as
 * TextEncoder writes it (gpt-tokenizer then skips the lookup of the whole piece, but each of the tokens with U+FFFD
 * merges back whole: a test checks). One way of gpt-tokenizer's is kept because its counts are the ones reported: the bytes of a
 * pair of whole characters that starts with U+FEFF are looked up without it (gpt-tokenizer turns such bytes into a
 * string with a TextDecoder, which drops a leading byte order mark), so "\ufeff名" is one token, "名".
 */
export class O200kCounter {
  private bytes = new Uint8Array(256);
  private starts = new Int32Array(257);
  private ranks = new Int32Array(257);
  private readonly mergedCounts = new Map<string, number>();

  constructor(private readonly table: O200kTable) {}

  static load(): O200kCounter {
    let file: Buffer;
    try {
      file = readFileSync(TABLE_URL);
    } catch (error) {
      throw new Error(`The o200k table cannot be read (\`npm run build\` writes it): ${(error as Error).message}`);
    }
    return new O200kCounter(decodeTable(file));
  }

  count(text: string): number {
    let total = 0;
    for (let at = 0; at < text.length;) {
      const end = asciiPieceEnd(text, at);
      if (end >= 0) {
        total += this.countAscii(text, at, end);
        at = end;
        continue;
      }
      // Every position starts a piece (the last alternatives take any character), so the search finds the piece
      // that starts here; were it ever to skip characters, they would go uncounted, as gpt-tokenizer leaves them.
      O200K_PIECES.lastIndex = at;
      const match = O200K_PIECES.exec(text);
      if (!match) break;
      const length = this.encode(match[0]);
      total += lookupRank(this.table, this.bytes, 0, length) !== EMPTY ? 1 : this.merged(match[0], length);
      at = match.index + match[0].length;
    }
    return total;
  }

  /** An ASCII piece, text[start, end): its bytes are its character codes. */
  private countAscii(text: string, start: number, end: number): number {
    const length = end - start;
    if (this.bytes.length < length) this.bytes = new Uint8Array(length * 2);
    for (let index = 0; index < length; index++) this.bytes[index] = text.charCodeAt(start + index);
    return lookupRank(this.table, this.bytes, 0, length) !== EMPTY ? 1 : this.merged(text.slice(start, end), length);
  }

  /** The tokens of a piece that is not one token, whose UTF-8 bytes are this.bytes[0, length). */
  private merged(piece: string, length: number): number {
    let count = this.mergedCounts.get(piece);
    if (count === undefined) {
      count = this.merge(length);
      if (this.mergedCounts.size >= CACHE_LIMIT) this.mergedCounts.clear();
      this.mergedCounts.set(piece, count);
    }
    return count;
  }

  /** Writes `piece` as UTF-8 into `this.bytes` (a lone surrogate as U+FFFD); returns the length. */
  private encode(piece: string): number {
    if (this.bytes.length < piece.length * 3) this.bytes = new Uint8Array(piece.length * 3);
    const bytes = this.bytes;
    let length = 0;
    for (let index = 0; index < piece.length; index++) {
      let code = piece.charCodeAt(index);
      if (code < 0x80) {
        bytes[length++] = code;
        continue;
      }
      if (code < 0x800) {
        bytes[length++] = 0xc0 | (code >> 6);
        bytes[length++] = 0x80 | (code & 0x3f);
        continue;
      }
      if (code >= 0xd800 && code <= 0xdfff) {
        const low = code <= 0xdbff ? piece.charCodeAt(index + 1) : NaN;
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          index++;
          bytes[length++] = 0xf0 | (code >> 18);
          bytes[length++] = 0x80 | ((code >> 12) & 0x3f);
          bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
          bytes[length++] = 0x80 | (code & 0x3f);
          continue;
        }
        code = 0xfffd;
      }
      bytes[length++] = 0xe0 | (code >> 12);
      bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
      bytes[length++] = 0x80 | (code & 0x3f);
    }
    return length;
  }

  /** How many tokens byte-pair merging leaves of this.bytes[0, length), merging as gpt-tokenizer does. */
  private merge(length: number): number {
    if (this.starts.length <= length) {
      this.starts = new Int32Array(length + 1);
      this.ranks = new Int32Array(length + 1);
    }
    const { starts, ranks } = this;
    // Part i is bytes[starts[i], starts[i + 1]); ranks[i] is the rank of parts i and i + 1 merged.
    let parts = length;
    for (let index = 0; index <= length; index++) starts[index] = index;
    for (let index = 0; index < parts; index++) ranks[index] = this.pairRank(index, parts, length);
    while (parts > 1) {
      let lowest = NO_MERGE;
      let at = -1;
      for (let index = 0; index < parts - 1; index++)
        if (ranks[index]! < lowest) {
          lowest = ranks[index]!;
          at = index;
        }
      if (at < 0) break;
      starts.copyWithin(at + 1, at + 2, parts + 1);
      ranks.copyWithin(at, at + 1, parts);
      parts--;
      ranks[at] = this.pairRank(at, parts, length);
      if (at > 0) ranks[at - 1] = this.pairRank(at - 1, parts, length);
    }
    return parts;
  }

  /** The rank of parts `index` and `index + 1` merged, NO_MERGE when that is no token or there is no next part. */
  private pairRank(index: number, parts: number, length: number): number {
    if (index + 1 >= parts) return NO_MERGE;
    const bytes = this.bytes;
    let start = this.starts[index]!;
    const end = this.starts[index + 2]!;
    // A byte order mark and whole characters after it: gpt-tokenizer's TextDecoder drops the mark.
    if (bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf && end >= start + 3) {
      const wholeCharacters = end === length || (bytes[end]! & 0xc0) !== 0x80;
      if (wholeCharacters) start += 3;
    }
    const rank = start === end ? EMPTY : lookupRank(this.table, bytes, start, end);
    return rank === EMPTY ? NO_MERGE : rank;
  }
}
