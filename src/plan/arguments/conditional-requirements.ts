import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../../kernel/json.js';
import type { SchemaModel } from '../../model/api-model.js';
import type { ConditionalRequirement } from '../drafts.js';
import { compareStrings } from '../text/words.js';
import { objectShape } from './schema-views.js';

/** A field of a flattened body and the argument that carries it. */
export type BodyFieldArgument = { name: string; arg: string };

/** Nested `allOf` parts read for conditions; real descriptions nest two or three. */
const MAX_PARTS_DEPTH = 8;

/**
 * The requirements of a flattened body that hold only in some calls, in argument keys, in a fixed order:
 * - `dependentRequired` (Swagger 2.0's `dependencies` became it when the model was built): `title` when `state` is
 *   sent;
 * - `if: {required: [state]}` — or with `properties: {state: {const: closed}}` — and `then: {required: [reason]}`, on
 *   the body or one of its `allOf` parts;
 * - `anyOf`/`oneOf` variants that differ only in the fields they require: one of them in full, when the body is
 *   required;
 * - an optional body's required fields: once any field is sent, since the server then sends a body.
 * A requirement that names a field no argument carries (a readOnly one) is dropped from its list, and a condition
 * left with nothing to require, or on such a field, is left out.
 */
export function conditionalRequirements(
  schema: SchemaModel,
  defs: Record<string, SchemaModel>,
  fields: readonly BodyFieldArgument[],
  bodyRequired: boolean,
): ConditionalRequirement[] {
  const shape = objectShape(schema, defs);
  if (!shape || fields.length === 0) return [];
  const keyOf = new Map(fields.map((field) => [field.name, field.arg]));
  const keys = (names: readonly JsonValue[]) =>
    names.flatMap((name) => (typeof name === 'string' && keyOf.has(name) ? [keyOf.get(name) as string] : []));
  const always = new Set(bodyRequired ? [...shape.required] : []);
  const out: ConditionalRequirement[] = [];
  const parts = partsOf(schema, defs);
  const dependent = new Map<string, string[]>();
  for (const part of parts) {
    const declared = part['dependentRequired'];
    if (!isJsonObject(declared)) continue;
    for (const [name, names] of Object.entries(declared)) {
      const when = keyOf.get(name);
      if (when === undefined || !Array.isArray(names)) continue;
      const needed = keys(names.filter((needed) => typeof needed === 'string' && !always.has(needed)));
      dependent.set(when, [...new Set([...(dependent.get(when) ?? []), ...needed])]);
    }
  }
  for (const [when, required] of [...dependent].sort(([a], [b]) => compareStrings(a, b)))
    if (required.length > 0) out.push({ kind: 'with', when, required });
  for (const part of parts) {
    const condition = ifCondition(part, defs);
    if (!condition) continue;
    const when = keyOf.get(condition.name);
    const required = keys(condition.required.filter((name) => !always.has(name)));
    if (when === undefined || required.length === 0) continue;
    out.push(condition.values ? { kind: 'value', when, values: condition.values, required } : { kind: 'with', when, required });
  }
  const alternatives = bodyRequired ? requiredAlternatives(schema, defs) : undefined;
  const mapped = alternatives?.map((names) => names.map((name) => keyOf.get(name)));
  if (mapped && mapped.length > 0 && mapped.every((list) => list.every((key) => key !== undefined)))
    out.push({ kind: 'alternatives', alternatives: mapped as string[][] });
  if (!bodyRequired) {
    const required = keys([...shape.required]);
    if (required.length > 0) out.push({ kind: 'body', required });
  }
  return out;
}

/**
 * The rules that enforce the requirements, in argument keys, for the schema the generated server checks an action's
 * arguments against: `dependentRequired` (a `body` requirement holds for each of the body's `fields`), an `anyOf` of
 * the alternatives, and an `allOf` of `if`/`then` pairs.
 */
