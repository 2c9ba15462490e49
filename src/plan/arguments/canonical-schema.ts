import { setOwn, type JsonObject, type JsonValue } from '../../kernel/json.js';
import * as jsonSchema from '../../kernel/schema-keywords.js';
import { compareStrings } from '../text/words.js';

/** Keyword order in emitted schemas: stable, and readable (type and description first). */
const KEYWORD_ORDER = [
  '$ref',
  'type',
  'description',
  'enum',
  'const',
  'format',
  'default',
  'items',
  'prefixItems',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  ...jsonSchema.STRING_LENGTH,
  'pattern',
  ...jsonSchema.ARRAY_SIZE,
  ...jsonSchema.PROPERTY_COUNT,
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'propertyNames',
  'contains',
  ...jsonSchema.CONTAINS_COUNT,
  'unevaluatedItems',
  'unevaluatedProperties',
  'title',
  'writeOnly',
  'x-mcp-header',
];
const KEYWORD_RANK = new Map(KEYWORD_ORDER.map((keyword, index) => [keyword, index]));

const order = (a: string, b: string) => (KEYWORD_RANK.get(a) ?? 999) - (KEYWORD_RANK.get(b) ?? 999) || compareStrings(a, b);

/**
 * Orders a schema's keywords canonically; unknown keywords go last in code-unit order. Callers hand over a schema
 * they just made: one already in order (most are, being built in order) is returned as it is.
 */
export function canonical(schema: JsonObject): JsonObject {
  const keys = Object.keys(schema);
  let ordered = true;
  for (let index = 1; index < keys.length && ordered; index++) ordered = order(keys[index - 1] as string, keys[index] as string) < 0;
  if (ordered) return schema;
  const out: JsonObject = {};
  for (const key of keys.sort(order)) setOwn(out, key, schema[key] as JsonValue);
  return out;
}
