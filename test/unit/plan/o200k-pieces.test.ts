import { describe, expect, it } from 'vitest';
import { O200K_PIECES } from '../../../src/plan/budget/o200k-count.js';
import { asciiPieceEnd } from '../../../src/plan/budget/o200k-pieces.js';
import { Random } from '../../fuzz/random.js';

/** The pieces as the regular expression alone splits them. */
function byPattern(text: string): string[] {
  return [...text.matchAll(new RegExp(O200K_PIECES.source, O200K_PIECES.flags))].map((match) => match[0]);
}

/** The pieces as the counter splits them: the ASCII scan where it answers, the regular expression where it does not. */
function byScan(text: string): string[] {
  const pieces: string[] = [];
  const pattern = new RegExp(O200K_PIECES.source, 'uy');
  for (let at = 0; at < text.length;) {
    let end = asciiPieceEnd(text, at);
    if (end < 0) {
      pattern.lastIndex = at;
      end = at + (pattern.exec(text)?.[0].length ?? 1);
    }
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}

/** Every ASCII class the pattern tells apart, the contractions' letters, and characters beyond ASCII of each kind. */
const ALPHABET = [
  ...'aZbY09 \t\r\n\u000b\u000c\'"{}/\\:,.-_sSdDmMtTlLvVeErR\u0000\u001f\u007f',
  ...['é', 'É', '\u00a0', '\u0085', '١', '½', '中', '😀', '\u2028', '\u0301', 'ſ', '\u212a', '\ufeff', '\ud800'],
];

function texts(count: number, seed: number, asciiOnly: boolean): string[] {
  const random = new Random(seed);
  const alphabet = asciiOnly ? ALPHABET.filter((character) => character.charCodeAt(0) < 0x80) : ALPHABET;
  return Array.from({ length: count }, () => {
    let text = '';
    for (let length = 1 + random.int(30); length > 0; length--) text += alphabet[random.int(alphabet.length)];
    return text;
  });
}

describe('the ASCII piece scan', () => {
  it('splits ASCII text exactly as the pattern does, without asking it', () => {
    const asked: string[] = [];
    for (const text of texts(20_000, 7, true)) {
      expect(byScan(text), JSON.stringify(text)).toEqual(byPattern(text));
      for (let at = 0; at < text.length; at++) if (asciiPieceEnd(text, at) <= at) asked.push(JSON.stringify(text.slice(at)));
    }
    expect(asked.slice(0, 5)).toEqual([]);
  });

  it('splits mixed text as the pattern does, leaving to it what characters beyond ASCII decide', () => {
    for (const text of texts(20_000, 11, false)) expect(byScan(text), JSON.stringify(text)).toEqual(byPattern(text));
  });

  it('splits JSON the way a tool list is written', () => {
    const json = JSON.stringify({
      name: 'repos_read',
      description: "Lists a user's repositories.\n\nReturns: id, name (string); don't use it for orgs — see orgs_read.",
      inputSchema: { type: 'object', properties: { per_page: { type: 'integer', maximum: 100, pattern: '^[A-Z]{2,3}$' } } },
    });
    expect(byScan(json)).toEqual(byPattern(json));
  });
});
