import { isJsonObject, type JsonObject, type JsonValue } from '../kernel/json.js';
import { MAX_DOCUMENT_DEPTH, MAX_DOCUMENT_NODES, measureDocument } from './measure-document.js';
import { parseYamlItem } from './parse-text.js';
import { pathItemSpans, type PathItemSpan } from './path-item-spans.js';
import { indentOf } from './yaml-path-item-spans.js';

/**
 * A description parsed before: its text, its value, how many values it holds, where its path items are (a JSON
 * text's found when first needed, a YAML text's by its parse).
 */
type Parsed = { text: string; root: JsonObject; nodes: number } & (
  { format: 'json'; spans?: PathItemSpan[] } | { format: 'yaml'; spans: PathItemSpan[] }
);

/** How a text was parsed whole: by JSON.parse, or as YAML with its path items' spans (when they could be told). */
export type WholeParse = { json: boolean; spans?: PathItemSpan[] | undefined };

/**
 * A document parsed from the last one: the new root, the last root it was parsed from, and the key of the path item a
 * save replaced (none when the text was the same).
 */
export type Reparsed = { root: JsonObject; from: JsonObject; key?: string };

/** Levels above a path item: the root and `paths`. */
const ITEM_LEVEL = 2;

/**
 * Parses a watch's saves of a description from the save before: where the new text differs from the last one only
 * inside one path item, only that item is parsed, and the new document is the last one with that item replaced,
 * everything else the same objects. In JSON that is JSON.parse's answer for the whole text, since the text is the
 * last one with one value replaced by another value. In YAML an item is its key's line and the lines below it up to
 * the next key at its level (load/yaml-path-item-spans.ts), parsed alone; the answer is the whole parse's where the
 * document has no anchors or aliases (nothing outside an item reads into it), the item's text parses alone to a
 * mapping of its own key only, and its key's line keeps the items' indentation — else the save is parsed whole. A
 * save then costs the parse of one item instead of the whole text's (GitHub's: tens of milliseconds in JSON, half a
 * second in YAML), and leaves nothing of the last document for the collector but one item.
 *
 * The stages after loading treat the document as read-only, so sharing its objects between runs is safe; the
 * watch's byte-identity proofs (test:corpus on GitHub's description, test:integration) would show a stage that wrote
 * into it. Anything else — a change across items or outside `paths`, text that does not parse, a description with
 * external references — is parsed whole, as a single run does.
 */
export class DocumentReparse {
  private last: Parsed | undefined;

  /**
   * The document of `text`, parsed from the last one and within the size limits, or undefined when it has to be parsed
   * whole.
   */
  parse(text: string): Reparsed | undefined {
    const last = this.last;
    if (!last) return undefined;
    if (text === last.text) return { root: { ...last.root }, from: last.root };
    const spans = last.format === 'json' ? (last.spans ??= pathItemSpans(last.text) ?? []) : last.spans;
    const changed = changedRange(last.text, text);
    const index = spanAround(spans, changed.start, changed.oldEnd);
    if (index < 0) return undefined;
    const span = spans[index] as PathItemSpan;
    const delta = text.length - last.text.length;
    const item = parsedItem(last, text.slice(span.start, span.end + delta), span);
    if (item === undefined) return undefined;
    const paths = last.root['paths'];
    if (!isJsonObject(paths)) return undefined;
    const before = measureDocument(paths[span.key]);
    if (!before.ok) return undefined;
    const others = last.nodes - before.nodes;
    const after = measureDocument(item, { depth: MAX_DOCUMENT_DEPTH - ITEM_LEVEL, nodes: MAX_DOCUMENT_NODES - others });
    if (!after.ok) return undefined;
    const nextPaths: JsonObject = { ...paths };
    // The copy has the key as an own property already (even `__proto__`): assigning replaces its value.
    nextPaths[span.key] = item;
    const root: JsonObject = { ...last.root, paths: nextPaths };
    const moved = spans.map((entry, position) =>
      position < index ? entry : { key: entry.key, start: position === index ? entry.start : entry.start + delta, end: entry.end + delta },
    );
    this.last = { text, root, nodes: others + after.nodes, format: last.format, spans: moved };
    return { root, from: last.root, key: span.key };
  }

  /** Keeps no last document: the one remembered is bundled with others, whose text is not this one's. */
  forget(): void {
    this.last = undefined;
  }

  /**
   * A text parsed whole, within the limits, for the next save to start from: by JSON.parse, or as YAML whose items
   * could be found. A JSON text that starts otherwise than with its root object (a byte order mark, white space) is
   * not: the spans are found from there. Anything else leaves no last document.
   */
  remember(text: string, root: JsonObject, nodes: number, parse: WholeParse): void {
    if (parse.json) this.last = text.startsWith('{') ? { text, root, nodes, format: 'json' } : undefined;
    else this.last = parse.spans ? { text, root, nodes, format: 'yaml', spans: parse.spans } : undefined;
  }
}

/**
 * An item's new text parsed as its format reads it, or undefined when it has to be parsed whole. A YAML item's text
 * must start with its key, indented as before: parsed alone, a key indented otherwise would make an item the whole
 * description refuses.
 */
function parsedItem(last: Parsed, text: string, span: PathItemSpan): JsonValue | undefined {
  if (last.format === 'yaml') {
    const indent = indentOf(text, 0);
    const keyed = indent === indentOf(last.text, span.start) && !'#\r\n'.includes(text.charAt(indent));
    return keyed ? (parseYamlItem(text, span.key) as JsonValue | undefined) : undefined;
  }
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/** Where two texts differ: from `start` to `oldEnd` in the old one (what the common prefix and suffix leave). */
function changedRange(old: string, next: string): { start: number; oldEnd: number } {
  const shortest = Math.min(old.length, next.length);
  const start = commonPrefix(old, next, shortest);
  const suffix = commonSuffix(old, next, shortest - start);
  return { start, oldEnd: old.length - suffix };
}

/** Compared a block at a time: equality of two slices is a memory comparison, a loop per character is not. */
const BLOCK = 4096;

function commonPrefix(a: string, b: string, limit: number): number {
  let at = 0;
  while (at + BLOCK <= limit && a.slice(at, at + BLOCK) === b.slice(at, at + BLOCK)) at += BLOCK;
  while (at < limit && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

function commonSuffix(a: string, b: string, limit: number): number {
  let length = 0;
  while (
    length + BLOCK <= limit &&
    a.slice(a.length - length - BLOCK, a.length - length) === b.slice(b.length - length - BLOCK, b.length - length)
  )
    length += BLOCK;
  while (length < limit && a.charCodeAt(a.length - 1 - length) === b.charCodeAt(b.length - 1 - length)) length++;
  return length;
}

/** The span that holds the old text's changed range whole, by binary search over their starts; -1 if none does. */
function spanAround(spans: readonly PathItemSpan[], start: number, oldEnd: number): number {
  let low = 0;
  let high = spans.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const span = spans[middle] as PathItemSpan;
    if (span.start > start) high = middle - 1;
    else if (span.end < start) low = middle + 1;
    else return oldEnd <= span.end ? middle : -1;
  }
  return -1;
}
