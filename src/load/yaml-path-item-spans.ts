import type { Event, MappingEvent, ScalarEvent } from 'js-yaml';
import type { PathItemSpan } from './path-item-spans.js';

/** js-yaml's event kinds and collection styles (its EVENT_ID and COLLECTION_STYLE), and how it decodes a scalar. */
export type YamlEvents = {
  ids: { DOCUMENT: number; SEQUENCE: number; MAPPING: number; SCALAR: number; ALIAS: number; POP: number };
  block: number;
  scalarValue: (source: string, scalar: ScalarEvent) => string;
};

/**
 * The spans of the path items of a YAML description, from the events its parse read: each item runs from the start
 * of its key's line to the start of the next key's line (the next item's, or the root's after `paths`), or to the end
 * of the text, comments and blank lines between them included. Undefined where a span would not say for sure what an
 * edit inside it changed: any anchor or alias in the document (an item's value could be another's), a root or a
 * `paths` that is not a block mapping, a key that is not a plain or quoted scalar at the start of its line, items whose keys
 * are not all indented alike, an explicit document end.
 */
export function yamlPathItemSpans(events: readonly Event[], source: string, yaml: YamlEvents): PathItemSpan[] | undefined {
  const { ids } = yaml;
  if (!isPlainBlockMapping(events, yaml)) return undefined;
  const scalar = (event: Event | undefined): ScalarEvent | undefined => (event?.type === ids.SCALAR ? (event as ScalarEvent) : undefined);
  let at = 2;
  while (events[at] !== undefined && events[at]?.type !== ids.POP) {
    const key = scalar(events[at]);
    at = after(events, at, ids);
    if (!key || yaml.scalarValue(source, key) !== 'paths') {
      at = after(events, at, ids);
      continue;
    }
    if (!isBlockMapping(events[at], yaml)) return undefined;
    const keys: Array<{ key: string; line: number }> = [];
    at++;
    while (events[at] !== undefined && events[at]?.type !== ids.POP) {
      const item = scalar(events[at]);
      const line = item && item.tagStart < 0 ? keyLine(source, item) : undefined;
      if (!item || line === undefined) return undefined;
      keys.push({ key: yaml.scalarValue(source, item), line });
      at = after(events, at + 1, ids);
    }
    const next = events[at + 1];
    const end = next === undefined || next.type === ids.POP ? source.length : lineStart(source, startOf(next));
    const indent = keys[0] ? indentOf(source, keys[0].line) : 0;
    if (keys.some(({ line }) => indentOf(source, line) !== indent)) return undefined;
    return keys.map(({ key, line }, index) => ({ key, start: line, end: keys[index + 1]?.line ?? end }));
  }
  return undefined;
}

/**
 * Whether the events are those of one document whose root is a block mapping, without anchors, aliases or an
 * explicit end: what an item's text parsed alone must be, as the description it was taken from.
 */
export function isPlainBlockMapping(events: readonly Event[], yaml: YamlEvents): boolean {
  const { ids } = yaml;
  for (const event of events) if (event.type === ids.ALIAS || ('anchorStart' in event && event.anchorStart >= 0)) return false;
  const document = events[0];
  return document?.type === ids.DOCUMENT && 'explicitEnd' in document && !document.explicitEnd && isBlockMapping(events[1], yaml);
}

function isBlockMapping(event: Event | undefined, yaml: YamlEvents): boolean {
  if (event?.type !== yaml.ids.MAPPING) return false;
  const mapping = event as MappingEvent;
  return mapping.style === yaml.block && mapping.tagStart < 0;
}

/** The index of the event after the node that starts at `at`. */
function after(events: readonly Event[], at: number, ids: YamlEvents['ids']): number {
  const first = events[at];
  if (first?.type !== ids.MAPPING && first?.type !== ids.SEQUENCE) return at + 1;
  let depth = 0;
  for (let index = at; index < events.length; index++) {
    const type = (events[index] as Event).type;
    if (type === ids.MAPPING || type === ids.SEQUENCE) depth++;
    else if (type === ids.POP && --depth === 0) return index + 1;
  }
  return events.length;
}

/** Where a node's text starts: its tag, else its value (an anchor never, spans are only made without them). */
function startOf(event: Event): number {
  if ('tagStart' in event && event.tagStart >= 0) return event.tagStart;
  if ('valueStart' in event) return event.valueStart;
  return 'start' in event ? event.start : 0;
}

function lineStart(source: string, at: number): number {
  return source.lastIndexOf('\n', at - 1) + 1;
}

/**
 * The start of a key's line when only indentation comes before the key on it: and the key's opening quote, or the `? `
 * of an explicit key (how some writers put long paths, the value on the next line after `: `).
 */
function keyLine(source: string, key: ScalarEvent): number | undefined {
  const line = lineStart(source, key.valueStart);
  let at = line + indentOf(source, line);
  if (source.startsWith('? ', at)) at += 2;
  const quote = source.charAt(at);
  if (quote === '"' || quote === "'") at++;
  return at === key.valueStart ? line : undefined;
}

/** The spaces a line starts with. */
export function indentOf(source: string, line: number): number {
  let at = line;
  while (source.charCodeAt(at) === SPACE) at++;
  return at - line;
}

const SPACE = 0x20;
