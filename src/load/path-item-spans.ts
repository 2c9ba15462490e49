import { skipWhiteSpace } from '../kernel/white-space.js';

/** Where one path item's value is in a JSON text: `start` at its first character, `end` just after its last. */
export type PathItemSpan = { key: string; start: number; end: number };

/**
 * Where one member of the description outside `paths` is in a JSON text, and where the members of its value are
 * (`entries`) when it is a map of named parts a run may read one at a time: `components` and its maps, Swagger 2.0's
 * `definitions`, `parameters` and `responses`. The root's own members are outlined in the order they are written,
 * `paths` among them (its items are the PathItemSpans).
 */
export type OutlineSpan = { key: string; start: number; end: number; entries?: OutlineSpan[] };

/** The path items' spans of a JSON description and, where no outlined object writes a key twice, its outline. */
export type DocumentSpans = { items: PathItemSpan[]; outline?: OutlineSpan[] };

/**
 * The spans of the path items of a JSON description, in the order they are written: the members of the root object's
 * `paths`. Undefined when the text is not laid out so that a span says for sure which value a change is in: a root
 * that is no object, no `paths` or two of them, a `paths` that is no object, a path written twice (JSON.parse keeps
 * the last, the spans would hold both), or text that does not scan as JSON. Strings are jumped over with indexOf,
 * so a scan of GitHub's 13 MB costs a few tens of milliseconds.
 */
export function pathItemSpans(text: string): PathItemSpan[] | undefined {
  return scanSpans(text, false)?.items;
}

/** The path items' spans (pathItemSpans) and the outline of the rest, told in the same scan. */
export function documentSpans(text: string): DocumentSpans | undefined {
  return scanSpans(text, true);
}

/** How many levels of a root member the outline goes into. */
const OUTLINED: ReadonlyMap<string, number> = new Map([
  ['components', 2],
  ['definitions', 1],
  ['parameters', 1],
  ['responses', 1],
]);

function scanSpans(text: string, outlined: boolean): DocumentSpans | undefined {
  const scan = new Scanner(text);
  try {
    let paths: PathItemSpan[] | undefined;
    const outline: OutlineSpan[] | undefined = outlined ? [] : undefined;
    let whole = true;
    /** The members of the object at `start`, outlined `levels` deep (a key written twice leaves no outline at all). */
    const entriesOf = (start: number, levels: number): { end: number; entries: OutlineSpan[] } => {
      const entries: OutlineSpan[] = [];
      const seen = new Set<string>();
      const end = scan.members(start, (key, valueStart) => {
        if (seen.has(key)) whole = false;
        seen.add(key);
        const inner = levels > 1 && text.charCodeAt(valueStart) === OPEN_BRACE ? entriesOf(valueStart, levels - 1) : undefined;
        const valueEnd = inner ? inner.end : scan.skipValue(valueStart);
        entries.push({ key, start: valueStart, end: valueEnd, ...(inner ? { entries: inner.entries } : {}) });
        return valueEnd;
      });
      return { end, entries };
    };
    const rootKeys = new Set<string>();
    scan.members(skipWhiteSpace(text, 0), (key, valueStart) => {
      if (rootKeys.has(key)) whole = false;
      rootKeys.add(key);
      if (key !== 'paths') {
        const levels = outline && text.charCodeAt(valueStart) === OPEN_BRACE ? OUTLINED.get(key) : undefined;
        const inner = levels ? entriesOf(valueStart, levels) : undefined;
        const end = inner ? inner.end : scan.skipValue(valueStart);
        outline?.push({ key, start: valueStart, end, ...(inner ? { entries: inner.entries } : {}) });
        return end;
      }
      if (paths || text.charCodeAt(valueStart) !== OPEN_BRACE) throw NOT_SPANNED;
      const items: PathItemSpan[] = [];
      const seen = new Set<string>();
      const end = scan.members(valueStart, (path, start) => {
        if (seen.has(path)) throw NOT_SPANNED;
        seen.add(path);
        const itemEnd = scan.skipValue(start);
        items.push({ key: path, start, end: itemEnd });
        return itemEnd;
      });
      paths = items;
      outline?.push({ key, start: valueStart, end });
      return end;
    });
    if (!paths) return undefined;
    return outline && whole ? { items: paths, outline } : { items: paths };
  } catch (error) {
    if (error === NOT_SPANNED) return undefined;
    throw error;
  }
}

const NOT_SPANNED = new Error('not spanned');
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;

class Scanner {
  constructor(private readonly text: string) {}

  /**
   * The members of the object that opens at `at`: `visit` is given each key (decoded) and where its value starts, and
   * answers where the value ends. Returns where the object ends.
   */
  members(at: number, visit: (key: string, valueStart: number) => number): number {
    if (this.text.charCodeAt(at) !== OPEN_BRACE) throw NOT_SPANNED;
    let next = skipWhiteSpace(this.text, at + 1);
    if (this.text.charCodeAt(next) === CLOSE_BRACE) return next + 1;
    for (;;) {
      if (this.text.charCodeAt(next) !== QUOTE) throw NOT_SPANNED;
      const keyEnd = this.skipString(next);
      const key = JSON.parse(this.text.slice(next, keyEnd)) as string;
      next = skipWhiteSpace(this.text, keyEnd);
      if (this.text.charCodeAt(next) !== COLON) throw NOT_SPANNED;
      next = skipWhiteSpace(this.text, visit(key, skipWhiteSpace(this.text, next + 1)));
      const code = this.text.charCodeAt(next);
      if (code === CLOSE_BRACE) return next + 1;
      if (code !== COMMA) throw NOT_SPANNED;
      next = skipWhiteSpace(this.text, next + 1);
    }
  }

  /** Where the value that starts at `at` ends: strings jumped over, brackets counted. */
  skipValue(at: number): number {
    const text = this.text;
    const first = text.charCodeAt(at);
    if (first === QUOTE) return this.skipString(at);
    if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
      let next = at;
      for (;;) {
        const code = text.charCodeAt(next);
        if (Number.isNaN(code) || code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || code <= 0x20) break;
        next++;
      }
      if (next === at) throw NOT_SPANNED;
      return next;
    }
    let depth = 0;
    for (let next = at; next < text.length; next++) {
      const code = text.charCodeAt(next);
      if (code === QUOTE) next = this.skipString(next) - 1;
      else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
      else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) if (--depth === 0) return next + 1;
    }
    throw NOT_SPANNED;
  }

  /** Where the string that opens at `at` ends (after its closing quote). */
  private skipString(at: number): number {
    const text = this.text;
    for (let from = at + 1; ;) {
      const quote = text.indexOf('"', from);
      if (quote < 0) throw NOT_SPANNED;
      let backslashes = 0;
      while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return quote + 1;
      from = quote + 1;
    }
  }
}
