import { setOwn, type JsonObject, type JsonValue } from '../kernel/json.js';
import type { OutlineSpan, PathItemSpan } from './path-item-spans.js';

/**
 * A description's root as JSON.parse makes it from `text`, parsed only as far as it is read: each outlined member
 * (load/path-item-spans.ts) and each path item is parsed from its span the first time it is read, and is then an
 * ordinary value. The same keys in the same order, the same values once read; `item`, the one path item already
 * parsed (the item that changed since the run that outlined the text).
 *
 * For a run that resumes the last one's model (cache/path-item-replay.ts), which reads the item that changed and the
 * named parts that item refers to: GitHub's 13 MB description parsed whole took 75–95 ms, measured 30 more, and its
 * copying dominated the run's scavenges. The spans must be of this very text: the outline and the pieces' hashes are
 * of the last run's text, and its text is this one outside `item`.
 */
export function lazyDocument(
  text: string,
  outline: readonly OutlineSpan[],
  items: readonly PathItemSpan[],
  item?: { key: string; value: JsonValue },
): JsonObject {
  const root: JsonObject = {};
  for (const member of outline) {
    if (member.key !== 'paths') defineOutlined(root, member, text);
    else {
      const paths: JsonObject = {};
      for (const span of items)
        if (span.key === item?.key) setOwn(paths, span.key, item.value);
        else defineLazy(paths, span.key, text, span);
      setOwn(root, 'paths', paths);
    }
  }
  return root;
}

function defineOutlined(holder: JsonObject, span: OutlineSpan, text: string): void {
  if (!span.entries) return defineLazy(holder, span.key, text, span);
  const value: JsonObject = {};
  for (const entry of span.entries) defineOutlined(value, entry, text);
  setOwn(holder, span.key, value);
}

/** `holder[key]`, parsed from its span when first read (or replaced by a value written before). */
function defineLazy(holder: JsonObject, key: string, text: string, span: { start: number; end: number }): void {
  const settle = (value: JsonValue) => {
    Object.defineProperty(holder, key, { value, enumerable: true, writable: true, configurable: true });
    return value;
  };
  Object.defineProperty(holder, key, {
    enumerable: true,
    configurable: true,
    get: () => settle(JSON.parse(text.slice(span.start, span.end)) as JsonValue),
    set: settle,
  });
}
