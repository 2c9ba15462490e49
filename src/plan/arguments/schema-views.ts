import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../../kernel/json.js';
import type { SchemaModel } from '../../model/api-model.js';

/** Keywords a model never needs in an input schema (response-only, documentation-only). */
const NOISE_KEYWORDS = new Set([
  'examples',
  'example',
  'deprecated',
  'readOnly',
  'contentMediaType',
  'contentEncoding',
  '$comment',
  'xml',
  'externalDocs',
]);

/**
 * The input view of a schema: properties marked `readOnly` (server-set fields such as `id` or `created_at`) are
 * removed, with their `required` entries, documentation-only keywords are dropped, and `oneOf` becomes `anyOf`.
 */
export function inputView(schema: SchemaModel): SchemaModel {
  if (typeof schema === 'boolean') return schema;
  return viewNode(schema) as SchemaModel;
}

/**
 * The input view of an argument's schema, one object per distinct schema of a plan (`defs` is the plan's). The model
 * makes a schema object per parameter and operation (Microsoft Graph: 74,804 argument schemas, 4,146 distinct), and
 * what the planner and the search surface derive from an argument's schema they remember by the object (projections
 * per level, merge keys, lengths): one object per distinct schema makes each of those once. The view is a pure
 * function of the schema's content, which its JSON text states; the objects are shared, so never changed.
 */
export function argumentView(schema: SchemaModel, defs: Record<string, SchemaModel>): SchemaModel {
  if (typeof schema === 'boolean') return schema;
  let views = argumentViews.get(defs);
  if (!views) argumentViews.set(defs, (views = { byObject: new WeakMap(), byText: new Map() }));
  // A body's fields are the named schemas' own objects, shared by every operation that sends that body: their view
  // is found by the object before its text is written.
  let view = views.byObject.get(schema);
  if (view !== undefined) return view;
  const text = JSON.stringify(schema);
  view = views.byText.get(text);
  if (view === undefined) views.byText.set(text, (view = viewNode(schema) as SchemaModel));
  views.byObject.set(schema, view);
  return view;
}

const argumentViews = new WeakMap<
  Record<string, SchemaModel>,
  { byObject: WeakMap<JsonObject, SchemaModel>; byText: Map<string, SchemaModel> }
>();

function viewNode(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(viewNode);
  if (!isJsonObject(node)) return node;
  const out: JsonObject = {};
  const readOnly = new Set<string>();
  for (const [key, value] of Object.entries(node)) {
    if (NOISE_KEYWORDS.has(key) || key.startsWith('x-')) continue;
    if (key === 'properties' && isJsonObject(value)) {
      const properties: JsonObject = {};
      for (const [name, property] of Object.entries(value)) {
        if (isJsonObject(property) && property['readOnly'] === true) {
          readOnly.add(name);
          continue;
        }
        setOwn(properties, name, viewNode(property));
      }
      out['properties'] = properties;
      continue;
    }
    if (key === 'default' || key === 'enum' || key === 'const' || key === 'required') {
      out[key] = value;
      continue;
    }
    // Vendor unions overlap more often than not (a discriminator decides, not the shapes): `oneOf` would reject
    // valid input that matches two variants, so inputs take `anyOf` and the API does the exact check.
    if (key === 'oneOf') {
      out['anyOf'] = viewNode(value);
      continue;
    }
    setOwn(out, key, viewNode(value));
  }
  if (Array.isArray(out['required']) && readOnly.size > 0) {
    const required = out['required'].filter((name) => typeof name === 'string' && !readOnly.has(name));
    if (required.length > 0) out['required'] = required;
    else delete out['required'];
  }
  return out;
}

export type ObjectShape = { properties: Array<[string, SchemaModel]>; required: Set<string>; description?: string };

/**
 * The top-level properties of an object schema, following `$ref`s into `defs` and merging `allOf` parts, or
 * undefined when the schema is not a plain object (a union, an array, a primitive, a free-form map).
 */
export function objectShape(schema: SchemaModel, defs: Record<string, SchemaModel>): ObjectShape | undefined {
  return shapeOf(schema, defs, 0);
}

/** References and `allOf` parts followed this deep: past it, a schema has no shape (a cycle ends here). */
const MAX_SHAPE_DEPTH = 16;

/**
 * Shapes made, by `defs` and schema object, each with how many levels below its own it followed (its span). Asked
 * again and again of the same schemas (arguments, descriptions, concise views, the server's checks), and each body
 * of an operation of Microsoft Graph refers to an entity whose hundreds of properties come through a chain of
 * `allOf`s: the shape of every schema on the way is made once. A shape made at one depth is the one any depth gives
 * that leaves room for its span; one the depth limit cut (span Infinity) is made again. Shapes are read, never
 * changed, by every caller.
 */
const shapes = new WeakMap<Record<string, SchemaModel>, WeakMap<JsonObject, { shape: ObjectShape | undefined; span: number }>>();

/** The deepest level the shape being made has reached (Infinity once the depth limit cut it). */
let reached = 0;

function shapeOf(schema: SchemaModel, defs: Record<string, SchemaModel>, depth: number): ObjectShape | undefined {
  if (depth > MAX_SHAPE_DEPTH) {
    reached = Infinity;
    return undefined;
  }
  if (typeof schema === 'boolean') return undefined;
  let byDefs = shapes.get(defs);
  if (!byDefs) shapes.set(defs, (byDefs = new WeakMap()));
  const known = byDefs.get(schema);
  if (known && depth + known.span <= MAX_SHAPE_DEPTH) {
    reached = Math.max(reached, depth + known.span);
    return known.shape;
  }
  const outer = reached;
  reached = depth;
  const shape = shapeOfNode(schema, defs, depth);
  byDefs.set(schema, { shape, span: reached - depth });
  reached = Math.max(outer, reached);
  return shape;
}

