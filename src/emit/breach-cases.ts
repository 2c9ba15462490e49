import type { JsonObject, JsonValue } from '../kernel/json.js';
import { CHECKED_FORMATS, NUMBER_FORMATS } from '../plan/arguments/validation-view.js';
import { sampleValue } from './sample-values.js';

/** A value for one argument that breaks one rule of the action's full schema, and the words the server's answer names it with. */
export type ArgumentBreach = { argument: string; value: JsonValue; kind: BreachKind; expect: string };

export type BreachKind = 'required' | 'pattern' | 'format' | 'enum' | 'bound' | 'length';

/** Preferred first: the rules a lean input schema drops most (nested fields, patterns, formats). */
const KIND_ORDER: readonly BreachKind[] = ['required', 'pattern', 'format', 'enum', 'bound', 'length'];

/** Nested objects searched for a breach, below the argument itself. */
const MAX_DEPTH = 3;

const COMPOSITIONS = ['allOf', 'anyOf', 'oneOf', 'not', 'if'];

const isPlainObject = (value: JsonValue | undefined): value is JsonObject =>
  value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);

/** Keys the server's message writes bare (`body.config.url`); others are quoted, and skipped here for plain expectations. */
const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/**
 * A breach of the action's full argument schema (see argument-schemas.ts): a missing required field of a nested
 * object, a string against a pattern, format or enum, a number past a bound, a string past its length, in that
 * order of preference. Undefined when the schema has none of these where a simple value can break it.
 */
export function findBreach(argumentsSchema: JsonObject, defs: JsonObject): ArgumentBreach | undefined {
  const properties = isPlainObject(argumentsSchema['properties']) ? argumentsSchema['properties'] : {};
  const found: ArgumentBreach[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    if (!PLAIN_KEY.test(name)) continue;
    collect(name, name, schema, defs, (value) => value, 0, found);
  }
  for (const kind of KIND_ORDER) {
    const breach = found.find((candidate) => candidate.kind === kind);
    if (breach) return breach;
  }
  return undefined;
}

function resolve(schema: JsonValue | undefined, defs: JsonObject): JsonValue | undefined {
  let current = schema;
  for (let hops = 0; hops < 8 && isPlainObject(current) && typeof current['$ref'] === 'string'; hops++) {
    const name = current['$ref'].replace('#/$defs/', '');
    current = Object.hasOwn(defs, name) ? defs[name] : undefined;
  }
  return current;
}

function collect(
  argument: string,
  path: string,
  schema: JsonValue | undefined,
  defs: JsonObject,
  wrap: (value: JsonValue) => JsonValue,
  depth: number,
  found: ArgumentBreach[],
): void {
  const node = resolve(schema, defs);
  if (!isPlainObject(node) || COMPOSITIONS.some((keyword) => node[keyword] !== undefined)) return;
  const add = (kind: BreachKind, value: JsonValue, expect: string) => found.push({ argument, value: wrap(value), kind, expect });
  const types = Array.isArray(node['type']) ? node['type'] : [node['type']];
  const string = types.includes('string');
  if (string && typeof node['pattern'] === 'string') {
    const value = failingString(node['pattern']);
    if (value !== undefined) add('pattern', value, `${path} must match the pattern`);
  }
  const format = typeof node['format'] === 'string' ? node['format'] : undefined;
  if (string && format && CHECKED_FORMATS.has(format) && !NUMBER_FORMATS.has(format) && node['enum'] === undefined)
    add('format', 'not a valid value', `${path} must be`);
  if (string && Array.isArray(node['enum']) && node['enum'].every((value) => typeof value === 'string' || value === null))
    add('enum', 'not-a-listed-value', `${path} must be one of`);
  if (types.includes('integer') || types.includes('number')) {
    if (typeof node['maximum'] === 'number') add('bound', node['maximum'] + 1, `${path} must be at most`);
    else if (typeof node['minimum'] === 'number') add('bound', node['minimum'] - 1, `${path} must be at least`);
  }
  if (string && typeof node['maxLength'] === 'number' && node['maxLength'] < 1000)
    add('length', 'x'.repeat(node['maxLength'] + 1), `${path} must have at most`);
  if (depth >= MAX_DEPTH || !isPlainObject(node['properties'])) return;
  const base = sampleValue(node, defs);
  if (!isPlainObject(base)) return;
  const properties = node['properties'];
  const required = Array.isArray(node['required']) ? node['required'] : [];
  const missing = required.find((name): name is string => typeof name === 'string' && PLAIN_KEY.test(name) && Object.hasOwn(base, name));
  if (missing !== undefined) {
    const { [missing]: _left, ...rest } = base;
    add('required', rest, `${path}.${missing} is required`);
  }
  for (const [name, property] of Object.entries(properties)) {
    if (!PLAIN_KEY.test(name)) continue;
    collect(argument, `${path}.${name}`, property, defs, (value) => wrap({ ...base, [name]: value }), depth + 1, found);
  }
}

/** A short string the pattern refuses. */
function failingString(pattern: string): string | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  return ['!', ' ', '-', '0', 'a', 'A', '~not valid~'].find((candidate) => !regex.test(candidate));
}
