import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../load/openapi-document.js';
import type { SchemaModel } from '../model/api-model.js';
import type { ActionDraft, ArgumentDraft } from './build-arguments.js';
import { cleanText } from './sanitize-text.js';
import { compareStrings } from './words.js';

export type NamedAction = { name: string; draft: ActionDraft };

/** Schema detail per level: how long descriptions may be and how deep nested objects stay typed. */
const LEVELS = [
  { argument: 300, nested: 160, maxDepth: Infinity, useDefs: true, defaults: true },
  { argument: 140, nested: 60, maxDepth: Infinity, useDefs: true, defaults: true },
  { argument: 90, nested: 0, maxDepth: 3, useDefs: false, defaults: false },
  { argument: 50, nested: 0, maxDepth: 2, useDefs: false, defaults: false },
  { argument: 0, nested: 0, maxDepth: 1, useDefs: false, defaults: false },
] as const;

export const MAX_DETAIL = LEVELS.length - 1;

/** Larger enums are described instead of listed; listing thousands of values would crowd out everything else. */
const MAX_ENUM = 64;

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
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
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
  'minContains',
  'maxContains',
  'unevaluatedItems',
  'unevaluatedProperties',
  'title',
  'writeOnly',
  'x-mcp-header',
];
const KEYWORD_RANK = new Map(KEYWORD_ORDER.map((keyword, index) => [keyword, index]));

export type MergedArgument = { key: string; drafts: Array<{ action: string; argument: ArgumentDraft }> };

/** Arguments of a tool's actions, merged by key and sorted: required-by-all first, then by key. */
export function mergeArguments(actions: NamedAction[]): MergedArgument[] {
  const byKey = new Map<string, MergedArgument>();
  for (const action of actions) {
    for (const argument of action.draft.arguments) {
      const merged = byKey.get(argument.key) ?? { key: argument.key, drafts: [] };
      merged.drafts.push({ action: action.name, argument });
      byKey.set(argument.key, merged);
    }
  }
  const requiredByAll = (merged: MergedArgument) =>
    merged.drafts.length === actions.length && merged.drafts.every((entry) => entry.argument.required) ? 0 : 1;
  return [...byKey.values()].sort((a, b) => requiredByAll(a) - requiredByAll(b) || compareStrings(a.key, b.key));
}

/**
 * The input schema of a tool: a flat object with an `action` selector (for several actions) and the union of the
 * actions' arguments, each saying which actions use it. No composition keyword at the root; `$ref`s point into the
 * tool's own `$defs` (or are inlined to a bounded depth at the leaner detail levels).
 */
export function buildToolSchema(actions: NamedAction[], defs: Record<string, SchemaModel>, detail: number): JsonObject {
  const level = LEVELS[Math.min(detail, MAX_DETAIL)] ?? LEVELS[0];
  const multi = actions.length > 1;
  const properties: JsonObject = {};
  const required: string[] = [];
  if (multi) {
    properties['action'] = {
      type: 'string',
      enum: actions.map((action) => action.name),
      description: 'The action to perform; the tool description says what each needs.',
    };
    required.push('action');
  }
  const projector = new Projector(defs, level);
  for (const merged of mergeArguments(actions)) {
    const usedBy = merged.drafts.map((entry) => entry.action);
    const requiredBy = merged.drafts.filter((entry) => entry.argument.required).map((entry) => entry.action);
    const schema = projector.project(mergeSchemas(merged.drafts.map((entry) => entry.argument.schema)), 0);
    const base = merged.drafts.map((entry) => entry.argument.description ?? schemaDescription(entry.argument.schema)).find(Boolean);
    const description = joinSentences([cleanText(base, level.argument).text, multi ? usageNote(usedBy, requiredBy, actions.length) : '']);
    const property: JsonObject = typeof schema === 'boolean' ? {} : { ...schema };
    if (description) property['description'] = description;
    else delete property['description'];
    setOwn(properties, merged.key, canonical(property) as JsonValue);
    if (requiredBy.length === actions.length) required.push(merged.key);
  }
  const schema: JsonObject = { type: 'object', properties };
  if (required.length > 0) schema['required'] = required;
  schema['additionalProperties'] = false;
  const usedDefs = projector.collectDefs();
  if (Object.keys(usedDefs).length > 0) schema['$defs'] = usedDefs;
  return schema;
}

