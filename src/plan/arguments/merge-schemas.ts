import { setOwn, type JsonObject, type JsonValue } from '../../kernel/json.js';
import type { SchemaModel } from '../../model/api-model.js';

/** One schema for an argument several actions share: identical schemas stay as they are, enums are united. */
export function mergeSchemas(schemas: SchemaModel[]): SchemaModel {
  // One action's argument (most of them, and every one on the search surface): nothing to compare it with.
  if (schemas.length === 1) return schemas[0] as SchemaModel;
  const distinct: SchemaModel[] = [];
  const seen = new Set<string>();
  for (const schema of schemas) {
    const key = descriptionlessKey(schema);
    if (!seen.has(key)) {
      seen.add(key);
      distinct.push(schema);
    }
  }
  if (distinct.length === 1) return distinct[0] as SchemaModel;
  // Schemas that differ only in annotations are one schema; a default some actions disagree on is true for none.
  const shapes = new Set(distinct.map((schema) => JSON.stringify(withoutAnnotations(schema))));
  if (shapes.size === 1) return withoutAnnotations(distinct[0] as SchemaModel, ['default']);
  const firstType = typeof distinct[0] === 'object' ? JSON.stringify(distinct[0]['type']) : undefined;
  const sameType =
    firstType !== undefined && distinct.every((schema) => typeof schema === 'object' && JSON.stringify(schema['type']) === firstType);
  const type = (distinct[0] as JsonObject)['type'] as JsonValue;
  if (sameType && distinct.every((schema) => Array.isArray((schema as JsonObject)['enum']))) {
    // A set of serialised values: comparing each value with every other is quadratic, and a description may hold
    // enums of 100,000 values.
    const values: JsonValue[] = [];
    const seenValues = new Set<string>();
    for (const schema of distinct)
      for (const value of (schema as JsonObject)['enum'] as JsonValue[]) {
        const key = JSON.stringify(value);
        if (seenValues.has(key)) continue;
        seenValues.add(key);
        values.push(value);
      }
    return { type, enum: values };
  }
  // Scalars of one type that differ only in format or bounds: the bare type accepts what each action accepts, and
  // the API checks the rest.
  const scalar = typeof type === 'string' && ['string', 'integer', 'number', 'boolean'].includes(type);
  if (sameType && scalar) return { type };
  return { anyOf: distinct.map(withoutDescription) as JsonValue[] };
}

/**
 * A schema without its description, as text, for comparing. Argument schemas are the model's objects, shared by every
 * build of a plan: each is serialised once.
 */
const descriptionlessKeys = new WeakMap<JsonObject, string>();
function descriptionlessKey(schema: SchemaModel): string {
  if (typeof schema === 'boolean') return JSON.stringify(schema);
  let key = descriptionlessKeys.get(schema);
  if (key === undefined) {
    key = JSON.stringify(withoutDescription(schema));
    descriptionlessKeys.set(schema, key);
  }
  return key;
}

const ANNOTATION_KEYWORDS = ['description', 'default', 'examples', 'title', 'deprecated'];

function withoutAnnotations(schema: SchemaModel, keywords: readonly string[] = ANNOTATION_KEYWORDS): SchemaModel {
  if (typeof schema === 'boolean') return schema;
  const out: JsonObject = {};
  for (const [keyword, value] of Object.entries(schema)) if (!keywords.includes(keyword)) setOwn(out, keyword, value as JsonValue);
  return out;
}

function withoutDescription(schema: SchemaModel): SchemaModel {
  if (typeof schema === 'boolean' || schema['description'] === undefined) return schema;
  const { description: _description, ...rest } = schema;
  return rest;
}
