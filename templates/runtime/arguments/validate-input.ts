// Validates tool arguments against their input schema on objects without a prototype.
// Ajv (inside the SDK) tests a property with `data.name !== undefined`, so on an ordinary object a property named
// `constructor`, `toString` or `valueOf` is always "present" (inherited) and fails its own schema: every call that
// leaves it out would be refused. A copy whose objects have no prototype has only the properties the client sent.

import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';

/** Deeper arguments are passed through as they are; the SDK bounds how many elements an input may hold. */
const MAX_COPY_DEPTH = 256;

export function withoutPrototypes(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_COPY_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => withoutPrototypes(item, depth + 1));
  const copy: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(copy, key, {
      value: withoutPrototypes(item, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/** The SDK's default validator, fed prototype-free copies; handlers receive the copy that was validated. */
export class OwnPropertiesValidator implements jsonSchemaValidator {
  private readonly inner = new AjvJsonSchemaValidator();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const check = this.inner.getValidator<T>(schema);
    return (input) => check(withoutPrototypes(input));
  }
}

/** Keywords whose values are data, never schemas: a `format` key inside them is not a keyword. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

/**
 * The input schema as the SDK's validator checks it: without formats. The argument checks own them (formats.ts):
 * they check the formats they know as leniently as APIs take them (a date-time without seconds), leave out those
 * nobody states rules for (`url`, `jwt`, `phone`), read a format beside an enum as an alternative to it, and say
 * what is wrong in the same words as for every other rule. The SDK would check some of those strictly, and refuse
 * calls the description allows.
 */
export function withoutFormats(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutFormats);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'format' && typeof value === 'string') continue;
    Object.defineProperty(copy, key, {
      value: DATA_KEYWORDS.has(key) ? value : withoutFormats(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}