function schemaDescription(schema: SchemaModel): string | undefined {
  return typeof schema === 'object' && typeof schema['description'] === 'string' ? schema['description'] : undefined;
}

/** Joins text fragments as sentences, adding the full stop a fragment lacks. */
export function joinSentences(parts: string[]): string {
  return parts
    .filter(Boolean)
    .map((part, index, all) => (index < all.length - 1 && !/[.!?…:]$/.test(part) ? `${part}.` : part))
    .join(' ');
}

function usageNote(usedBy: string[], requiredBy: string[], total: number): string {
  if (usedBy.length === total) return requiredBy.length > 0 && requiredBy.length < total ? `Required for ${requiredBy.join(', ')}.` : '';
  if (requiredBy.length === usedBy.length) return `Required for ${usedBy.join(', ')}.`;
  const optional = usedBy.filter((name) => !requiredBy.includes(name));
  return requiredBy.length > 0
    ? `Required for ${requiredBy.join(', ')}; optional for ${optional.join(', ')}.`
    : `For ${usedBy.join(', ')}.`;
}

/** One schema for an argument several actions share: identical schemas stay as they are, enums are united. */
export function mergeSchemas(schemas: SchemaModel[]): SchemaModel {
  const distinct: SchemaModel[] = [];
  const seen = new Set<string>();
  for (const schema of schemas) {
    const key = JSON.stringify(withoutDescription(schema));
    if (!seen.has(key)) {
      seen.add(key);
      distinct.push(schema);
    }
  }
  if (distinct.length === 1) return distinct[0] as SchemaModel;
  const enums = distinct.every(
    (schema) => typeof schema === 'object' && Array.isArray(schema['enum']) && schema['type'] === (distinct[0] as JsonObject)['type'],
  );
  if (enums) {
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
    return { type: (distinct[0] as JsonObject)['type'] as JsonValue, enum: values };
  }
  return { anyOf: distinct.map(withoutDescription) as JsonValue[] };
}

function withoutDescription(schema: SchemaModel): SchemaModel {
  if (typeof schema === 'boolean' || schema['description'] === undefined) return schema;
  const { description: _description, ...rest } = schema;
  return rest;
}

type Level = (typeof LEVELS)[number];

/** Projects argument schemas to a detail level and gathers the `$defs` they use. */
class Projector {
  private readonly used = new Set<string>();
  private readonly pending: string[] = [];
  private readonly inlining = new Set<string>();

  constructor(
    private readonly defs: Record<string, SchemaModel>,
    private readonly level: Level,
  ) {}

  project(schema: SchemaModel, depth: number): SchemaModel {
    return this.node(schema, depth, true) as SchemaModel;
  }

  collectDefs(): JsonObject {
    const out: Record<string, JsonValue> = {};
    while (this.pending.length > 0) {
      const name = this.pending.shift() as string;
      const target = this.defs[name];
      setOwn(out, name, (target === undefined ? {} : this.node(target, 1, false)) as JsonValue);
    }
    const sorted: JsonObject = {};
    for (const name of Object.keys(out).sort(compareStrings)) setOwn(sorted, name, out[name] as JsonValue);
    return sorted;
  }

