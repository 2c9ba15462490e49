import { isJsonObject, type JsonObject, type JsonValue } from '../../kernel/json.js';
import type { SchemaModel } from '../../model/api-model.js';
import type { ArgumentDraft } from '../drafts.js';

/** References and compositions followed this deep; a type is rarely more than two references away. */
const MAX_DEPTH = 8;

/**
 * Each argument's own type in words (`integer`, `string or null`, `array`), for the arguments whose schema gives one:
 * an action's line says it where a grouped tool's merged input schema cannot (`id: anyOf [integer, string]`).
 */
export function argumentTypes(
  draft: { arguments: readonly ArgumentDraft[] },
  defs: Record<string, SchemaModel>,
): Array<[argument: string, type: string]> {
  return draft.arguments.flatMap((argument): Array<[string, string]> => {
    const words = argumentTypeText(argument.schema, defs);
    return words === undefined ? [] : [[argument.key, words]];
  });
}

/** typeText of an argument's schema, once per schema of a plan (arguments share theirs: see argumentView). */
function argumentTypeText(schema: SchemaModel, defs: Record<string, SchemaModel>): string | undefined {
  if (!isJsonObject(schema)) return typeText(schema, defs);
  let byDefs = typeTexts.get(defs);
  if (!byDefs) typeTexts.set(defs, (byDefs = new WeakMap()));
  if (byDefs.has(schema)) return byDefs.get(schema);
  const words = typeText(schema, defs);
  byDefs.set(schema, words);
  return words;
}

const typeTexts = new WeakMap<Record<string, SchemaModel>, WeakMap<JsonObject, string | undefined>>();

/** The JSON types a schema declares, in words, or undefined when it declares none (any value). */
export function typeText(schema: JsonValue, defs: Record<string, SchemaModel>, depth = 0): string | undefined {
  const types = typesOf(schema, defs, depth);
  return types && types.length > 0 ? types.join(' or ') : undefined;
}

function typesOf(schema: JsonValue, defs: Record<string, SchemaModel>, depth: number): string[] | undefined {
  if (!isJsonObject(schema) || depth > MAX_DEPTH) return undefined;
  if (typeof schema['$ref'] === 'string') {
    const target = defs[schema['$ref'].replace('#/$defs/', '')];
    return target === undefined ? undefined : typesOf(target, defs, depth + 1);
  }
  const type = schema['type'];
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return ordered(type.filter((item): item is string => typeof item === 'string'));
  const variants = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(variants)) {
    const each = variants.map((variant) => typesOf(variant, defs, depth + 1));
    return each.every((types) => types !== undefined) ? ordered(each.flat() as string[]) : undefined;
  }
  const values = Array.isArray(schema['enum']) ? schema['enum'] : schema['const'] !== undefined ? [schema['const']] : undefined;
  if (values) return ordered(values.map(valueType));
  if (Array.isArray(schema['allOf']))
    for (const part of schema['allOf']) {
      const types = typesOf(part, defs, depth + 1);
      if (types) return types;
    }
  return isJsonObject(schema['properties']) ? ['object'] : undefined;
}

function valueType(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Unique, in their first order, with `null` last: `integer or null`. */
function ordered(types: string[]): string[] {
  const unique = [...new Set(types)];
  return [...unique.filter((type) => type !== 'null'), ...unique.filter((type) => type === 'null')];
}
