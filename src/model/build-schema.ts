import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { childPointer, parsePointer, resolvePointer } from '../diagnostics/json-pointer.js';
import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../kernel/json.js';
import * as jsonSchema from '../kernel/schema-keywords.js';
import type { SchemaModel } from './api-model.js';

/** Keywords kept from OpenAPI schemas: JSON Schema 2020-12 validation and annotation vocabulary. */
const SUBSCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SUBSCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas'] as const;
const PLAIN_KEYWORDS = [
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  ...jsonSchema.STRING_LENGTH,
  ...jsonSchema.NUMBER_RANGE,
  'multipleOf',
  ...jsonSchema.ARRAY_SIZE,
  ...jsonSchema.CONTAINS_COUNT,
  'required',
  ...jsonSchema.PROPERTY_COUNT,
  'dependentRequired',
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'contentMediaType',
  'contentEncoding',
  ...jsonSchema.EXCLUSIVE_RANGE,
] as const;
const PLAIN_KEYWORD_SET = new Set<string>(PLAIN_KEYWORDS);
const SUBSCHEMA_SET = new Set<string>(jsonSchema.SUBSCHEMA);
const SUBSCHEMA_LIST_SET = new Set<string>(SUBSCHEMA_LIST_KEYWORDS);
const SUBSCHEMA_MAP_SET = new Set<string>(SUBSCHEMA_MAP_KEYWORDS);
/** Every keyword a schema object is read for, in the order it is read: plain ones, single subschemas, lists, maps. */
const READ_ORDER = new Map<string, number>(
  [...PLAIN_KEYWORDS, ...jsonSchema.SUBSCHEMA, ...SUBSCHEMA_LIST_KEYWORDS, ...SUBSCHEMA_MAP_KEYWORDS].map((keyword, index) => [
    keyword,
    index,
  ]),
);

/**
 * The keywords of READ_ORDER a schema object has, in that order. A schema has a few keys and the lists hold sixty:
 * looking each up in every one of GitHub's schema objects (whose shapes vary too much for V8 to cache) was most of
 * the conversion.
 */
function keywordsRead(node: JsonObject): string[] {
  const read: string[] = [];
  // Each key put in its place as it comes: a few keys, and sort's buffers were a tenth of the model's allocation.
  for (const key of Object.keys(node)) {
    const rank = READ_ORDER.get(key);
    if (rank === undefined) continue;
    let at = read.length;
    read.push(key);
    for (; at > 0 && (READ_ORDER.get(read[at - 1] as string) as number) > rank; at--) read[at] = read[at - 1] as string;
    read[at] = key;
  }
  return read;
}

const isText = (value: JsonValue) => typeof value === 'string';
const isNumber = (value: JsonValue) => typeof value === 'number' && Number.isFinite(value);
const isCount = (value: JsonValue) => isNumber(value) && (value as number) >= 0;
const isFlag = (value: JsonValue) => typeof value === 'boolean';

/** The value each plain keyword must have (JSON Schema 2020-12 validation vocabulary). */
const KEYWORD_SHAPES: ReadonlyArray<readonly [string, (value: JsonValue) => boolean]> = [
  ['format', isText],
  ['title', isText],
  ['description', isText],
  ['contentMediaType', isText],
  ['contentEncoding', isText],
  ['minimum', isNumber],
  ['maximum', isNumber],
  ['exclusiveMinimum', isNumber],
  ['exclusiveMaximum', isNumber],
  ['multipleOf', (value) => isNumber(value) && (value as number) > 0],
  ['minLength', isCount],
  ['maxLength', isCount],
  ['minItems', isCount],
  ['maxItems', isCount],
  ['minContains', isCount],
  ['maxContains', isCount],
  ['minProperties', isCount],
  ['maxProperties', isCount],
  ['uniqueItems', isFlag],
  ['deprecated', isFlag],
  ['readOnly', isFlag],
  ['writeOnly', isFlag],
  ['enum', (value) => Array.isArray(value) && value.length > 0],
  [
    'dependentRequired',
    (value) =>
      isJsonObject(value) && Object.values(value).every((names) => Array.isArray(names) && names.every((name) => typeof name === 'string')),
  ],
];

