import { listedEntry } from '../budget/count-tokens.js';
import type { BuiltTool } from '../drafts.js';

/**
 * The length of a built tool's entry in `tools/list` as JSON.stringify writes it (what TokenEstimate.characters
 * measures), added up from its parts instead of written out.
 *
 * The budget search sizes every tool at every detail level it tries (Microsoft Graph: 1,024 builds of about 90
 * actions each, 48 MB of JSON written only to be measured). A build is mostly parts other builds share and that no
 * one changes: projected argument schemas and `$defs` (one per schema and level), descriptions and phrases. The
 * length of each object is kept the first time it is measured, so that a build costs the walk of its own new parts
 * (its properties, its required list) and a look-up per shared one.
 */
export function listedLength(tool: BuiltTool): number {
  return jsonLength(listedEntry(tool)) as number;
}

/**
 * Lengths of objects and arrays already measured. Sound because the parts of a build are never changed once built
 * (the builder's memos of projections, descriptions and merged arguments rely on the same); the unit and corpus size
 * tests compare every size the search reads with a build from scratch written out.
 */
const lengths = new WeakMap<object, number>();

/**
 * Only the lengths of larger parts are kept: a small one is measured again as fast as it is looked up, and keeping
 * every one (Graph: about 300,000 objects) raised the plan's peak RSS by about 20 MB.
 */
const KEPT_LENGTH = 200;

/** Characters JSON.stringify escapes, and surrogates (escaped when unpaired). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * Characters JSON.stringify writes for a value; undefined for what it leaves out of an object (undefined, functions,
 * symbols). Objects with their own toJSON are left to JSON.stringify itself.
 */
export function jsonLength(value: unknown): number | undefined {
  switch (typeof value) {
    case 'string':
      // Surrogate pairs are written as they are; the slow path measures whatever may be escaped exactly.
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value).length : value.length + 2;
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      return value === null ? 4 : containerLength(value);
    default:
      // undefined, functions and symbols are left out; a bigint makes JSON.stringify throw, as it does here.
      return typeof value === 'bigint' ? JSON.stringify(value).length : undefined;
  }
}

function containerLength(value: object): number {
  let length = lengths.get(value);
  if (length !== undefined) return length;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') length = (JSON.stringify(value) ?? '').length;
  else if (Array.isArray(value)) length = arrayLength(value);
  else length = objectLength(value as Record<string, unknown>);
  if (length >= KEPT_LENGTH) lengths.set(value, length);
  return length;
}

/** `[a,b]`: an item JSON leaves out of an object is `null` in an array. */
function arrayLength(items: readonly unknown[]): number {
  let length = 2 + Math.max(items.length - 1, 0);
  for (let index = 0; index < items.length; index++) length += jsonLength(items[index]) ?? 4;
  return length;
}

/** `{"key":value,…}` over the own enumerable string keys, in their order, without those whose value is left out. */
function objectLength(object: Record<string, unknown>): number {
  let length = 2;
  let written = 0;
  for (const key of Object.keys(object)) {
    const valueLength = jsonLength(object[key]);
    if (valueLength === undefined) continue;
    length += keyLength(key) + 1 + valueLength;
    written++;
  }
  return length + Math.max(written - 1, 0);
}

/** Property names repeat across every schema: their written lengths are kept. */
const keyLengths = new Map<string, number>();

function keyLength(key: string): number {
  let length = keyLengths.get(key);
  if (length === undefined) {
    length = jsonLength(key) as number;
    keyLengths.set(key, length);
  }
  return length;
}
