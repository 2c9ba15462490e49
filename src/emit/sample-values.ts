import type { JsonObject, JsonValue } from '../kernel/json.js';
import { sampleFromPattern } from '../plan/arguments/pattern-sample.js';

/** Strings that satisfy common formats; Ajv checks formats in the generated server. */
const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2024-01-02T03:04:05Z',
  date: '2024-01-02',
  time: '03:04:05Z',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uri: 'https://example.com/x',
  url: 'https://example.com/x',
  'uri-reference': 'https://example.com/x',
  iri: 'https://example.com/x',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  binary: 'aGVsbG8=',
  byte: 'aGVsbG8=',
  duration: 'P1D',
  regex: 'a+',
  'json-pointer': '/a',
};

/** Bounds on generated samples: a description may ask for values no test case should carry. */
const MAX_SAMPLE_LENGTH = 4096;
const MAX_SAMPLE_ITEMS = 64;

const STRING_CANDIDATES = [
  'sample',
  'abc',
  'a1',
  '1',
  'A',
  'ABC123',
  'abc-123',
  '123e4567-e89b-12d3-a456-426614174000',
  'user@example.com',
  '2024-01-02',
  'https://example.com/x',
  'a',
];

/**
 * A value valid against a JSON Schema (2020-12, with `#/$defs` references), for generated tests and contract runs:
 * enums and consts first, formats and patterns honoured, bounds respected, required properties filled (and optional
 * ones that can hold only one value, the tags that tell union variants apart).
 */
export function sampleValue(schema: JsonValue | undefined, defs: JsonObject, depth = 0): JsonValue | undefined {
  if (schema === undefined || schema === true) return 'sample';
  if (schema === false || schema === null || typeof schema !== 'object' || Array.isArray(schema) || depth > 12) return undefined;
  let node = schema as JsonObject;
  if (typeof node['$ref'] === 'string') {
    const target = resolve(node, defs);
    if (!isPlainObject(target)) return sampleValue(target, defs, depth + 1);
    node = target;
  }
  if (Array.isArray(node['allOf'])) node = flattenAllOf(node, defs, depth);
  if (node['const'] !== undefined) return node['const'];
  if (Array.isArray(node['enum'])) return node['enum'].find((value) => value !== null) ?? node['enum'][0] ?? null;
  // An empty-string default says "absent" more often than it is a useful value (and cannot fill a path segment);
  // a default of the wrong type (`"false"` for a boolean) is a mistake of the description.
  if (node['default'] !== undefined && node['default'] !== null && node['default'] !== '' && fitsType(node, node['default']))
    return node['default'];
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const variants = node[keyword];
    if (!Array.isArray(variants)) continue;
    // A variant may only add constraints to the surrounding schema (`{required: [...]}`): sample both together.
    const { [keyword]: _variants, ...base } = node;
    for (const variant of variants) {
      const resolved = resolve(variant, defs);
      const combined = isPlainObject(resolved) && Object.keys(base).length > 0 ? mergeSchemas(base, resolved) : resolved;
      const value = sampleValue(combined, defs, depth + 1);
      if (value !== undefined && value !== null) return value;
    }
  }
  const types = Array.isArray(node['type'])
    ? node['type'].filter((type) => type !== 'null')
    : [node['type'] ?? (node['properties'] || node['required'] ? 'object' : node['items'] ? 'array' : 'string')];
  switch (types[0]) {
    case 'string':
      return sampleString(node);
    case 'integer':
    case 'number':
      return sampleNumber(node, types[0] === 'integer');
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const item = sampleValue(node['items'] as JsonValue | undefined, defs, depth + 1);
      const count = Math.max(1, Number(node['minItems'] ?? 1));
      // A sample that large would bloat test/cases.json; the action simply gets no generated case.
      if (!(count <= MAX_SAMPLE_ITEMS)) return undefined;
      if (item === undefined) return [];
      if (node['uniqueItems'] === true && count > 1) return distinctItems(item, resolve(node['items'] ?? true, defs), count);
      return Array.from({ length: count }, () => item);
    }
    default:
      return sampleObject(node, defs, depth);
  }
}

/**
 * `count` different items for `uniqueItems` (EVE Online's solar system pairs: two distinct integers): further
 * enum values, numbers counted up within the bounds, or text with a number appended where the pattern allows;
 * undefined when the schema offers no simple way to vary the item.
 */
function distinctItems(first: JsonValue, schema: JsonValue, count: number): JsonValue[] | undefined {
  const node = isPlainObject(schema) ? schema : {};
  const candidates: JsonValue[] = Array.isArray(node['enum'])
    ? node['enum'].filter((value) => value !== null)
    : typeof first === 'number'
      ? Array.from({ length: count }, (_, index) => first + index * (typeof node['multipleOf'] === 'number' ? node['multipleOf'] : 1))
      : typeof first === 'string' && node['format'] === undefined
        ? [first, ...Array.from({ length: count - 1 }, (_, index) => `${first}${index + 2}`)]
        : [];
  const fits = (value: JsonValue) =>
    (typeof node['maximum'] !== 'number' || (value as number) <= node['maximum']) &&
    (typeof node['maxLength'] !== 'number' || String(value).length <= node['maxLength']) &&
    (typeof value !== 'string' || matches(node['pattern'], value));
  const items = candidates.filter(fits).slice(0, count);
  return items.length === count ? items : undefined;
}