/** Where each keyword of KEYWORD_SHAPES is, so that a schema's few keys are checked in that order. */
const SHAPE_ORDER = new Map(KEYWORD_SHAPES.map(([keyword], index) => [keyword, index]));

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** OAS 3.0 and Swagger 2.0's boolean exclusive bounds, each with the bound it qualifies. */
const EXCLUSIVE_BOUNDS = [
  ['exclusiveMinimum', 'minimum'],
  ['exclusiveMaximum', 'maximum'],
] as const;

/** Deeper inline nesting than this is cut; real descriptions stay far below it. */
const MAX_DEPTH = 64;
/**
 * Lists of schemas (allOf, anyOf, oneOf, prefixItems) nested in lists: the validator of the generated server walks a
 * referenced schema once per list level twice over (Ajv's `hasRef`), so 30 levels take hours to compile and the server
 * never starts. Real descriptions nest a handful.
 */
const MAX_LIST_DEPTH = 12;
/** Enum values, consts and defaults nested deeper than this are dropped: they are data, and the same walk covers them. */
const MAX_DATA_DEPTH = 8;
/**
 * Enum values, consts and defaults longer than this (as JSON) are dropped: a model gains nothing from a megabyte enum
 * value, and counting its tokens takes the tokenizer hours.
 */
const MAX_DATA_CHARS = 4_096;
/**
 * Examples kept per schema: scalars only, a few, short. The generated server quotes one in an error as a valid value
 * (an ID that matches its pattern); a model needs no more, and large example documents only weigh on the plan.
 */
const MAX_EXAMPLES = 3;
const MAX_EXAMPLE_CHARS = 200;
/** Number of schema nodes converted for one description before the rest is cut. */
const MAX_NODES = 2_000_000;

export type SchemaDialect = '2.0' | '3.0' | '3.1';

export type ConverterMark = { reached: number; nodes: number };
/** A named schema reached: its `$defs` name and where it is in the description. */
export type ReachedSchema = { name: string; pointer: string };
/** What a converter did after a mark (SchemaConverter.since), to be replayed by another (SchemaConverter.replay). */
export type ConvertedSince = {
  reached: Array<ReachedSchema & { model: SchemaModel }>;
  nodes: number;
  /** Whether the node limit had been reported by then. */
  limited: boolean;
};

/**
 * Converts OpenAPI schema objects (Swagger 2.0, OAS 3.0, OAS 3.1) into JSON Schema 2020-12. References become
 * `#/$defs/<name>`; every referenced schema is converted once and kept in `defs` under a unique, readable name.
 * @see https://spec.openapis.org/oas/v3.1.0#schema-object
 */
export class SchemaConverter {
  readonly defs: Record<string, SchemaModel> = {};
  /**
   * Each named schema in the order it was first reached: the order of `defs`, and all that the converter's state holds
   * besides the node count (see `replay`).
   */
  readonly reached: ReachedSchema[] = [];
  private readonly nameByPointer = new Map<string, string>();
  private readonly usedNames = new Set<string>();
  private readonly pending: Array<{ name: string; pointer: string }> = [];
  private readonly queued = new Set<string>();
  private nodes = 0;
  private limitReported = false;