function shapeOfNode(schema: JsonObject, defs: Record<string, SchemaModel>, depth: number): ObjectShape | undefined {
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const target = defs[ref.replace('#/$defs/', '')];
    const shape = target === undefined ? undefined : shapeOf(target, defs, depth + 1);
    return shape && typeof schema['description'] === 'string' ? { ...shape, description: schema['description'] } : shape;
  }
  if (
    !onlyRequiredVariants(schema['oneOf']) ||
    !onlyRequiredVariants(schema['anyOf']) ||
    schema['not'] !== undefined ||
    !onlyConditions(schema)
  ) {
    return undefined;
  }
  const type = schema['type'];
  // A nullable object (`type: [object, null]`) still has fields to fill; leaving it out is how a model sends none.
  const objectType =
    type === undefined ||
    type === 'object' ||
    (Array.isArray(type) && type.includes('object') && type.every((item) => item === 'object' || item === 'null'));
  if (!objectType) return undefined;
  const properties: Array<[string, SchemaModel]> = [];
  const indexOf = new Map<string, number>();
  const required = new Set<string>();
  const add = (shape: ObjectShape) => {
    for (const [name, property] of shape.properties) {
      const index = indexOf.get(name);
      if (index === undefined) {
        indexOf.set(name, properties.length);
        properties.push([name, property]);
      } else properties[index] = [name, bothOf(properties[index]?.[1] ?? {}, property)];
    }
    for (const name of shape.required) required.add(name);
  };
  if (Array.isArray(schema['allOf'])) {
    for (const part of schema['allOf']) {
      if (isConditionPart(part)) continue;
      const shape = shapeOf(part as SchemaModel, defs, depth + 1);
      if (!shape) return undefined;
      add(shape);
    }
  }
  if (isJsonObject(schema['properties'])) {
    add({
      properties: Object.entries(schema['properties']).map(([name, value]) => [name, value as SchemaModel]),
      required: new Set(
        Array.isArray(schema['required']) ? schema['required'].filter((item): item is string => typeof item === 'string') : [],
      ),
    });
  } else if (Array.isArray(schema['required'])) {
    for (const name of schema['required']) if (typeof name === 'string') required.add(name);
  }
  if (properties.length === 0) return undefined;
  const description = typeof schema['description'] === 'string' ? schema['description'] : undefined;
  return { properties, required, ...(description ? { description } : {}) };
}

/**
 * A property two `allOf` parts both declare must satisfy both (sendgrid's sender `from` gets its `required: [email]`
 * from the second part); the description stays on top, where the argument's description is read from.
 */
function bothOf(first: SchemaModel, second: SchemaModel): SchemaModel {
  if (JSON.stringify(first) === JSON.stringify(second)) return first;
  const description = [first, second].map((schema) => (typeof schema === 'object' ? schema['description'] : undefined)).find(Boolean);
  return { ...(typeof description === 'string' ? { description } : {}), allOf: [first, second] as JsonValue[] };
}

/**
 * `anyOf: [{required: [a]}, {required: [b]}]` next to `properties` only says which fields must be present together;
 * the object can still be flattened, and the API checks the combination.
 */
function onlyRequiredVariants(variants: JsonValue | undefined): boolean {
  if (variants === undefined) return true;
  return (
    Array.isArray(variants) &&
    variants.every(
      (variant) =>
        isJsonObject(variant) && Object.keys(variant).every((key) => key === 'required' || key === 'description' || key === 'title'),
    )
  );
}

/**
 * `if`/`then` that only say which fields a field (or one of its values) requires: the object can still be flattened;
 * arguments/conditional-requirements.ts states the requirements and has the server check them.
 */
function onlyConditions(schema: JsonObject): boolean {
  if (schema['if'] === undefined) return schema['then'] === undefined && schema['else'] === undefined;
  return schema['else'] === undefined && isCondition(schema['if'], true) && isCondition(schema['then'], false);
}

function isCondition(node: JsonValue | undefined, test: boolean): boolean {
  if (!isJsonObject(node)) return false;
  return Object.entries(node).every(([key, value]) => {
    if (key === 'required' || key === 'description' || key === 'title') return true;
    if (key !== 'properties' || !test || !isJsonObject(value)) return false;
    return Object.values(value).every(
      (property) => isJsonObject(property) && Object.keys(property).every((keyword) => keyword === 'const' || keyword === 'enum'),
    );
  });
}

/** An `allOf` part that declares no fields, only requirements that depend on other fields. */
function isConditionPart(part: JsonValue): boolean {
  return (
    isJsonObject(part) &&
    Object.keys(part).every((key) => ['if', 'then', 'dependentRequired', 'description', 'title'].includes(key)) &&
    onlyConditions(part)
  );
}

/** True when a schema (following refs) accepts a file: `format: binary`/`byte` strings. */
export function isFileSchema(schema: SchemaModel, defs: Record<string, SchemaModel>, depth = 0): boolean {
  if (typeof schema === 'boolean' || depth > 8) return false;
  if (typeof schema['$ref'] === 'string') {
    const target = defs[schema['$ref'].replace('#/$defs/', '')];
    return target !== undefined && isFileSchema(target, defs, depth + 1);
  }
  const type = schema['type'];
  const isString = type === 'string' || (Array.isArray(type) && type.includes('string'));
  return isString && (schema['format'] === 'binary' || schema['contentMediaType'] === 'application/octet-stream');
}
