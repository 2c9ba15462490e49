import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../../kernel/json.js';
import * as jsonSchema from '../../kernel/schema-keywords.js';
import type { SchemaModel } from '../../model/api-model.js';
import { compareStrings } from '../text/words.js';
import type { ArgumentPhrases } from './argument-phrases.js';
import { canonical } from './canonical-schema.js';
import { BOUND_KEYWORDS, MAX_ENUM, type Level } from './detail-levels.js';

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
export class Projector {
  private readonly used = new Set<string>();
  private readonly pending: string[] = [];
  private readonly inlining = new Set<string>();
  /** The `$defs` the projection under way refers to (each once). */
  private refs: string[] = [];

  private readonly memo: LevelProjections;

  constructor(
    private readonly defs: Record<string, SchemaModel>,
    private readonly level: Level,
    private readonly phrases: ArgumentPhrases,
  ) {
    this.memo = projectionsOf(defs, level);
  }

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

  /** The `$defs` the projected schemas refer to, sorted by name; undefined when they refer to none. */
  collectDefs(): JsonObject | undefined {
    if (this.pending.length === 0) return undefined;
    const used: Array<[string, JsonValue]> = [];
    // The queue grows while it is walked: a named schema's projection refers to others.
    for (let next = 0; next < this.pending.length; next++) {
      const name = this.pending[next] as string;
      let projection = this.memo.defs.get(name);
      if (!projection) {
        const target = this.defs[name];
        projection = target === undefined ? { value: {}, refs: [] } : this.projected(() => this.node(target, 1, false));
        this.memo.defs.set(name, projection);
      }
      this.use(projection.refs);
      used.push([name, projection.value]);
    }
    this.pending.length = 0;
    used.sort(([a], [b]) => compareStrings(a, b));
    const sorted: JsonObject = {};
    for (const [name, value] of used) setOwn(sorted, name, value);
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
      // Beside `allOf`/`anyOf`/`oneOf`, `additionalProperties: false` sees only this schema's own `properties` and
      // would refuse every field the variants declare (LinQR's ContactData: a closed anyOf of two cards, which as
      // written admits only {}). The server checks what the author meant (unevaluatedProperties, validation-view.ts).
      if (keyword === 'additionalProperties' && value === false && jsonSchema.COMPOSITIONS.some((name) => Array.isArray(schema[name])))
        continue;
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
  if (values.length < 2) return values;
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