  constructor(
    private readonly root: JsonObject,
    private readonly dialect: SchemaDialect,
    private readonly diagnostics: Diagnostics,
  ) {
    // Names of component schemas are fixed up front, in sorted order, so they never depend on which operation
    // happens to reach a schema first or on the order of keys in the description.
    const container =
      dialect === '2.0' ? root['definitions'] : isJsonObject(root['components']) ? root['components']['schemas'] : undefined;
    if (isJsonObject(container)) {
      const prefix = dialect === '2.0' ? '#/definitions/' : '#/components/schemas/';
      for (const key of Object.keys(container).sort()) {
        const pointer = prefix + key.replace(/~/g, '~0').replace(/\//g, '~1');
        this.nameByPointer.set(pointer, this.uniqueName(defNameFor(pointer)));
      }
    }
  }

  /** Converts a schema found at `pointer`, then every named schema it reaches. */
  convert(schema: JsonValue | undefined, pointer: string): SchemaModel {
    const converted = this.convertNode(schema, pointer, 0);
    this.drainPending();
    return converted;
  }

  /** The `$defs` name given to the schema at `pointer` (converting it if needed). */
  refName(targetPointer: string, referrer: string): string | undefined {
    const known = this.nameByPointer.get(targetPointer);
    if (known && this.queued.has(known)) return known;
    if (!this.followRefChain(targetPointer, referrer)) return undefined;
    const name = known ?? this.uniqueName(defNameFor(targetPointer));
    this.nameByPointer.set(targetPointer, name);
    this.queued.add(name);
    this.reached.push({ name, pointer: targetPointer });
    this.pending.push({ name, pointer: targetPointer });
    return name;
  }

  /** Where the converter stands: a later `since` tells what was converted after. */
  mark(): ConverterMark {
    return { reached: this.reached.length, nodes: this.nodes };
  }

  /** The named schemas first reached since `mark`, as converted, and the schema nodes counted since. */
  since(mark: ConverterMark): ConvertedSince {
    const reached = this.reached.slice(mark.reached).map(({ name, pointer }) => ({ name, pointer, model: this.defs[name] as SchemaModel }));
    return { reached, nodes: this.nodes - mark.nodes, limited: this.limitReported };
  }

  /**
   * Takes what an earlier converter of the same document did from the same state (the same `reached` so far), as
   * `since` gave it, instead of converting again: the same schemas reached, named and kept, the same nodes counted.
   * False, changing nothing, where the node limit was or would be reached: that warning depends on everything before.
   */
  replay(converted: ConvertedSince): boolean {
    if (converted.limited || this.limitReported || this.nodes + converted.nodes > MAX_NODES) return false;
    for (const { name, pointer, model } of converted.reached) {
      this.nameByPointer.set(pointer, name);
      this.usedNames.add(name.toLowerCase());
      this.queued.add(name);
      this.reached.push({ name, pointer });
      setOwn(this.defs, name, model);
    }
    this.nodes += converted.nodes;
    return true;
  }

  private drainPending(): void {
    while (this.pending.length > 0) {
      const next = this.pending.shift();
      if (!next) break;
      const target = resolvePointer(this.root, next.pointer) as JsonValue | undefined;
      setOwn(this.defs, next.name, this.convertNode(target, next.pointer, 0));
    }
  }

  /** Checks that a `$ref` target exists and that a chain of bare `$ref`s ends at a schema. */
  private followRefChain(targetPointer: string, referrer: string): boolean {
    const seen = new Set<string>();
    let current = targetPointer;
    for (;;) {
      if (seen.has(current)) {
        this.diagnostics.error('OTM_REF_LOOP', `The $ref chain from ${referrer} loops through ${current} without reaching a schema.`, {
          pointer: referrer,
          hint: 'Point one of the references at a real schema.',
        });
        return false;
      }
      seen.add(current);
      const target = resolvePointer(this.root, current);
      if (target === undefined) {
        this.diagnostics.error('OTM_REF_UNRESOLVED', `The $ref ${current} points at nothing.`, {
          pointer: referrer,
          hint: 'Add the missing schema or correct the reference.',
        });
        return false;
      }
      // A `$ref` next to other keywords is still a link of the chain: `{$ref: itself, description: …}` is a schema that
      // only refers to itself, and the generated server's validator recurses on it until the stack overflows.
      if (isJsonObject(target) && typeof target['$ref'] === 'string' && target['$ref'].startsWith('#')) {
        current = target['$ref'];
        continue;
      }
      return true;
    }
  }

  private uniqueName(base: string): string {
    let name = base;
    for (let index = 2; this.usedNames.has(name.toLowerCase()); index++) name = `${base}_${index}`;
    this.usedNames.add(name.toLowerCase());
    return name;
  }

  private convertNode(node: JsonValue | undefined, pointer: string, depth: number, lists = 0): SchemaModel {
    if (node === undefined || node === null) return {};
    if (typeof node === 'boolean') return node;
    if (!isJsonObject(node)) {
      this.diagnostics.warn('OTM_INVALID_OBJECT', 'A schema is not an object; it was treated as "any value".', { pointer });
      return {};
    }
    if (++this.nodes > MAX_NODES || depth > MAX_DEPTH || lists > MAX_LIST_DEPTH) {
      this.reportLimit(
        pointer,
        depth > MAX_DEPTH
          ? 'nests deeper than 64 levels'
          : lists > MAX_LIST_DEPTH
            ? `nests allOf, anyOf or oneOf lists deeper than ${MAX_LIST_DEPTH} levels`
            : 'has more than 2,000,000 schema nodes',
      );
      return {};
    }
    const ref = node['$ref'];
    if (typeof ref === 'string') return this.convertRef(node, ref, pointer, depth, lists);
    return this.convertObject(node, pointer, depth, lists);
  }

  private convertRef(node: JsonObject, ref: string, pointer: string, depth: number, lists: number): SchemaModel {
    if (!ref.startsWith('#')) {
      this.diagnostics.error('OTM_REF_UNRESOLVED', `The $ref ${ref} points outside the bundled description.`, { pointer });
      return {};
    }
    const name = this.refName(ref, pointer);
    if (!name) return {};
    const out: JsonObject = { $ref: `#/$defs/${name}` };
    // OAS 3.0 ignores $ref siblings, but their descriptions still help a model; 3.1 keeps siblings as 2020-12 does.
    if (typeof node['description'] === 'string') out['description'] = node['description'];
    if (this.dialect === '3.1') {
      const siblings = this.convertObject({ ...node, $ref: null, description: null }, pointer, depth, lists);
      if (isJsonObject(siblings)) for (const [key, value] of Object.entries(siblings)) out[key] = value;
    }
    if (this.dialect !== '3.1' && (node['nullable'] === true || node['x-nullable'] === true)) return { anyOf: [out, { type: 'null' }] };
    return out;
  }

  private convertObject(node: JsonObject, pointer: string, depth: number, lists: number): JsonObject {
    const read = keywordsRead(node);
    const out: JsonObject = {};
    for (const keyword of read) {
      if (!PLAIN_KEYWORD_SET.has(keyword)) continue;
      const value = node[keyword];
      if (value !== undefined && value !== null) out[keyword] = value;
    }
    const examples = scalarExamples(node);
    if (examples.length > 0) out['examples'] = examples;
    this.fixType(node, out, pointer);
    this.fixExclusiveBounds(node, out);
    this.fixPattern(out, pointer);
    this.dropDeepData(out, pointer);
    this.dropMalformed(out, pointer);
    this.alignEnumWithType(out, pointer);
    if (out['required'] !== undefined) {
      const required = Array.isArray(out['required']) ? out['required'].filter((item): item is string => typeof item === 'string') : [];
      if (required.length > 0) out['required'] = [...new Set(required)];
      else delete out['required'];
    }
    // Subschemas in READ_ORDER: single ones, then lists, then maps (the order decides names of inline `$defs`).
    for (const keyword of read) {
      const value = node[keyword];
      if (SUBSCHEMA_SET.has(keyword)) {
        if (value === undefined || value === null) continue;
        if (keyword === 'items' && Array.isArray(value)) {
          out['prefixItems'] = value.map((item, index) =>
            this.convertNode(item, childPointer(pointer, 'items', index), depth + 1, lists + 1),
          );
          continue;
        }
        out[keyword] = this.convertNode(value, childPointer(pointer, keyword), depth + 1, lists);
      } else if (SUBSCHEMA_LIST_SET.has(keyword)) {
        if (!Array.isArray(value)) continue;
        const list = value.map((item, index) => this.convertNode(item, childPointer(pointer, keyword, index), depth + 1, lists + 1));
        if (list.length > 0) out[keyword] = list;
      } else if (SUBSCHEMA_MAP_SET.has(keyword)) {
        if (!isJsonObject(value)) continue;
        const map: JsonObject = {};
        for (const [key, child] of Object.entries(value))
          setOwn(map, key, this.convertNode(child, childPointer(pointer, keyword, key), depth + 1, lists));
        out[keyword] = map;
      }
    }
    if (node['dependencies'] !== undefined) this.convertDependencies(node['dependencies'], out, pointer, depth, lists);
    this.moveArrayEnum(out, pointer);
    this.applyNullable(node, out);
    return out;
  }

  /**
   * Draft 4's `dependencies` (the keyword of Swagger 2.0's JSON Schema, which descriptions of every version still
   * write): a list of names is 2020-12's `dependentRequired`, a schema its `dependentSchemas`. Where the schema also
   * has the 2020-12 keyword for a property, that one wins.
   */
  private convertDependencies(value: JsonValue, out: JsonObject, pointer: string, depth: number, lists: number): void {
    if (!isJsonObject(value)) return;
    const required: JsonObject = isJsonObject(out['dependentRequired']) ? { ...out['dependentRequired'] } : {};
    const schemas: JsonObject = isJsonObject(out['dependentSchemas']) ? { ...out['dependentSchemas'] } : {};
    for (const [name, dependency] of Object.entries(value)) {
      if (Object.hasOwn(required, name) || Object.hasOwn(schemas, name)) continue;
      if (Array.isArray(dependency) && dependency.every(isText)) setOwn(required, name, [...new Set(dependency)]);
      else if (isJsonObject(dependency) || typeof dependency === 'boolean')
        setOwn(schemas, name, this.convertNode(dependency, childPointer(pointer, 'dependencies', name), depth + 1, lists));
    }
    if (Object.keys(required).length > 0) out['dependentRequired'] = required;
    if (Object.keys(schemas).length > 0) out['dependentSchemas'] = schemas;
  }

  private fixType(node: JsonObject, out: JsonObject, pointer: string): void {
    const type = node['type'];
    if (type === undefined) return;
    // Swagger 2.0's `type: file`, and `format: file` that converters leave on it (Azure: `type: object, format: file`).
    if (type === 'file' || node['format'] === 'file') {
      out['type'] = 'string';
      out['format'] = 'binary';
      return;
    }
    const types = (Array.isArray(type) ? type : [type]).filter((item): item is string => typeof item === 'string' && JSON_TYPES.has(item));
    if (types.length === 0) {
      this.diagnostics.warn('OTM_INVALID_OBJECT', `Unknown schema type ${JSON.stringify(type)}; any value is accepted.`, {
        pointer: childPointer(pointer, 'type'),
      });
      delete out['type'];
      return;
    }
    out['type'] = types.length === 1 && !Array.isArray(type) ? (types[0] as string) : [...new Set(types)];
  }

  private fixExclusiveBounds(node: JsonObject, out: JsonObject): void {
    if (this.dialect === '3.1') return;
    for (const [exclusive, bound] of EXCLUSIVE_BOUNDS) {
      const flag = node[exclusive];
      if (typeof flag !== 'boolean') continue;
      delete out[exclusive];
      if (flag && typeof node[bound] === 'number') {
        out[exclusive] = node[bound];
        delete out[bound];
      }
    }
  }

  /** Ajv compiles patterns with the `u` flag; one it cannot compile would stop the generated server at start. */
  private fixPattern(out: JsonObject, pointer: string): void {
    const pattern = out['pattern'];
    if (pattern === undefined) return;
    try {
      if (typeof pattern !== 'string') throw new Error('not a string');
      new RegExp(pattern, 'u');
    } catch {
      delete out['pattern'];
      this.diagnostics.add({
        severity: 'info',
        code: 'OTM_INVALID_OBJECT',
        message: `Dropped a pattern that is not a valid ECMAScript regular expression: ${JSON.stringify(pattern).slice(0, 80)}.`,
        pointer: childPointer(pointer, 'pattern'),
      });
    }
  }

  /** Enum values, a const or a default larger or deeper than any real one: dropped (see MAX_DATA_DEPTH, MAX_DATA_CHARS). */
  private dropDeepData(out: JsonObject, pointer: string): void {
    if (out['default'] === undefined && out['const'] === undefined && out['enum'] === undefined) return;
    const report = (keyword: string) =>
      this.diagnostics.warn(
        'OTM_SCHEMA_LIMIT',
        `A ${keyword} value nests deeper than ${MAX_DATA_DEPTH} levels or is longer than ${MAX_DATA_CHARS} characters; it was dropped.`,
        { pointer: childPointer(pointer, keyword) },
      );
    const fits = (value: JsonValue) =>
      isShortScalar(value) || (withinDepth(value, MAX_DATA_DEPTH) && JSON.stringify(value).length <= MAX_DATA_CHARS);
    for (const keyword of ['default', 'const']) {
      if (out[keyword] === undefined || fits(out[keyword] as JsonValue)) continue;
      delete out[keyword];
      report(keyword);
    }
    const values = out['enum'];
    if (!Array.isArray(values)) return;
    const kept = values.filter(fits);
    if (kept.length === values.length) return;
    out['enum'] = kept;
    report('enum');
  }

  /**
   * Keyword values of the wrong type (`format: {}`, `minimum: "0"`, `enum: []`) are dropped: the generated server's
   * validator refuses to compile such a schema, so the server would not even start.
   */
  private dropMalformed(out: JsonObject, pointer: string): void {
    const checked = Object.keys(out).filter((keyword) => SHAPE_ORDER.has(keyword));
    if (checked.length > 1) checked.sort((a, b) => (SHAPE_ORDER.get(a) as number) - (SHAPE_ORDER.get(b) as number));
    for (const keyword of checked) {
      const [, valid] = KEYWORD_SHAPES[SHAPE_ORDER.get(keyword) as number] as (typeof KEYWORD_SHAPES)[number];
      const value = out[keyword];
      if (value === undefined || valid(value)) continue;
      delete out[keyword];
      this.diagnostics.warn(
        'OTM_INVALID_OBJECT',
        `Schema keyword ${keyword} has a value of the wrong type (${JSON.stringify(value).slice(0, 60)}); it was ignored.`,
        {
          pointer: childPointer(pointer, keyword),
        },
      );
    }
  }

  /**
   * Enum values of another scalar type than the schema's own (`type: string` with `enum: [20160128, …]`, FireBrowse)
   * would make every value invalid: none is both a string and in the list. They travel as text in a path or query
   * anyway, so they are converted to the declared type where that keeps their meaning, and dropped where it cannot.
   */
  private alignEnumWithType(out: JsonObject, pointer: string): void {
    const values = out['enum'];
    if (!Array.isArray(values)) return;
    const type = Array.isArray(out['type']) ? out['type'].filter((item) => item !== 'null') : [out['type']];
    if (type.length !== 1 || !['string', 'integer', 'number', 'boolean'].includes(String(type[0]))) return;
    const declared = String(type[0]);
    // Values that all fit already (nearly always; Microsoft Graph's lists of field names run to hundreds) stay as
    // they are, without the copy below.
    if (allOfScalarType(values, declared)) return;
    const converted = values.flatMap((value): JsonValue[] => {
      if (value === null || matchesScalarType(value, declared)) return [value];
      if (declared === 'string' && (typeof value === 'number' || typeof value === 'boolean')) return [String(value)];
      if ((declared === 'integer' || declared === 'number') && typeof value === 'string' && value.trim() !== '') {
        const number = Number(value);
        return matchesScalarType(number, declared) ? [number] : [];
      }
      if (declared === 'boolean' && (value === 'true' || value === 'false')) return [value === 'true'];
      return [];
    });
    if (converted.length === values.length && converted.every((value, index) => value === values[index])) return;
    const unique = [...new Map(converted.map((value) => [JSON.stringify(value), value])).values()];
    if (unique.length > 0) out['enum'] = unique;
    else delete out['enum'];
    this.diagnostics.add({
      severity: 'info',
      code: 'OTM_INVALID_OBJECT',
      message: `Enum values of another type than ${declared} were ${unique.length > 0 ? 'converted' : 'dropped'}: no value could have matched both.`,
      pointer: childPointer(pointer, 'enum'),
    });
  }

  /**
   * Scalar enum values written on an array instead of its items (Wordnik's sourceDictionaries): no array equals a
   * string, so every call would fail validation. They move to the items.
   */
  private moveArrayEnum(out: JsonObject, pointer: string): void {
    const values = out['enum'];
    if (out['type'] !== 'array' || !Array.isArray(values) || !values.every((value) => value === null || typeof value !== 'object')) return;
    const items = out['items'] ?? {};
    if (!isJsonObject(items)) return;
    // Where the items list their own values (DRACOON's grantTypes repeats them on both), the array's copy goes.
    if (items['enum'] === undefined) out['items'] = { ...items, enum: values.filter((value) => value !== null) };
    delete out['enum'];
    this.diagnostics.add({
      severity: 'info',
      code: 'OTM_INVALID_OBJECT',
      message: 'Enum values of scalars on an array were moved to its items: no array could have matched them.',
      pointer: childPointer(pointer, 'enum'),
    });
  }

  private applyNullable(node: JsonObject, out: JsonObject): void {
    if (this.dialect === '3.1') return;
    if (node['nullable'] !== true && node['x-nullable'] !== true) return;
    const type = out['type'];
    if (typeof type === 'string') out['type'] = [type, 'null'];
    else if (Array.isArray(type) && !type.includes('null')) out['type'] = [...type, 'null'];
    if (Array.isArray(out['enum']) && !out['enum'].includes(null)) out['enum'] = [...out['enum'], null];
  }

  private reportLimit(pointer: string, what: string): void {
    if (this.limitReported) return;
    this.limitReported = true;
    this.diagnostics.warn('OTM_SCHEMA_LIMIT', `A schema ${what}; the rest is accepted as any value.`, { pointer });
  }
}

/** `#/components/schemas/Pet` → `Pet`; other targets get a name from their last meaningful tokens. */
export function defNameFor(pointer: string): string {
  const tokens = parsePointer(pointer) ?? [];
  const named =
    (tokens.length === 3 && tokens[0] === 'components' && tokens[1] === 'schemas') || (tokens.length === 2 && tokens[0] === 'definitions');
  const raw = named
    ? (tokens[tokens.length - 1] ?? 'Schema')
    : tokens
        .filter((token) => !/^\d+$/.test(token))
        .slice(-2)
        .join('_');
  const cleaned = raw
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  return cleaned === '' ? 'Schema' : cleaned;
}

/**
 * The scalar examples of a schema: 2020-12's `examples` list, and OpenAPI's single `example` (Swagger 2.0 and OAS
 * 3.0, still allowed in 3.1). Objects and arrays are left out (see MAX_EXAMPLES).
 */
export function scalarExamples(node: JsonObject): JsonValue[] {
  if (node['example'] === undefined && !Array.isArray(node['examples'])) return [];
  const candidates = [
    ...(Array.isArray(node['examples']) ? node['examples'] : []),
    ...(node['example'] !== undefined ? [node['example']] : []),
  ];
  const kept = new Map<string, JsonValue>();
  for (const value of candidates) {
    if (value === null || typeof value === 'object') continue;
    if (typeof value === 'number' && !Number.isFinite(value)) continue;
    const text = JSON.stringify(value);
    if (text.length <= MAX_EXAMPLE_CHARS && kept.size < MAX_EXAMPLES) kept.set(text, value);
  }
  return [...kept.values()];
}

/**
 * True for a scalar whose JSON is surely within MAX_DATA_CHARS without writing it: a number, a boolean, null, or a
 * string short enough that escaping every character (at most six characters each, `\u0000`) and quoting it would
 * still fit.
 */
function isShortScalar(value: JsonValue): boolean {
  if (typeof value === 'string') return value.length * 6 + 2 <= MAX_DATA_CHARS;
  return value === null || typeof value === 'number' || typeof value === 'boolean';
}

/** True when `value` nests at most `limit` levels of arrays and objects. */
function withinDepth(value: JsonValue, limit: number): boolean {
  const stack: Array<[JsonValue, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [JsonValue, number];
    if (node === null || typeof node !== 'object') continue;
    if (depth >= limit) return false;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return true;
}

/** True when every value of the list is null or of the scalar type (a hole, which no parser makes, is neither). */
function allOfScalarType(values: JsonValue[], type: string): boolean {
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (value !== null && (value === undefined || !matchesScalarType(value, type))) return false;
  }
  return true;
}

function matchesScalarType(value: JsonValue, type: string): boolean {
  if (type === 'string') return typeof value === 'string';
  if (type === 'boolean') return typeof value === 'boolean';
  if (type === 'integer') return typeof value === 'number' && Number.isInteger(value);
  return typeof value === 'number' && Number.isFinite(value);
}
