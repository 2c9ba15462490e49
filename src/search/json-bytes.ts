import type { JsonValue } from '../kernel/json.js';

/**
 * UTF-8 bytes of a JSON value as JSON.stringify writes it, added up from its parts instead of written out. The
 * catalog's input schemas are Microsoft Graph's 13 MB of JSON, written only to be measured; they are mostly parts
 * that many schemas share and nobody changes (projected argument schemas, `$defs`), whose sizes are kept here the
 * first time they are measured, so that a schema costs the walk of its own new parts and a look-up per shared one.
 */
export function jsonBytes(value: JsonValue): number {
  if (typeof value === 'string') return stringBytes(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  if (value === null) return 4;
  let bytes = sizes.get(value);
  if (bytes !== undefined) return bytes;
  bytes = Array.isArray(value) ? listBytes(value) : objectBytes(value);
  if (bytes >= KEPT_BYTES) sizes.set(value, bytes);
  return bytes;
}

/** Sizes of the objects and lists already measured: sound because nobody changes a part once it is built. */
const sizes = new WeakMap<object, number>();

/** A small part is measured again as fast as it is looked up, and keeping every one would cost memory. */
const KEPT_BYTES = 200;

/** Printable ASCII other than `"` and `\`: written as it is, one byte a character. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function stringBytes(text: string): number {
  return PLAIN.test(text) ? text.length + 2 : Buffer.byteLength(JSON.stringify(text));
}

function listBytes(items: JsonValue[]): number {
  let bytes = 2 + Math.max(items.length - 1, 0);
  for (const item of items) bytes += item === undefined ? 4 : jsonBytes(item);
  return bytes;
}

function objectBytes(object: { [key: string]: JsonValue }): number {
  let bytes = 2;
  let written = 0;
  for (const key of Object.keys(object)) {
    const value = object[key];
    if (value === undefined) continue;
    bytes += keyBytes(key) + 1 + jsonBytes(value);
    written++;
  }
  return bytes + Math.max(written - 1, 0);
}

/** Property names repeat across every schema: their written sizes are kept. */
const keySizes = new Map<string, number>();

function keyBytes(key: string): number {
  let bytes = keySizes.get(key);
  if (bytes === undefined) {
    bytes = stringBytes(key);
    keySizes.set(key, bytes);
  }
  return bytes;
}
