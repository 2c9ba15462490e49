import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../../kernel/json.js';
import type { SchemaModel } from '../../model/api-model.js';
import type { ArgumentDraft, NamedAction } from '../drafts.js';
import { ArgumentPhrases } from './argument-phrases.js';
import { mostlyRequired } from './shared-arguments.js';
import { isPagingArgument } from './paging-arguments.js';
import { compareStrings } from '../text/words.js';
import * as jsonSchema from '../../kernel/schema-keywords.js';

/**
 * Schema detail per level: how long descriptions may be, how deep nested objects stay typed, which validation
 * keywords stay. What a model needs to get a value right goes last: the type, an enum, a format or pattern, a short
 * phrase of meaning (`argument` characters at most, and only a phrase that says more than the argument's name) and a
 * body's first level of fields.
 */
const LEVELS = [
  { argument: 300, nested: 160, maxDepth: Infinity, useDefs: true, defaults: true, constraints: 'all', collapse: 'none' },
  { argument: 140, nested: 60, maxDepth: Infinity, useDefs: true, defaults: true, constraints: 'all', collapse: 'none' },
  { argument: 90, nested: 0, maxDepth: 3, useDefs: false, defaults: false, constraints: 'all', collapse: 'none' },
  { argument: 60, nested: 0, maxDepth: 2, useDefs: false, defaults: false, constraints: 'all', collapse: 'none' },
  { argument: 40, nested: 0, maxDepth: 2, useDefs: false, defaults: false, constraints: 'shape', collapse: 'none' },
  { argument: 30, nested: 0, maxDepth: 2, useDefs: false, defaults: false, constraints: 'shape', collapse: 'single' },
  { argument: 0, nested: 0, maxDepth: 1, useDefs: false, defaults: false, constraints: 'shape', collapse: 'single' },
  { argument: 0, nested: 0, maxDepth: 1, useDefs: false, defaults: false, constraints: 'shape', collapse: 'minority' },
] as const;

/** Validation keywords dropped at the lean levels: the server checks them against the full schema anyway. */
const BOUND_KEYWORDS = new Set<string>([
  ...jsonSchema.STRING_LENGTH,
  ...jsonSchema.NUMBER_RANGE,
  ...jsonSchema.EXCLUSIVE_RANGE,
  'multipleOf',
  ...jsonSchema.ARRAY_SIZE,
  ...jsonSchema.PROPERTY_COUNT,
]);

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
export type ToolSchema = {
  schema: JsonObject;
  /**
   * At the leanest detail, optional arguments few actions take are not typed properties: the tool description
   * names them per action (a name costs a few tokens, a typed property ten or more) and the schema stays open
   * (no `additionalProperties: false`) so that they pass.
   */
  untyped: Map<string, string[]>;
  /** Optional arguments the description names per action (at the leanest detail, instead of notes on properties). */
  mentioned: Map<string, string[]>;
};

export function buildToolSchema(
  actions: NamedAction[],
  defs: Record<string, SchemaModel>,
  detail: number,
  /** Arguments that stay typed properties at every level (those marked with x-mcp-header). */
  typed: ReadonlySet<string> = new Set(),
  /** Shared by the builds of one plan, which describe the same arguments again and again. */
  phrases = new ArgumentPhrases(),
): ToolSchema {
  const level = LEVELS[Math.min(detail, MAX_DETAIL)] ?? LEVELS[0];
  const multi = actions.length > 1;
  const properties: JsonObject = {};
  const required: string[] = [];
  if (multi) {
    properties['action'] = {
      type: 'string',
      enum: actions.map((action) => action.name),
      ...(level.argument > 0 ? { description: 'The action to perform; the tool description says what each needs.' } : {}),
    };
    required.push('action');
  }
  const projector = new Projector(defs, level, phrases, projectionsOf(defs, level));
  const untyped = new Map<string, string[]>();
  const { merged: prepared, mentioned } = preparedArguments(actions);
  for (const { merged, schema: given, requiredBy, base, notes } of prepared) {
    if (!typed.has(merged.key) && isCollapsible(merged, level.collapse, actions.length)) {
      for (const entry of merged.drafts) append(untyped, entry.action, merged.key);
      continue;
    }
    const schema = projector.project(given);
    const meaning = level.argument >= 140 ? phrases.full(base, level.argument) : phrases.phrase(base, merged.key, level.argument);
    const description = joinSentences([meaning, ...notes]);
    const property: JsonObject = typeof schema === 'boolean' ? {} : { ...schema };
    if (description) property['description'] = description;
    else delete property['description'];
    setOwn(properties, merged.key, canonical(property) as JsonValue);
    if (requiredBy.length === actions.length) required.push(merged.key);
  }
  const schema: JsonObject = { type: 'object', properties };
  if (required.length > 0) schema['required'] = required;
  if (untyped.size === 0) schema['additionalProperties'] = false;
  const usedDefs = projector.collectDefs();
  if (Object.keys(usedDefs).length > 0) schema['$defs'] = usedDefs;
  return { schema, untyped, mentioned };
}