function isPlainObject(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Follows `$ref`s (a named schema may itself be a reference); keywords next to a `$ref` (3.1) add to the target. */
function resolve(schema: JsonValue, defs: JsonObject): JsonValue {
  let current = schema;
  for (let hops = 0; hops < 8 && isPlainObject(current) && typeof current['$ref'] === 'string'; hops++) {
    const { $ref: ref, ...siblings } = current;
    const target = defs[String(ref).replace('#/$defs/', '')];
    current =
      isPlainObject(target ?? null) && Object.keys(siblings).length > 0 ? mergeSchemas(target as JsonObject, siblings) : (target ?? true);
  }
  return current;
}

/** `allOf` as one schema: every part resolved and merged, so that constraints of one part apply to the others. */
function flattenAllOf(node: JsonObject, defs: JsonObject, depth: number): JsonObject {
  const { allOf, ...base } = node;
  let merged: JsonObject = base;
  for (const part of Array.isArray(allOf) ? allOf : []) {
    const resolved = resolve(part, defs);
    if (!isPlainObject(resolved)) continue;
    merged = mergeSchemas(merged, Array.isArray(resolved['allOf']) && depth < 12 ? flattenAllOf(resolved, defs, depth + 1) : resolved);
  }
  return merged;
}

/**
 * Two schemas as one: required lists united, properties present in both combined with `allOf`, other keywords
 * from the second unless only the first has them.
 */
function mergeSchemas(base: JsonObject, variant: JsonObject): JsonObject {
  const required = [
    ...new Set([
      ...(Array.isArray(base['required']) ? base['required'] : []),
      ...(Array.isArray(variant['required']) ? variant['required'] : []),
    ]),
  ];
  const properties: JsonObject = {};
  const sources = [base['properties'], variant['properties']].filter((value): value is JsonObject => isPlainObject(value ?? null));
  for (const source of sources) {
    for (const [name, schema] of Object.entries(source)) {
      const existing = Object.hasOwn(properties, name) ? properties[name] : undefined;
      Object.defineProperty(properties, name, {
        value: existing === undefined ? schema : { allOf: [existing, schema] },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return {
    ...base,
    ...variant,
    ...(base['type'] !== undefined && variant['type'] === undefined ? { type: base['type'] } : {}),
    ...(required.length > 0 ? { required } : {}),
    ...(Object.keys(properties).length > 0 ? { properties } : {}),
  };
}

/** Whether a value has one of the schema's types (no type: anything goes). */
function fitsType(node: JsonObject, value: JsonValue): boolean {
  const types = Array.isArray(node['type']) ? node['type'] : node['type'] === undefined ? [] : [node['type']];
  if (types.length === 0) return true;
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value;
  return types.some(
    (type) =>
      type === actual ||
      (type === 'integer' && typeof value === 'number' && Number.isInteger(value)) ||
      (type === 'number' && actual === 'number'),
  );
}

/** An object with every required property filled, or undefined when one of them has no known value. */
function sampleObject(node: JsonObject, defs: JsonObject, depth: number): JsonObject | undefined {
  const out: JsonObject = {};
  const properties = (isPlainObject(node['properties'] ?? null) ? node['properties'] : {}) as JsonObject;
  const required = Array.isArray(node['required']) ? node['required'].map(String) : [];
  const set = (name: string, value: JsonValue) =>
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  for (const name of required) {
    const value = sampleValue(Object.hasOwn(properties, name) ? properties[name] : true, defs, depth + 1);
    // Without it the object breaks its schema (Pinpoint's `CloudWatchLogsDestination: {}`): an optional object is
    // then left out by its parent, rather than sent and refused.
    if (value === undefined) return undefined;
    set(name, value);
  }
  // Optional properties that admit a single value are the tags of union variants (`type: ForceReboot`): without
  // them an object of optional fields matches every variant of a oneOf.
  for (const [name, schema] of Object.entries(properties)) {
    if (required.includes(name)) continue;
    const resolved = resolve(schema, defs);
    if (!isPlainObject(resolved)) continue;
    const single =
      resolved['const'] ?? (Array.isArray(resolved['enum']) && resolved['enum'].length === 1 ? resolved['enum'][0] : undefined);
    if (single !== undefined) set(name, single);
  }
  fillToMinimum(out, node, properties, defs, depth, set);
  return out;
}

/** `minProperties`: optional properties first, then keys of `additionalProperties` (from `propertyNames` if listed). */
function fillToMinimum(
  out: JsonObject,
  node: JsonObject,
  properties: JsonObject,
  defs: JsonObject,
  depth: number,
  set: (name: string, value: JsonValue) => void,
): void {
  const minimum = typeof node['minProperties'] === 'number' ? Math.min(node['minProperties'], MAX_SAMPLE_ITEMS) : 0;
  const missing = () => Object.keys(out).length < minimum;
  for (const [name, schema] of Object.entries(properties)) {
    if (!missing()) return;
    if (Object.hasOwn(out, name)) continue;
    const value = sampleValue(schema, defs, depth + 1);
    if (value !== undefined) set(name, value);
  }
  const extra = node['additionalProperties'];
  if (!missing() || extra === false) return;
  const names = resolve(node['propertyNames'] ?? true, defs);
  const candidates =
    isPlainObject(names) && Array.isArray(names['enum'])
      ? names['enum'].map(String)
      : Array.from({ length: minimum }, (_, index) => `key${index + 1}`);
  for (const name of candidates) {
    if (!missing()) return;
    if (Object.hasOwn(out, name)) continue;
    const value = sampleValue(extra === undefined ? true : (extra as JsonValue), defs, depth + 1);
    if (value !== undefined) set(name, value);
  }
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

function sampleNumber(node: JsonObject, integer: boolean): number {
  const exclusiveMinimum = typeof node['exclusiveMinimum'] === 'number' ? node['exclusiveMinimum'] : undefined;
  const minimum =
    typeof node['minimum'] === 'number'
      ? node['minimum']
      : exclusiveMinimum !== undefined
        ? exclusiveMinimum + (integer ? 1 : 0.5)
        : undefined;
  const maximum =
    typeof node['maximum'] === 'number'
      ? node['maximum']
      : typeof node['exclusiveMaximum'] === 'number'
        ? node['exclusiveMaximum'] - (integer ? 1 : 0.5)
        : undefined;
  // Bounds past 32 bits say "any size" (often they are only the ±(2^53−1) an x-mcp-header marking adds): a sample
  // at such a bound is a valid but absurd ID, and breaks `format: int32`.
  const low = minimum !== undefined && minimum >= INT32_MIN ? minimum : undefined;
  const high = maximum !== undefined && maximum <= INT32_MAX ? maximum : undefined;
  let value = low ?? (high !== undefined ? Math.min(1, high) : 1);
  if (minimum !== undefined && value < minimum) value = minimum;
  if (maximum !== undefined && value > maximum) value = maximum;
  if (integer) value = Math.ceil(value);
  const multiple = typeof node['multipleOf'] === 'number' && node['multipleOf'] > 0 ? node['multipleOf'] : undefined;
  if (multiple) value = Math.ceil(value / multiple) * multiple;
  return value;
}

/**
 * Formats the generated server checks (Ajv with ajv-formats): a value of such a format must be the format's sample,
 * and when that sample breaks the schema's pattern or length, no value is known to satisfy the schema (Adyen's
 * one-character base64 strings, PagerDuty's `date-time` with the pattern `YYYY-MM-DDThh:mm:ssZ`).
 */
const CHECKED_FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'email',
  'idn-email',
  'hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'uuid',
  'byte',
  'duration',
  'regex',
  'json-pointer',
]);

/** A string valid against the schema, or undefined when its constraints cannot all be met. */
function sampleString(node: JsonObject): string | undefined {
  const format = typeof node['format'] === 'string' ? FORMAT_SAMPLES[node['format']] : undefined;
  const minLength = Number(node['minLength'] ?? 0);
  // `minLength: 200000000` is legal JSON Schema; padding a sample to it would take gigabytes.
  if (!(minLength <= MAX_SAMPLE_LENGTH)) return undefined;
  const maxLength = Number(node['maxLength'] ?? Infinity);
  const fits = (value: string) => value.length >= minLength && value.length <= maxLength && matches(node['pattern'], value);
  if (format !== undefined && CHECKED_FORMATS.has(String(node['format']))) return fits(format) ? format : undefined;
  for (const candidate of [format, ...STRING_CANDIDATES]) if (candidate !== undefined && fits(candidate)) return candidate;
  if (typeof node['pattern'] === 'string') {
    const generated = sampleFromPattern(node['pattern'], minLength);
    if (generated !== undefined && fits(generated)) return generated;
  }
  const padded = (format ?? 'sample').padEnd(minLength, 'x');
  const value = Number.isFinite(maxLength) ? padded.slice(0, Math.max(minLength, Math.min(padded.length, maxLength))) : padded;
  // No known value matches the pattern (a pattern no string can match, like Azure's " ^[-\w._()]+$"): none is given,
  // rather than one the server's validator would refuse.
  return matches(node['pattern'], value) ? value : undefined;
}

function matches(pattern: JsonValue | undefined, value: string): boolean {
  if (typeof pattern !== 'string') return true;
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return true;
  }
}
