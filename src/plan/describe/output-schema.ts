import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../../kernel/json.js';
import type { OperationModel, SchemaModel } from '../../model/api-model.js';
import { isJsonMediaType } from '../../kernel/media-types.js';
import { successSchema } from './describe-response.js';
import { objectShape } from '../arguments/schema-views.js';
import { compareStrings } from '../text/words.js';

/** Nesting kept in an output schema; deeper values are left unconstrained (`{}`). */
const MAX_DEPTH = 4;
const ANY: JsonObject = {};

/**
 * A permissive `outputSchema` for a tool, from the success responses of its actions, or undefined when an action
 * does not answer JSON (its result would carry no structured content to describe).
 *
 * Real APIs drift from their descriptions, and a client that validates `structuredContent` against the schema
 * turns every drifted response into an error. The projection therefore keeps only the shape: object properties
 * and array items with their types, every type also admitting `null`, integers widened to numbers; it drops
 * `required`, `additionalProperties`, enums, formats, patterns and bounds, leaves unions and deep levels open,
 * and merges the actions of a grouped tool into one object. The root is always an object (the server wraps a
 * primitive as `{ value }`; tools with an action that returns a list declare no schema), and since nothing is
 * required, `{}` always conforms: the server falls back to it, with the data in the text content, when a response
 * breaks even this shape.
 */
export function looseOutputSchema(operations: OperationModel[], schemas: Record<string, SchemaModel>): JsonObject | undefined {
  const roots: JsonObject[] = [];
  for (const operation of operations) {
    const { schema, mediaType } = successSchema(operation);
    if (schema === undefined || mediaType === undefined || !isJsonMediaType(mediaType)) return undefined;
    const projected = project(schema, schemas, 0, new Set());
    // A list (or an unknown shape) is passed through as structured content, not wrapped: its schema would need a
    // root other than `object`, which clients of earlier protocol revisions reject. Such tools declare none.
    if (projected === ANY || (Array.isArray(projected['type']) && projected['type'].includes('array'))) return undefined;
    roots.push(isObjectProjection(projected) ? projected : { type: 'object', properties: { value: projected } });
  }
  const merged = mergeObjects(roots);
  return { type: 'object', ...(merged['properties'] ? { properties: merged['properties'] } : {}) };
}

function isObjectProjection(schema: JsonObject): boolean {
  return Array.isArray(schema['type']) && schema['type'].includes('object');
}

function project(schema: SchemaModel, schemas: Record<string, SchemaModel>, depth: number, path: Set<string>): JsonObject {
  if (typeof schema === 'boolean' || depth > MAX_DEPTH) return ANY;
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const name = ref.replace('#/$defs/', '');
    const target = schemas[name];
    if (target === undefined || path.has(name)) return ANY;
    return project(target, schemas, depth, new Set([...path, name]));
  }
  const shape = objectShape(schema, schemas);
  if (shape) {
    const properties: JsonObject = {};
    for (const [name, property] of [...shape.properties].sort(([a], [b]) => compareStrings(a, b)))
      setOwn(properties, name, project(property, schemas, depth + 1, path) as JsonValue);
    return { type: ['object', 'null'], properties };
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const variants = schema[keyword];
    if (!Array.isArray(variants)) continue;
    const projected = variants.map((variant) => project(variant as SchemaModel, schemas, depth, path));
    return projected.length > 0 && projected.every(isObjectProjection) ? mergeObjects(projected) : ANY;
  }
  const types = (Array.isArray(schema['type']) ? schema['type'] : [schema['type']]).filter(
    (type): type is string => typeof type === 'string',
  );
  if (types.length === 0) return ANY;
  if (types.includes('array')) {
    if (types.length > 1) return ANY;
    const items = schema['items'];
    return {
      type: ['array', 'null'],
      ...(isJsonObject(items ?? null) ? { items: project(items as SchemaModel, schemas, depth + 1, path) } : {}),
    };
  }
  if (types.includes('object')) return { type: ['object', 'null'] };
  const widened = [...new Set(types.map((type) => (type === 'integer' ? 'number' : type)).concat('null'))];
  return { type: widened };
}

/** Objects as one: their properties united; a property the objects describe differently is left open. */
function mergeObjects(objects: JsonObject[]): JsonObject {
  const properties: JsonObject = {};
  for (const object of objects) {
    const own = isJsonObject(object['properties'] ?? null) ? (object['properties'] as JsonObject) : {};
    for (const [name, schema] of Object.entries(own)) {
      const existing = Object.hasOwn(properties, name) ? properties[name] : undefined;
      setOwn(properties, name, existing === undefined || JSON.stringify(existing) === JSON.stringify(schema) ? schema : ANY);
    }
  }
  const sorted: JsonObject = {};
  for (const name of Object.keys(properties).sort(compareStrings)) setOwn(sorted, name, properties[name] as JsonValue);
  return { type: ['object', 'null'], ...(Object.keys(sorted).length > 0 ? { properties: sorted } : {}) };
}
