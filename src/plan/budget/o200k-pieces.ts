/**
 * Where o200k's pre-tokenizer (O200K_PIECES in o200k-count.ts) ends the piece that starts at a position, for the
 * pieces it decides from ASCII characters alone: a tool's JSON is almost all ASCII, and the regular expression, which
 * matches Unicode classes character by character, was about 40% of counting (Microsoft Graph's 732 tools counted in
 * 160–221 ms with this scan, 267–367 ms without). Returns -1 where the answer depends on a character outside ASCII
 * (a letter, a digit or white space beyond it could extend the piece): the caller then asks the regular expression.
 * A piece starts where the one before it ends, since the pattern has no lookbehind; what is decided here is the
 * pattern's first matching alternative, taken in its order:
 *
 * 1. `[^\r\n\p{L}\p{N}]?[\p{Lu}…]*[\p{Ll}…]+` and a contraction: a word with an optional leading mark;
 * 2. `[^\r\n\p{L}\p{N}]?[\p{Lu}…]+[\p{Ll}…]*` and a contraction: the same, all capitals;
 * 3. `\p{N}{1,3}`;
 * 4. ` ?[^\s\p{L}\p{N}]+[\r\n/]*`: punctuation;
 * 5. `\s*[\r\n]+`, 6. `\s+(?!\S)`, 7. `\s+`: white space.
 *
 * In ASCII the capitals and the small letters are apart (the classes overlap only on other scripts' letters and on
 * marks), so none of these needs backtracking beyond what is written out below.
 */

const UPPER = 1;
const LOWER = 2;
const DIGIT = 4;
/** `\s` in ASCII: tab, line feed, vertical tab, form feed, carriage return and space. */
const SPACE = 8;
const LINE_BREAK = 16;
/** `[^\s\p{L}\p{N}]` in ASCII: punctuation, symbols and control characters. */
const MARK = 32;
/** Not an ASCII character. */
const OUTSIDE = 64;
/** Past the end of the text: nothing more to match. */
const END = 0;

const CLASSES = new Uint8Array(128).fill(MARK);
for (let code = 0x41; code <= 0x5a; code++) CLASSES[code] = UPPER;
for (let code = 0x61; code <= 0x7a; code++) CLASSES[code] = LOWER;
for (let code = 0x30; code <= 0x39; code++) CLASSES[code] = DIGIT;
for (const code of [0x09, 0x0b, 0x0c, 0x20]) CLASSES[code] = SPACE;
for (const code of [0x0a, 0x0d]) CLASSES[code] = SPACE | LINE_BREAK;

const APOSTROPHE = 0x27;
const SLASH = 0x2f;
const BLANK = 0x20;

/** The classes of the character at `index`. */
function classAt(text: string, index: number): number {
  if (index >= text.length) return END;
  const code = text.charCodeAt(index);
  return code < 128 ? (CLASSES[code] as number) : OUTSIDE;
}

/** The end of a piece starting at `at` (within the text), or -1 when only the regular expression can tell. */
export function asciiPieceEnd(text: string, at: number): number {
  const first = classAt(text, at);
  if (first === OUTSIDE) return -1;
  // 1 and 2. A leading mark is anything but a line break, a letter or a digit: white space and punctuation.
  const letter = first & (UPPER | LOWER);
  if (letter || !(first & (LINE_BREAK | DIGIT))) {
    const start = letter ? at : at + 1;
    let index = start;
    let classes = classAt(text, index);
    while (classes === UPPER) classes = classAt(text, ++index);
    if (classes === OUTSIDE) return -1;
    if (classes === LOWER) {
      while (classes === LOWER) classes = classAt(text, ++index);
      return classes === OUTSIDE ? -1 : afterContraction(text, index);
    }
    if (index > start) return afterContraction(text, index);
  }
  // 3. Up to three digits; a digit of another script may follow.
  if (first === DIGIT) {
    for (let index = at + 1; index < at + 3; index++) {
      const classes = classAt(text, index);
      if (classes === OUTSIDE) return -1;
      if (classes !== DIGIT) return index;
    }
    return at + 3;
  }
  // 4. Punctuation, after at most one space, then any line breaks and slashes.
  const markAt = text.charCodeAt(at) === BLANK ? at + 1 : at;
  const mark = classAt(text, markAt);
  if (mark === OUTSIDE) return -1;
  if (mark === MARK) {
    let index = markAt;
    let classes = mark;
    while (classes === MARK) classes = classAt(text, ++index);
    if (classes === OUTSIDE) return -1;
    while (index < text.length && ((classes & LINE_BREAK) !== 0 || text.charCodeAt(index) === SLASH)) classes = classAt(text, ++index);
    return index;
  }
  // 5, 6 and 7. White space: to its last line break if it has one; else all of it but the last character when
  // something follows (that character goes with what follows, as a leading mark); else all of it.
  let end = at;
  let lastBreak = -1;
  let classes = first;
  while (classes & SPACE) {
    if (classes & LINE_BREAK) lastBreak = end;
    classes = classAt(text, ++end);
  }
  if (classes === OUTSIDE) return -1;
  if (lastBreak >= 0) return lastBreak + 1;
  if (end === text.length) return end;
  return end - 1 > at ? end - 1 : end;
}

/** Where an optional contraction (`'s`, `'d`, `'m`, `'t`, `'ll`, `'ve`, `'re`, any case) after a word ends. */
function afterContraction(text: string, at: number): number {
  if (text.charCodeAt(at) !== APOSTROPHE) return at;
  const next = text.charCodeAt(at + 1) | 0x20;
  if (next === 0x73 || next === 0x64 || next === 0x6d || next === 0x74) return at + 2;
  const pair = (second: number) => (text.charCodeAt(at + 2) | 0x20) === second;
  if ((next === 0x6c && pair(0x6c)) || (next === 0x76 && pair(0x65)) || (next === 0x72 && pair(0x65))) return at + 3;
  return at;
}
