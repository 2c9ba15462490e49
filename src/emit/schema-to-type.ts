import type { JsonObject, JsonValue } from '../load/openapi-document.js';

const MAX_LITERALS = 40;

/**
 * A TypeScript type for a tool's arguments, from the top-level properties of its input schema. Nested objects
 * and references become index signatures: the schema is the exact contract, this type is a convenience for code
 * in src/custom/.
 */
export function argumentsType(schema: JsonObject): string {
  const properties = (schema['properties'] ?? {}) as Record<string, JsonValue>;
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].map(String) : []);
  const members = Object.entries(properties).map(
    ([name, property]) => `${propertyKey(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, 0)};`,
  );
  return members.length === 0 ? 'Record<string, never>' : `{\n${members.join('\n')}\n}`;
}

function typeOf(schema: JsonValue, depth: number): string {
  if (schema === true || schema === null || typeof schema !== 'object' || Array.isArray(schema)) return 'unknown';
  const node = schema as JsonObject;
  if (Array.isArray(node['enum']) && node['enum'].length > 0 && node['enum'].length <= MAX_LITERALS)
    return [...new Set(node['enum'].map(literal))].join(' | ');
  if (node['const'] !== undefined) return literal(node['const']);
  const variants = (node['anyOf'] ?? node['oneOf']) as JsonValue[] | undefined;
  if (Array.isArray(variants) && depth < 3) return [...new Set(variants.map((variant) => typeOf(variant, depth + 1)))].join(' | ');
  const types = Array.isArray(node['type']) ? node['type'] : node['type'] === undefined ? [] : [node['type']];
  if (types.length === 0) return 'unknown';
  return [...new Set(types.map((type) => primitive(String(type), node, depth)))].join(' | ');
}

function primitive(type: string, node: JsonObject, depth: number): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = node['items'] === undefined || depth >= 2 ? 'unknown' : typeOf(node['items'] as JsonValue, depth + 1);
      return /[|&]/.test(item) ? `Array<${item}>` : `${item}[]`;
    }
    default:
      return 'Record<string, unknown>';
  }
}

function literal(value: JsonValue): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null
    ? JSON.stringify(value)
        .replace(/\u2028/g, '\\u2028')
        .replace(/\u2029/g, '\\u2029')
    : 'unknown';
}

function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}