function append(lists: Map<string, string[]>, action: string, key: string): void {
  const list = lists.get(action);
  if (list) list.push(key);
  else lists.set(action, [key]);
}

/** A merged argument with what its property says at every level: the merged schema, its base description and notes. */
type PreparedArgument = { merged: MergedArgument; schema: SchemaModel; requiredBy: string[]; base: string | undefined; notes: string[] };

/** The tool's arguments as every level starts from them, and the optional ones each action's line names. */
type PreparedArguments = { merged: PreparedArgument[]; mentioned: Map<string, string[]> };

/**
 * A tool is built at several detail levels from the same actions (the fitting copies the draft, not its actions):
 * merging the arguments, their schemas and their notes is done once per list of actions. Pure in the actions, which
 * are never changed; what is kept here is only read.
 */
const preparedByActions = new WeakMap<readonly NamedAction[], PreparedArguments>();

function preparedArguments(actions: NamedAction[]): PreparedArguments {
  let prepared = preparedByActions.get(actions);
  if (prepared) return prepared;
  const multi = actions.length > 1;
  const mentioned = new Map<string, string[]>();
  const shared = mostlyRequired(
    actions.map((action) => action.draft.arguments.filter((argument) => argument.required).map((argument) => argument.key)),
  );
  const merged = mergeArguments(actions).map((merged): PreparedArgument => {
    const requiredBy = merged.drafts.filter((entry) => entry.argument.required).map((entry) => entry.action);
    // Every action's line in the tool description names the optional arguments it takes (paging ones are named
    // once, for the whole tool): the properties say what an argument means, the lines which actions take it.
    for (const entry of merged.drafts)
      if (!entry.argument.required && !isPagingArgument(merged.key)) append(mentioned, entry.action, merged.key);
    return {
      merged,
      schema: mergeSchemas(merged.drafts.map((entry) => entry.argument.schema)),
      requiredBy,
      base: merged.drafts.map((entry) => entry.argument.description ?? schemaDescription(entry.argument.schema)).find(Boolean),
      notes: [renamedNote(merged), multi ? requiredNote(merged.key, requiredBy, actions, shared) : ''],
    };
  });
  prepared = { merged, mentioned };
  preparedByActions.set(actions, prepared);
  return prepared;
}

/**
 * An argument whose key is not the API's name for it (`body_name` for a body field `name` beside a path parameter
 * `name`) says where it goes, so that a model knows which of the two it is.
 */
function renamedNote(merged: MergedArgument): string {
  const route = merged.drafts[0]?.argument.route;
  if (!route || route.in === 'body-whole' || route.name === merged.key) return '';
  const place = route.in === 'body' ? 'the request body' : `the ${route.in}`;
  return `Sent as ${route.name} in ${place}.`;
}

/**
 * Whether an argument is only named (in the tool description) instead of typed: never when any action requires it; at 'single'
 * when one action takes it; at 'minority' when fewer than half of the actions do.
 */
function isCollapsible(merged: MergedArgument, collapse: 'none' | 'single' | 'minority', actionCount: number): boolean {
  if (collapse === 'none' || merged.drafts.some((entry) => entry.argument.required)) return false;
  return collapse === 'single' ? merged.drafts.length === 1 : merged.drafts.length * 2 < actionCount || merged.drafts.length === 1;
}

