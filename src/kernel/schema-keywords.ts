/**
 * JSON Schema keywords in groups, for the keyword lists the stages build from them (`import * as jsonSchema`, then
 * `...jsonSchema.STRING_LENGTH`). A list's order can decide the key
 * order of a schema that ends up in a file, so each list spreads these groups in its own order and none is re-sorted.
 */

/** The length of a string. */
export const STRING_LENGTH = ['minLength', 'maxLength'] as const;

/** The inclusive bounds of a number. */
export const NUMBER_RANGE = ['minimum', 'maximum'] as const;

/** The exclusive bounds of a number: booleans beside `minimum`/`maximum` in OpenAPI 3.0, numbers of their own in 3.1. */
export const EXCLUSIVE_RANGE = ['exclusiveMinimum', 'exclusiveMaximum'] as const;

/** The size of an array and whether its items are unique. */
export const ARRAY_SIZE = ['minItems', 'maxItems', 'uniqueItems'] as const;

/** How many items of an array match `contains`. */
export const CONTAINS_COUNT = ['minContains', 'maxContains'] as const;

/** The number of an object's properties. */
export const PROPERTY_COUNT = ['minProperties', 'maxProperties'] as const;

/** Keywords whose value is a list of subschemas that the value is checked against together. */
export const COMPOSITIONS = ['allOf', 'anyOf', 'oneOf'] as const;

/** Keywords whose value is one subschema. */
export const SUBSCHEMA = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;
