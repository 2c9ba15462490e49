import { isJsonObject, type JsonObject, type JsonValue } from '../../kernel/json.js';
import type { SchemaModel } from '../../model/api-model.js';
import type { BodyFields } from '../drafts.js';
import { compareStrings } from '../text/words.js';

/** References and compositions followed this deep. */
const MAX_DEPTH = 8;
/** The phrase names fields in its length at the lean levels, but never fewer characters than this. */
export const MIN_FIELDS_PHRASE = 60;

type Field = BodyFields['fields'][number];

/**
 * The first-level fields of a body taken whole (an array's items, a union's variants, an object the planner does not
 * flatten), readOnly ones left out and required ones marked (in a union, those every variant requires), required
 * first and then by name.
 * Undefined when the body has no declared fields (a free-form map, a primitive).
 */
export function bodyFieldsOf(schema: SchemaModel, defs: Record<string, SchemaModel>): BodyFields | undefined {
  const node = resolved(schema, defs);
  if (!node) return undefined;
  const items = node['type'] === 'array' || (node['type'] === undefined && node['items'] !== undefined);
  const fields = fieldsOf(items ? node['items'] : node, defs, 0);
  if (!fields || fields.length === 0) return undefined;
  // Required first, then by name: the order of keys in the description never changes the output.
  const sorted = [...fields].sort((a, b) => Number(b.required) - Number(a.required) || compareStrings(a.name, b.name));
  return { items, fields: sorted };
}

function resolved(schema: JsonValue | undefined, defs: Record<string, SchemaModel>): JsonObject | undefined {
  let node = schema;
  for (let hops = 0; hops < MAX_DEPTH * 2 && isJsonObject(node) && typeof node['$ref'] === 'string'; hops++)
    node = defs[node['$ref'].replace('#/$defs/', '')];
  return isJsonObject(node) ? node : undefined;
}

/** The fields of an object schema, of its `allOf` parts and, for a union, of its variants. */
function fieldsOf(schema: JsonValue | undefined, defs: Record<string, SchemaModel>, depth: number): Field[] | undefined {
  const node = resolved(schema, defs);
  if (!node || depth > MAX_DEPTH) return undefined;
  const fields: Field[] = [];
  const required = new Set(Array.isArray(node['required']) ? node['required'].filter((name) => typeof name === 'string') : []);
  const add = (field: Field) => {
    const known = fields.find((existing) => existing.name === field.name);
    if (known) known.required ||= field.required;
    else fields.push({ ...field });
  };
  if (isJsonObject(node['properties']))
    for (const [name, property] of Object.entries(node['properties'])) {
      if (isJsonObject(property) && property['readOnly'] === true) continue;
      add({ name, required: required.has(name) });
    }
  for (const part of Array.isArray(node['allOf']) ? node['allOf'] : [])
    for (const field of fieldsOf(part, defs, depth + 1) ?? []) add(field);
  const variants = node['anyOf'] ?? node['oneOf'];
  if (Array.isArray(variants)) {
    const each = variants.map((variant) => fieldsOf(variant, defs, depth + 1) ?? []);
    const everywhere = (name: string) => each.every((list) => list.some((field) => field.name === name && field.required));
    for (const list of each) for (const field of list) add({ name: field.name, required: everywhere(field.name) });
  }
  for (const field of fields) if (required.has(field.name)) field.required = true;
  return fields;
}

/**
 * The fields as a phrase for the argument's description, cut at a whole field to about `maxLength` characters:
 * `Fields: name (required), parent (required), description, and 4 more.`; for a list, `Each item has …`.
 */
export function bodyFieldsPhrase(body: BodyFields, maxLength: number): string {
  const head = body.items ? 'Each item has the fields:' : 'Fields:';
  const names = body.fields.map((field) => (field.required ? `${field.name} (required)` : field.name));
  const shown: string[] = [];
  let length = head.length;
  for (const name of names) {
    const rest = names.length - shown.length - 1;
    const tail = rest > 0 ? `, and ${rest} more` : '';
    if (shown.length > 0 && length + name.length + 2 + tail.length > maxLength) break;
    shown.push(name);
    length += name.length + 2;
  }
  const more = names.length - shown.length;
  return `${head} ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}.`;
}