export function conditionRules(conditions: readonly ConditionalRequirement[], fields: readonly string[]): JsonObject {
  const dependent: JsonObject = {};
  const add = (when: string, required: string[]) => {
    const known = Object.hasOwn(dependent, when) ? (dependent[when] as string[]) : [];
    const merged = [...new Set([...known, ...required.filter((key) => key !== when)])];
    if (merged.length > 0) setOwn(dependent, when, merged);
  };
  let alternatives: JsonValue[] | undefined;
  const pairs: JsonValue[] = [];
  for (const condition of conditions) {
    if (condition.kind === 'with') add(condition.when, condition.required);
    else if (condition.kind === 'body') for (const key of fields) add(key, condition.required);
    else if (condition.kind === 'alternatives') alternatives = condition.alternatives.map((keys) => ({ required: keys }));
    else {
      const properties: JsonObject = {};
      setOwn(properties, condition.when, { enum: condition.values });
      pairs.push({ if: { properties, required: [condition.when] }, then: { required: condition.required } });
    }
  }
  const rules: JsonObject = {};
  if (Object.keys(dependent).length > 0) rules['dependentRequired'] = dependent;
  if (alternatives) rules['anyOf'] = alternatives;
  if (pairs.length > 0) rules['allOf'] = pairs;
  return rules;
}

function resolved(schema: JsonValue | undefined, defs: Record<string, SchemaModel>): JsonObject | undefined {
  let node = schema;
  for (let hops = 0; hops < 16 && isJsonObject(node) && typeof node['$ref'] === 'string'; hops++)
    node = defs[node['$ref'].replace('#/$defs/', '')];
  return isJsonObject(node) ? node : undefined;
}

/** The body's schema and its `allOf` parts, references followed. */
function partsOf(schema: SchemaModel, defs: Record<string, SchemaModel>, depth = 0): JsonObject[] {
  const node = resolved(schema, defs);
  if (!node || depth > MAX_PARTS_DEPTH) return [];
  const parts = Array.isArray(node['allOf']) ? node['allOf'].flatMap((part) => partsOf(part as SchemaModel, defs, depth + 1)) : [];
  return [node, ...parts];
}

/**
 * `if: {required: [name]}` (sent), or with `properties: {name: {const | enum}}` (sent with one of those values), and
 * `then: {required: [...]}`: what is required, and when.
 */
function ifCondition(
  part: JsonObject,
  defs: Record<string, SchemaModel>,
): { name: string; values?: JsonValue[]; required: string[] } | undefined {
  const test = resolved(part['if'], defs);
  const then = resolved(part['then'], defs);
  if (!test || !then || !Array.isArray(then['required'])) return undefined;
  const named = Array.isArray(test['required']) ? test['required'] : [];
  const properties = isJsonObject(test['properties']) ? Object.entries(test['properties']) : [];
  const name = named.length === 1 && typeof named[0] === 'string' ? named[0] : undefined;
  if (name === undefined || properties.some(([property]) => property !== name)) return undefined;
  const required = then['required'].filter((item): item is string => typeof item === 'string');
  const property = properties[0]?.[1];
  if (property === undefined) return { name, required };
  const values = isJsonObject(property)
    ? property['const'] !== undefined
      ? [property['const']]
      : Array.isArray(property['enum'])
        ? property['enum']
        : undefined
    : undefined;
  return values ? { name, values, required } : undefined;
}

/** The `required` lists of a body's `anyOf`/`oneOf` when its variants only say which fields go together. */
export function requiredAlternatives(schema: SchemaModel, defs: Record<string, SchemaModel>): string[][] | undefined {
  const node = resolved(schema, defs);
  const variants = node?.['anyOf'] ?? node?.['oneOf'];
  if (!Array.isArray(variants)) return undefined;
  const lists = variants.map((variant) =>
    isJsonObject(variant) && Array.isArray(variant['required'])
      ? variant['required'].filter((name): name is string => typeof name === 'string')
      : [],
  );
  return lists.every((names) => names.length > 0) ? lists : undefined;
}