  private node(schema: JsonValue, depth: number, top: boolean): JsonValue {
    if (!isJsonObject(schema)) return schema;
    const ref = schema['$ref'];
    if (typeof ref === 'string') return this.reference(schema, ref, depth, top);
    if (depth >= this.level.maxDepth) return this.stub(schema);
    const out: JsonObject = {};
    for (const [keyword, value] of Object.entries(schema)) {
      if (keyword === 'description') {
        const cap = top ? this.level.argument : this.level.nested;
        const text = cap > 0 && typeof value === 'string' ? cleanText(value, cap).text : '';
        if (text) out['description'] = text;
        continue;
      }
      if (keyword === 'title' || (keyword === 'default' && !this.level.defaults)) continue;
      if (keyword === 'enum' && Array.isArray(value) && value.length > MAX_ENUM) {
        const shown = value
          .slice(0, 12)
          .map((item) => JSON.stringify(item))
          .join(', ');
        const note = `One of ${value.length} values, such as ${shown}.`;
        out['description'] = [out['description'], note].filter(Boolean).join(' ');
        continue;
      }
      if (keyword === 'properties' && isJsonObject(value)) {
        const properties: JsonObject = {};
        for (const name of Object.keys(value).sort(compareStrings))
          setOwn(properties, name, this.node(value[name] as JsonValue, depth + 1, false));
        out['properties'] = properties;
      } else if (
        [
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
        ].includes(keyword)
      ) {
        out[keyword] = this.node(value, depth + 1, false);
      } else if (['allOf', 'anyOf', 'oneOf', 'prefixItems'].includes(keyword) && Array.isArray(value)) {
        out[keyword] = value.map((item) => this.node(item, depth + 1, false));
      } else if (['patternProperties', 'dependentSchemas'].includes(keyword) && isJsonObject(value)) {
        const map: JsonObject = {};
        for (const name of Object.keys(value).sort(compareStrings))
          setOwn(map, name, this.node(value[name] as JsonValue, depth + 1, false));
        out[keyword] = map;
      } else if (keyword === 'required' && Array.isArray(value)) {
        out[keyword] = [...value].sort((a, b) => compareStrings(String(a), String(b)));
      } else {
        out[keyword] = value;
      }
    }
    return canonical(out);
  }

  private reference(schema: JsonObject, ref: string, depth: number, top: boolean): JsonValue {
    const name = ref.replace('#/$defs/', '');
    const target = this.defs[name];
    const description = typeof schema['description'] === 'string' ? schema['description'] : undefined;
    if (this.level.useDefs && target !== undefined) {
      if (!this.used.has(name)) {
        this.used.add(name);
        this.pending.push(name);
      }
      const cap = top ? this.level.argument : this.level.nested;
      const text = description && cap > 0 ? cleanText(description, cap).text : '';
      return text ? { $ref: `#/$defs/${name}`, description: text } : { $ref: `#/$defs/${name}` };
    }
    if (target === undefined || this.inlining.has(name) || depth >= this.level.maxDepth) return this.stub(target ?? {});
    this.inlining.add(name);
    const inlined = this.node(description ? { ...(target as JsonObject), description } : target, depth, top);
    this.inlining.delete(name);
    return inlined;
  }

  /** A schema cut at the depth limit: its type only, so the API itself checks the rest. */
  private stub(schema: SchemaModel): JsonValue {
    if (typeof schema === 'boolean') return schema;
    let resolved: SchemaModel = schema;
    for (let hops = 0; hops < 8 && typeof resolved === 'object' && typeof resolved['$ref'] === 'string'; hops++) {
      resolved = this.defs[resolved['$ref'].replace('#/$defs/', '')] ?? {};
    }
    if (typeof resolved === 'boolean') return resolved;
    const type = resolved['type'];
    if (type === 'object' || (type === undefined && (resolved['properties'] !== undefined || resolved['allOf'] !== undefined)))
      return { type: 'object' };
    if (type === 'array') return { type: 'array' };
    if (typeof type === 'string' || Array.isArray(type)) {
      const out: JsonObject = { type };
      if (Array.isArray(resolved['enum']) && resolved['enum'].length <= MAX_ENUM) out['enum'] = resolved['enum'];
      return out;
    }
    return {};
  }
}

/** Orders a schema's keywords canonically; unknown keywords go last in code-unit order. */
export function canonical(schema: JsonObject): JsonObject {
  const keys = Object.keys(schema).sort((a, b) => (KEYWORD_RANK.get(a) ?? 999) - (KEYWORD_RANK.get(b) ?? 999) || compareStrings(a, b));
  const out: JsonObject = {};
  for (const key of keys) setOwn(out, key, schema[key] as JsonValue);
  return out;
}
