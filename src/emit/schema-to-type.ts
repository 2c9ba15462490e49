import type { JsonObject, JsonValue } from '../kernel/json.js';

const MAX_LITERALS = 40;

/**
 * A TypeScript type, as the emitter writes it: keywords, literals, `T[]`, `Array<T>`, `Record<string, …>` and
 * unions. `text` is the type written on one line; it decides deduplication and `T[]` versus `Array<T>`, and the
 * printer lays the node out as prettier would.
 */
export type TypeNode =
  | { kind: 'keyword'; text: string }
  | { kind: 'literal'; text: string }
  | { kind: 'array'; text: string; element: TypeNode }
  | { kind: 'reference'; text: string; name: string; args: TypeNode[] }
  | { kind: 'union'; text: string; types: TypeNode[] };

/** A type member: `key?: type`. */
export type TypeMember = { name: string; optional: boolean; type: TypeNode };

/**
 * The members of a tool's arguments type, from the top-level properties of its input schema (empty: no
 * arguments). Nested objects and references become index signatures: the schema is the exact contract, this type
 * is a convenience for code in src/custom/.
 */
export function argumentsMembers(schema: JsonObject): TypeMember[] {
  const properties = (schema['properties'] ?? {}) as Record<string, JsonValue>;
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].map(String) : []);
  return Object.entries(properties).map(([name, property]) => ({ name, optional: !required.has(name), type: typeOf(property, 0) }));
}

const keyword = (text: string): TypeNode => ({ kind: 'keyword', text });
const UNKNOWN = keyword('unknown');

/** A union of distinct types (by their text); a union of one is that type, and nested unions flatten. */
function unionOf(types: TypeNode[]): TypeNode {
  const seen = new Map<string, TypeNode>();
  for (const type of types) if (!seen.has(type.text)) seen.set(type.text, type);
  const distinct = [...seen.values()];
  // `anyOf: []` allows nothing a type could name; `unknown` keeps the module valid.
  if (distinct.length <= 1) return distinct[0] ?? UNKNOWN;
  return {
    kind: 'union',
    text: distinct.map((type) => type.text).join(' | '),
    types: distinct.flatMap((type) => (type.kind === 'union' ? type.types : [type])),
  };
}

function typeOf(schema: JsonValue, depth: number): TypeNode {
  if (schema === true || schema === null || typeof schema !== 'object' || Array.isArray(schema)) return UNKNOWN;
  const node = schema as JsonObject;
  if (Array.isArray(node['enum']) && node['enum'].length > 0 && node['enum'].length <= MAX_LITERALS)
    return unionOf(node['enum'].map(literal));
  if (node['const'] !== undefined) return literal(node['const']);
  const variants = (node['anyOf'] ?? node['oneOf']) as JsonValue[] | undefined;
  if (Array.isArray(variants) && depth < 3) return unionOf(variants.map((variant) => typeOf(variant, depth + 1)));
  const types = Array.isArray(node['type']) ? node['type'] : node['type'] === undefined ? [] : [node['type']];
  if (types.length === 0) return UNKNOWN;
  return unionOf(types.map((type) => primitive(String(type), node, depth)));
}

function primitive(type: string, node: JsonObject, depth: number): TypeNode {
  switch (type) {
    case 'string':
      return keyword('string');
    case 'integer':
    case 'number':
      return keyword('number');
    case 'boolean':
      return keyword('boolean');
    case 'null':
      return keyword('null');
    case 'array': {
      const item = node['items'] === undefined || depth >= 2 ? UNKNOWN : typeOf(node['items'] as JsonValue, depth + 1);
      return /[|&]/.test(item.text)
        ? { kind: 'reference', text: `Array<${item.text}>`, name: 'Array', args: [item] }
        : { kind: 'array', text: `${item.text}[]`, element: item };
    }
    default:
      return { kind: 'reference', text: 'Record<string, unknown>', name: 'Record', args: [keyword('string'), UNKNOWN] };
  }
}

function literal(value: JsonValue): TypeNode {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null
    ? {
        kind: 'literal',
        text: JSON.stringify(value)
          .replace(/\u2028/g, '\\u2028')
          .replace(/\u2029/g, '\\u2029'),
      }
    : UNKNOWN;
}
