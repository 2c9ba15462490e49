import { createHash } from 'node:crypto';
import type { DocumentSpans, OutlineSpan, PathItemSpan } from './path-item-spans.js';

/**
 * A JSON text known by the hashes of its pieces instead of the text itself: before each path item's value its head
 * (what lies between the item before and the value: separators, the key), the value, and what follows the last item.
 * Enough to tell, from a new text, whether it differs only inside one item's value — hashing the new text once, with
 * no copy of the old one kept, read or decoded (13 MB for GitHub's description). `outline`: where the rest of the
 * description is (load/path-item-spans.ts), for a run that parses only what it reads of it (load/lazy-document.ts).
 */
export type TextPieces = {
  length: number;
  spans: PathItemSpan[];
  heads: string[];
  values: string[];
  tail: string;
  outline?: OutlineSpan[];
};

/** The pieces of `text`, whose path items (and outline) are at `spans` (load/path-item-spans.ts). */
export function textPieces(text: string, { items: spans, outline }: DocumentSpans): TextPieces {
  let end = 0;
  const heads: string[] = [];
  const values: string[] = [];
  for (const span of spans) {
    heads.push(pieceHash(text, end, span.start));
    values.push(pieceHash(text, span.start, span.end));
    end = span.end;
  }
  return {
    length: text.length,
    spans: [...spans],
    heads,
    values,
    tail: pieceHash(text, end, text.length),
    ...(outline ? { outline } : {}),
  };
}

/**
 * Where `text` differs from the pieced text before it only inside one item's value: the item's position, its new
 * text, and the new text's pieces (position -1: no piece differs). Undefined when it differs elsewhere or in more than
 * one piece. The pieces before the changed one are compared where they were, the ones after it where they moved to
 * (by the difference in length). Whether the new value's text is one value of its own is the caller's to check.
 */
export function changedItem(last: TextPieces, text: string): { index: number; itemText: string; pieces: TextPieces } | undefined {
  const { spans, heads, values } = last;
  const delta = text.length - last.length;
  // Forward, where the pieces were: the first piece that differs must be a value.
  let index = 0;
  let end = 0;
  for (; index < spans.length; index++) {
    const span = spans[index] as PathItemSpan;
    if (pieceHash(text, end, span.start) !== heads[index]) return undefined;
    if (pieceHash(text, span.start, span.end) !== values[index]) break;
    end = span.end;
  }
  if (index === spans.length)
    return delta === 0 && pieceHash(text, end, text.length) === last.tail ? { index: -1, itemText: '', pieces: last } : undefined;
  if ((spans[index] as PathItemSpan).end + delta < (spans[index] as PathItemSpan).start) return undefined;
  // Backward, shifted: everything after that value must be as it was.
  if (pieceHash(text, (spans.at(-1) as PathItemSpan).end + delta, text.length) !== last.tail) return undefined;
  for (let after = spans.length - 1; after > index; after--) {
    const span = spans[after] as PathItemSpan;
    const before = spans[after - 1] as PathItemSpan;
    if (pieceHash(text, span.start + delta, span.end + delta) !== values[after]) return undefined;
    if (pieceHash(text, before.end + delta, span.start + delta) !== heads[after]) return undefined;
  }
  const span = spans[index] as PathItemSpan;
  const itemText = text.slice(span.start, span.end + delta);
  const moved = spans.map((entry, position) =>
    position < index ? entry : { key: entry.key, start: position === index ? entry.start : entry.start + delta, end: entry.end + delta },
  );
  return {
    index,
    itemText,
    pieces: {
      length: text.length,
      spans: moved,
      heads,
      values: values.with(index, pieceHash(itemText, 0, itemText.length)),
      tail: last.tail,
      ...(last.outline ? { outline: shifted(last.outline, span.end, delta) } : {}),
    },
  };
}

/** An outline after an item that ended at `from` changed length by `delta`: what follows it moved by as much. */
function shifted(outline: readonly OutlineSpan[], from: number, delta: number): OutlineSpan[] {
  return outline.map(({ key, start, end, entries }) => ({
    key,
    start: start >= from ? start + delta : start,
    end: end >= from ? end + delta : end,
    ...(entries ? { entries: shifted(entries, from, delta) } : {}),
  }));
}

/** 128 bits of a piece's SHA-256: tells pieces apart as surely as the whole digest, in half the room. */
function pieceHash(text: string, start: number, end: number): string {
  return createHash('sha256').update(text.slice(start, end)).digest('base64').slice(0, 22);
}
