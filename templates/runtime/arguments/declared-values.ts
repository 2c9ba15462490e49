// Values given in another JSON type than the description declares, taken as the declared value where nothing changes
// for the API. A grouped tool's input schema unites its actions' arguments (`id: anyOf [integer, string]`), and an
// optional argument may be only named in the tool's description, so a model cannot tell which type one action
// declares; and parameters travel as text, where 41236 and "41236", false and "false" are the same bytes.
// - Text (path, query, header and cookie parameters, form fields, multipart parts that are not JSON): a value is
//   checked as the declared value with the same text — 41236 as "41236" for a string, "25" as 25 for an integer,
//   false as "false" for the enum "true" | "false", one value as a one-item array. What is sent is the value given:
//   its text is already the declared value's.
// - JSON (a JSON body's fields, a parameter sent as JSON): a number and a string are different bytes there, so a field
//   whose declared type is a plain scalar takes the value converted when the conversion loses nothing and reads back
//   the same — "42" → 42 for an integer, 42 → "42" for a string, "true" → true — and that is what is sent. "4.5" for
//   an integer, or "1e3", stays as given and is refused.

import { type Defs, isSchema, resolve, type Schema } from './schema-nodes.js';

/** How a value reaches the API. */
export type ValueForm = 'text' | 'json';

/** What a schema lets a value be: its JSON types, the values of its enum or const, its items' declaration. */
export type Declared = {
  types: ReadonlySet<string>;
  values?: readonly unknown[];
  items?: Declared;
  /** One type (and perhaps null), not a union of schemas: the only declarations a JSON value is converted to. */
  plain: boolean;
};

const SCALARS = new Set(['string', 'integer', 'number', 'boolean', 'null']);
const DIGITS = /^-?\d+$/;
const DECIMAL = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const CANONICAL_INTEGER = /^-?(?:0|[1-9]\d*)$/;

/** The JSON type of a value, as JSON Schema names it (a whole number is an integer). */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * What a schema declares for a value, following references; undefined when it says nothing about the type (any
 * value, or a shape the conversions leave alone).
 */
export function declaredOf(schema: unknown, defs: Defs, depth = 0): Declared | undefined {
  const node = resolve(schema, defs);
  if (!isSchema(node) || depth > 8) return undefined;
  const variants = node['anyOf'] ?? node['oneOf'];
  if (node['type'] === undefined && Array.isArray(variants)) return unionOf(variants, defs, depth);
  const values = Array.isArray(node['enum'])
    ? (node['enum'] as unknown[])
    : node['const'] !== undefined
      ? [node['const']]
      : undefined;
  const type = node['type'];
  const types = new Set<string>(
    typeof type === 'string'
      ? [type]
      : Array.isArray(type)
        ? type.filter((item): item is string => typeof item === 'string')
        : (values ?? []).map(jsonType),
  );
  if (types.size === 0) {
    // `allOf: [{$ref: Id}, {description}]`: the part that declares a type declares it for the whole.
    const parts = Array.isArray(node['allOf']) ? node['allOf'] : [];
    for (const part of parts) {
      const declared = declaredOf(part, defs, depth + 1);
      if (declared) return { ...declared, plain: false };
    }
    return undefined;
  }
  const items = types.has('array') ? declaredOf(node['items'], defs, depth + 1) : undefined;
  return {
    types,
    ...(values ? { values } : {}),
    ...(items ? { items } : {}),
    plain: [...types].every((item) => SCALARS.has(item)) && [...types].filter((item) => item !== 'null').length === 1,
  };
}

/** A union declares what any of its variants declares; a variant that declares nothing leaves the union open. */
function unionOf(variants: unknown[], defs: Defs, depth: number): Declared | undefined {
  const declared = variants.map((variant) => declaredOf(variant, defs, depth + 1));
  if (declared.length === 0 || declared.some((entry) => entry === undefined)) return undefined;
  const all = declared as Declared[];
  const types = new Set(all.flatMap((entry) => [...entry.types]));
  const items = all.find((entry) => entry.items)?.items;
  const values = all.every((entry) => entry.values) ? all.flatMap((entry) => entry.values ?? []) : undefined;
  return { types, ...(values ? { values } : {}), ...(items ? { items } : {}), plain: false };
}

/** Whether a declaration takes a value as it is. */
function takes(declared: Declared, value: unknown): boolean {
  const type = jsonType(value);
  const typed = declared.types.has(type) || (type === 'integer' && declared.types.has('number'));
  if (!typed) return false;
  if (!declared.values) return true;
  if (value !== null && typeof value === 'object') return true;
  return declared.values.some((allowed) => allowed === value);
}

/** Whether a declaration's types take a value, whatever its enum says. */
function typed(declared: Declared, value: unknown): boolean {
  return takes({ types: declared.types, plain: declared.plain }, value);
}

/**
 * The value the description's rules see: the value itself when the declaration takes it, else the declared value
 * that reaches the API as the same text (text) or converts without loss (json), else the value itself (refused with
 * the rule it breaks).
 */
export function asDeclared(value: unknown, declared: Declared | undefined, form: ValueForm): unknown {
  if (declared === undefined || value === undefined) return value;
  if (form === 'text' && Array.isArray(value) && declared.items && declared.types.has('array'))
    return value.map((item) => asDeclared(item, declared.items, 'text'));
  if (takes(declared, value)) return value;
  if (form === 'json') return declared.plain ? (pick(declared, jsonCandidates(value, declared)) ?? value) : value;
  // One value where a list is declared: `ids=7` is the list [7] in every style.
  if (declared.types.has('array') && value !== null && typeof value !== 'object')
    return [asDeclared(value, declared.items, 'text')];
  return pick(declared, textCandidates(value, declared)) ?? value;
}

/** The first candidate the declaration takes, else the first of a declared type (its enum then says what is wrong). */
function pick(declared: Declared, candidates: unknown[]): unknown {
  return (
    candidates.find((candidate) => takes(declared, candidate)) ??
    candidates.find((candidate) => typed(declared, candidate))
  );
}

/** Declared values whose text is the value's. */
function textCandidates(value: unknown, declared: Declared): unknown[] {
  const candidates: unknown[] = [];
  if (typeof value === 'string') {
    const number = Number(value);
    if (declared.types.has('integer') && DIGITS.test(value) && Number.isFinite(number)) candidates.push(number);
    if (declared.types.has('number') && DECIMAL.test(value) && Number.isFinite(number)) candidates.push(number);
    if (declared.types.has('boolean') && (value === 'true' || value === 'false')) candidates.push(value === 'true');
  } else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') {
    if (declared.types.has('string')) candidates.push(String(value));
  }
  return candidates;
}

/** Declared values that a JSON value converts to and back from unchanged. */
function jsonCandidates(value: unknown, declared: Declared): unknown[] {
  const candidates: unknown[] = [];
  if (typeof value === 'string') {
    const number = Number(value);
    if (declared.types.has('integer') && CANONICAL_INTEGER.test(value) && Number.isSafeInteger(number))
      candidates.push(number);
    if (declared.types.has('number') && value.trim() !== '' && Number.isFinite(number) && String(number) === value)
      candidates.push(number);
    if (declared.types.has('boolean') && (value === 'true' || value === 'false')) candidates.push(value === 'true');
  } else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') {
    if (declared.types.has('string')) candidates.push(String(value));
  }
  return candidates;
}