/** Folds numbered families: `Parameter1.Name` … `Parameter99.Name` → `Parameter{1-99}.Name`. */
export function compressNames(keys: string[]): string[] {
  const families = new Map<string, number[]>();
  const singles: string[] = [];
  for (const key of keys) {
    const match = /^(.*?[A-Za-z_.-])(\d+)([^\d]*)$/.exec(key);
    if (!match) {
      singles.push(key);
      continue;
    }
    const family = `${match[1]}\u0000${match[3]}`;
    families.set(family, [...(families.get(family) ?? []), Number(match[2])]);
  }
  const out = [...singles];
  for (const [family, numbers] of families) {
    const [head, tail] = family.split('\u0000') as [string, string];
    if (numbers.length < 3) for (const number of numbers) out.push(`${head}${number}${tail}`);
    else out.push(`${head}{${Math.min(...numbers)}-${Math.max(...numbers)}}${tail}`);
  }
  return out.sort(compareStrings);
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

/**
 * Arguments most actions require are stated once, on the property: "Required except for …". The others' needs are in
 * each action's line of the tool description.
 */
function requiredNote(key: string, requiredBy: string[], actions: NamedAction[], shared: Set<string>): string {
  if (!shared.has(key)) return '';
  const exceptions = actions.map((action) => action.name).filter((name) => !requiredBy.includes(name));
  return exceptions.length > 0 ? `Required except for ${exceptions.join(', ')}.` : '';
}

/** One schema for an argument several actions share: identical schemas stay as they are, enums are united. */
export function mergeSchemas(schemas: SchemaModel[]): SchemaModel {
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

type Level = (typeof LEVELS)[number];

/** A schema projected to a level, and the `$defs` it refers to (at the levels that keep references). */
type Projection = { value: JsonValue; refs: readonly string[] };

/** Projections of one plan's schemas at one level: of argument schemas (by object) and of named schemas (by name). */
type LevelProjections = { arguments: WeakMap<JsonObject, Projection>; defs: Map<string, Projection> };

/**
 * A projection is a pure function of the schema, the level and the plan's `defs`, and the builds of a plan project
 * the same argument schemas again and again (every tool at several levels, the same operations in every round of
 * the budget search): each is projected once per level. Keyed by the `defs` object, which a plan builds once and
 * never changes (as the model's schemas, which the projections share, are never changed); the results are shared by
 * every tool built from them and never changed either.
 */
const projections = new WeakMap<Record<string, SchemaModel>, Map<Level, LevelProjections>>();

function projectionsOf(defs: Record<string, SchemaModel>, level: Level): LevelProjections {
  let byLevel = projections.get(defs);
  if (!byLevel) {
    byLevel = new Map();
    projections.set(defs, byLevel);
  }
  let memo = byLevel.get(level);
  if (!memo) {
    memo = { arguments: new WeakMap(), defs: new Map() };
    byLevel.set(level, memo);
  }
  return memo;
}

/** Projects argument schemas to a detail level and gathers the `$defs` they use. */
class Projector {
  private readonly used = new Set<string>();
  private readonly pending: string[] = [];
  private readonly inlining = new Set<string>();
  /** The `$defs` the projection under way refers to (each once). */
  private refs: string[] = [];

  constructor(
    private readonly defs: Record<string, SchemaModel>,
    private readonly level: Level,
    private readonly phrases: ArgumentPhrases,
    private readonly memo: LevelProjections,
  ) {}

  /** An argument's schema at the level (a top-level property of the tool's input schema). */
  project(schema: SchemaModel): SchemaModel {
    if (!isJsonObject(schema)) return schema;
    let projection = this.memo.arguments.get(schema);
    if (!projection) {
      projection = this.projected(() => this.node(schema, 0, true));
      this.memo.arguments.set(schema, projection);
    }
    this.use(projection.refs);
    return projection.value as SchemaModel;
  }

  collectDefs(): JsonObject {
    const out: Record<string, JsonValue> = {};
    while (this.pending.length > 0) {
      const name = this.pending.shift() as string;
      let projection = this.memo.defs.get(name);
      if (!projection) {
        const target = this.defs[name];
        projection = target === undefined ? { value: {}, refs: [] } : this.projected(() => this.node(target, 1, false));
        this.memo.defs.set(name, projection);
      }
      this.use(projection.refs);
      setOwn(out, name, projection.value);
    }
    const sorted: JsonObject = {};
    for (const name of Object.keys(out).sort(compareStrings)) setOwn(sorted, name, out[name] as JsonValue);
    return sorted;
  }

  /** Runs a projection, noting the `$defs` it refers to. */
  private projected(project: () => JsonValue): Projection {
    this.refs = [];
    const value = project();
    const projection = { value, refs: this.refs };
    this.refs = [];
    return projection;
  }

  /** Queues the `$defs` a projection refers to, each once per tool. */
  private use(refs: readonly string[]): void {
    for (const name of refs) {
      if (this.used.has(name)) continue;
      this.used.add(name);
      this.pending.push(name);
    }
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
        const text = cap > 0 && typeof value === 'string' ? this.phrases.full(value, cap) : '';
        if (text) out['description'] = text;
        continue;
      }
      if (keyword === 'title' || (keyword === 'default' && !this.level.defaults)) continue;
      // Levels that cut schemas at a depth would cut these too, and a cut subschema accepts more: under `not` that
      // rejects more (a stub `{}` there rejects everything), under `if` it turns `then` on for every value.
      // Dropping them only loosens the schema; the API still checks.
      if (Number.isFinite(this.level.maxDepth) && ['not', 'if', 'then', 'else'].includes(keyword)) continue;
      // `format` and `pattern` stay at every level: they say what a value looks like, for a few tokens.
      if (this.level.constraints === 'shape' && BOUND_KEYWORDS.has(keyword)) continue;
      // A closed nested object rejects any field the model adds; the lean levels leave that check to the server.
      if (keyword === 'additionalProperties' && value === false && !top && this.level.constraints === 'shape') continue;
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
      } else if ((jsonSchema.SUBSCHEMA as readonly string[]).includes(keyword)) {
        out[keyword] = this.node(value, depth + 1, false);
      } else if (['allOf', 'anyOf', 'oneOf'].includes(keyword) && Array.isArray(value)) {
        const variants = dedupe(value.map((item) => this.node(item, depth + 1, false)));
        if (variants.length === 1 && isJsonObject(variants[0]) && keyword !== 'allOf') Object.assign(out, variants[0]);
        else out[keyword] = variants;
      } else if (keyword === 'prefixItems' && Array.isArray(value)) {
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
      if (!this.refs.includes(name)) this.refs.push(name);
      const cap = top ? this.level.argument : this.level.nested;
      const text = description && cap > 0 ? this.phrases.full(description, cap) : '';
      return text ? { $ref: `#/$defs/${name}`, description: text } : { $ref: `#/$defs/${name}` };
    }
    if (target === undefined || this.inlining.has(name) || depth >= this.level.maxDepth) return this.stub(target ?? {});
    this.inlining.add(name);
    const inlined = this.node(description ? { ...(target as JsonObject), description } : target, depth, top);
    this.inlining.delete(name);
    return inlined;
  }

  /** The type an `allOf` gives (an `allOf` of integer constraints is no object): the first part that names one. */
  private allOfType(schema: JsonObject, hops = 0): JsonValue | undefined {
    if (!Array.isArray(schema['allOf']) || hops > 8) return undefined;
    for (const part of schema['allOf']) {
      let resolved: JsonValue = part;
      for (let depth = 0; depth < 8 && isJsonObject(resolved) && typeof resolved['$ref'] === 'string'; depth++)
        resolved = (this.defs[resolved['$ref'].replace('#/$defs/', '')] ?? {}) as JsonValue;
      if (!isJsonObject(resolved)) continue;
      if (resolved['type'] !== undefined) return resolved['type'];
      if (resolved['properties'] !== undefined) return 'object';
      const inner = this.allOfType(resolved, hops + 1);
      if (inner !== undefined) return inner;
    }
    return undefined;
  }

  /** A schema cut at the depth limit: its type only, so the API itself checks the rest. */
  private stub(schema: SchemaModel): JsonValue {
    if (typeof schema === 'boolean') return schema;
    let resolved: SchemaModel = schema;
    for (let hops = 0; hops < 8 && typeof resolved === 'object' && typeof resolved['$ref'] === 'string'; hops++) {
      resolved = this.defs[resolved['$ref'].replace('#/$defs/', '')] ?? {};
    }
    if (typeof resolved === 'boolean') return resolved;
    const type = resolved['type'] ?? this.allOfType(resolved);
    if (type === 'object' || (type === undefined && resolved['properties'] !== undefined)) return { type: 'object' };
    if (type === 'array') return { type: 'array' };
    if (typeof type === 'string' || Array.isArray(type)) {
      const out: JsonObject = { type };
      if (Array.isArray(resolved['enum']) && resolved['enum'].length <= MAX_ENUM) out['enum'] = resolved['enum'];
      return out;
    }
    return {};
  }
}

function dedupe(values: JsonValue[]): JsonValue[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Orders a schema's keywords canonically; unknown keywords go last in code-unit order. */
export function canonical(schema: JsonObject): JsonObject {
  const keys = Object.keys(schema).sort((a, b) => (KEYWORD_RANK.get(a) ?? 999) - (KEYWORD_RANK.get(b) ?? 999) || compareStrings(a, b));
  const out: JsonObject = {};
  for (const key of keys) setOwn(out, key, schema[key] as JsonValue);
  return out;
}
