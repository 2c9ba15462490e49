import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../../kernel/json.js';
import * as jsonSchema from '../../kernel/schema-keywords.js';
import type { SchemaModel } from '../../model/api-model.js';
import { sampleFromPattern } from './pattern-sample.js';
import { compareStrings } from '../text/words.js';

/**
 * Formats the generated server checks (templates/runtime/arguments/formats.ts registers exactly these). Any other format is
 * dropped from the view: descriptions invent formats (`phone`, `currency`, `color`) whose rules nobody states.
 */
export const CHECKED_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'date',
  'time',
  'email',
  'uri',
  'uuid',
  'ipv4',
  'ipv6',
  'byte',
  'int32',
  'int64',
]);

/**
 * The checked formats that hold for numbers only (the runtime registers them with `type: 'number'`): on a string
 * (Google's int64 fields are decimal text) they say how the text is meant, and any text passes.
 */
export const NUMBER_FORMATS: ReadonlySet<string> = new Set(['int32', 'int64']);

/** Validation keywords kept as they are. Annotations (description, title, default, deprecated …) are left out. */
const PLAIN_KEYWORDS = [
  'type',
  'enum',
  'const',
  'pattern',
  ...jsonSchema.STRING_LENGTH,
  ...jsonSchema.NUMBER_RANGE,
  ...jsonSchema.EXCLUSIVE_RANGE,
  'multipleOf',
  ...jsonSchema.ARRAY_SIZE,
  ...jsonSchema.CONTAINS_COUNT,
  ...jsonSchema.PROPERTY_COUNT,
  'dependentRequired',
] as const;
const SUBSCHEMA_KEYWORDS = [
  'items',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;
const SUBSCHEMA_MAPS = ['patternProperties', 'dependentSchemas'] as const;
const PLAIN_RANKS = ranks(PLAIN_KEYWORDS);
const SUBSCHEMA_RANKS = ranks(SUBSCHEMA_KEYWORDS);

/**
 * The validation view of the description's schemas: what a request must satisfy, and nothing a model reads. It
 * differs from the schema as written where descriptions are commonly wrong in ways their APIs accept, so that a
 * valid call is never refused:
 * - `readOnly` properties (server-set fields) are neither required nor checked: a client may echo them back;
 * - `oneOf` is checked as `anyOf`: variants of real descriptions overlap (a discriminator tells them apart, not
 *   their shapes), and `oneOf` would refuse a value that fits two of them;
 * - `additionalProperties: false` holds only where it cannot contradict the author: dropped (like any
 *   `additionalProperties`) in schemas used as `allOf` parts, where it would refuse the other parts' properties;
 *   next to `allOf`/`anyOf`/`oneOf`/`$ref` it becomes `unevaluatedProperties: false`, which counts the properties
 *   those declare; elsewhere any field beyond the declared ones is let through unless the description forbids it
 *   explicitly;
 * - formats outside CHECKED_FORMATS are dropped, and a format next to an enum is an alternative to it (`enum: [now]`
 *   with `format: date-time` means "now, or a date-time", whereas both together would admit no value at all).
 * A string with a pattern keeps one example that matches it (the description's, else one made from the pattern),
 * which the server quotes in its error. `$ref`s stay `#/$defs/<name>` and every name reached is collected.
 */
export class ValidationView {
  /** Names of the model's schemas that converted schemas refer to. */
  readonly referenced = new Set<string>();
  /** Names of schemas used as `allOf` parts, directly or through a chain of plain references. */
  readonly composed = new Set<string>();

  /**
   * Views already made, by the model's schema object (as a whole schema, and as an `allOf` part). Actions of a
   * large API share their parameters' and responses' schema objects (Microsoft Graph converts a quarter of its 76,000
   * argument schemas more than once). A view is the same each time: the names it adds to `referenced` and
   * `composed` were added the first time. Views are shared, so they are never changed after they are made.
   */
  private readonly views = new WeakMap<JsonObject, SchemaModel>();
  private readonly partViews = new WeakMap<JsonObject, SchemaModel>();

  /** Views of arguments' schemas by their JSON text (see convertArgument). */
  private readonly byText = new Map<string, SchemaModel>();

  constructor(private readonly schemas: Record<string, SchemaModel>) {}

  /**
   * The view of an argument's schema. The model makes a schema object per parameter and operation (Microsoft Graph:
   * 48,207 parameters, a few thousand distinct schemas), which the memo by object cannot share: equal schemas get
   * one view through their text. A view is a pure function of the schema's content, as are the names it adds.
   */
  convertArgument(schema: SchemaModel): SchemaModel {
    if (typeof schema === 'boolean') return schema;
    const known = this.views.get(schema);
    if (known !== undefined) return known;
    const text = JSON.stringify(schema);
    let view = this.byText.get(text);
    if (view === undefined) this.byText.set(text, (view = this.convert(schema)));
    else this.views.set(schema, view);
    return view;
  }

  convert(schema: SchemaModel, composedPart = false): SchemaModel {
    if (typeof schema === 'boolean') return schema;
    const made = composedPart ? this.partViews : this.views;
    const known = made.get(schema);
    if (known !== undefined) return known;
    const view = this.view(schema, composedPart);
    made.set(schema, view);
    return view;
  }

  private view(schema: JsonObject, composedPart: boolean): SchemaModel {
    const out: JsonObject = {};
    const ref = schema['$ref'];
    if (typeof ref === 'string') {
      const name = ref.replace('#/$defs/', '');
      this.referenced.add(name);
      if (composedPart) this.markComposed(name);
      out['$ref'] = ref;
    }
    for (const keyword of presentIn(schema, PLAIN_RANKS)) out[keyword] = schema[keyword] as JsonValue;
    if (isJsonObject(out['dependentRequired'])) out['dependentRequired'] = Object.fromEntries(sortedEntries(out['dependentRequired']));
    if (typeof schema['format'] === 'string' && CHECKED_FORMATS.has(schema['format'])) out['format'] = schema['format'];
    // `format: date-time` with `enum: [now]` (SendGrid) means "now, or a date-time": as written, nothing is valid.
    if (out['format'] !== undefined && Array.isArray(out['enum'])) {
      out['anyOf'] = [{ enum: out['enum'] }, { format: out['format'] }];
      delete out['enum'];
      delete out['format'];
    }
    const example = typeof out['pattern'] === 'string' ? patternExample(schema, out['pattern']) : undefined;
    if (example !== undefined) out['examples'] = [example];
    const properties = schema['properties'];
    const readOnly = new Set<string>();
    if (isJsonObject(properties)) {
      const converted: JsonObject = {};
      for (const [name, property] of sortedEntries(properties)) {
        if (isJsonObject(property) && property['readOnly'] === true) readOnly.add(name);
        const view = readOnly.has(name) ? true : this.convert(property as SchemaModel);
        setOwn(converted, name, isJsonObject(view) && Object.keys(view).length === 0 ? true : view);
      }
      out['properties'] = converted;
    }
    if (Array.isArray(schema['required'])) {
      const required = schema['required'].filter((name) => typeof name === 'string' && !readOnly.has(name));
      if (required.length > 0) out['required'] = required;
    }
    for (const keyword of presentIn(schema, SUBSCHEMA_RANKS)) out[keyword] = this.convert(schema[keyword] as SchemaModel);
    for (const keyword of SUBSCHEMA_MAPS) {
      const value = schema[keyword];
      if (!isJsonObject(value)) continue;
      const converted: JsonObject = {};
      for (const [name, child] of sortedEntries(value)) setOwn(converted, name, this.convert(child as SchemaModel));
      out[keyword] = converted;
    }
    if (Array.isArray(schema['prefixItems'])) out['prefixItems'] = schema['prefixItems'].map((item) => this.convert(item as SchemaModel));
    this.convertCompositions(schema, out);
    const extra = schema['additionalProperties'];
    if (extra === false && !composedPart) {
      const composed = jsonSchema.COMPOSITIONS.some((keyword) => out[keyword] !== undefined) || out['$ref'] !== undefined;
      out[composed ? 'unevaluatedProperties' : 'additionalProperties'] = false;
    } else if (extra !== undefined && extra !== true && extra !== false && !composedPart) {
      out['additionalProperties'] = this.convert(extra as SchemaModel);
    }
    return out;
  }

  /** `allOf` parts are marked as such; `oneOf` joins `anyOf` (both present: the `oneOf` list becomes an `allOf` part). */
  private convertCompositions(schema: JsonObject, out: JsonObject): void {
    const list = (keyword: string, composedPart = false) =>
      Array.isArray(schema[keyword])
        ? (schema[keyword] as JsonValue[]).map((item) => this.convert(item as SchemaModel, composedPart))
        : undefined;
    const allOf = list('allOf', true) ?? [];
    const anyOf = list('anyOf');
    const oneOf = list('oneOf');
    if (anyOf && oneOf) allOf.push({ anyOf: oneOf });
    // An enum-or-format alternative made above holds next to the description's own unions.
    if (Array.isArray(out['anyOf']) && (anyOf ?? oneOf)) allOf.push({ anyOf: out['anyOf'] });
    if (allOf.length > 0) out['allOf'] = allOf;
    if (anyOf ?? oneOf) out['anyOf'] = (anyOf ?? oneOf) as JsonValue[];
  }

  private markComposed(name: string): void {
    for (let current: string | undefined = name, hops = 0; current !== undefined && hops < 16; hops++) {
      if (this.composed.has(current)) return;
      this.composed.add(current);
      const target: SchemaModel | undefined = this.schemas[current];
      const ref: JsonValue | undefined = typeof target === 'object' ? target['$ref'] : undefined;
      current = typeof ref === 'string' ? ref.replace('#/$defs/', '') : undefined;
    }
  }
}

function ranks(keywords: readonly string[]): ReadonlyMap<string, number> {
  return new Map(keywords.map((keyword, rank) => [keyword, rank]));
}

/**
 * The keywords of a list (by rank) that a schema has, in the list's order. A schema has a few keys and the lists
 * hold dozens: looking each up in every one of Microsoft Graph's 76,000 argument schemas cost more than the rest of
 * their conversion.
 */
function presentIn(schema: JsonObject, ranked: ReadonlyMap<string, number>): string[] {
  const present: string[] = [];
  for (const key of Object.keys(schema)) if (ranked.has(key) && schema[key] !== undefined) present.push(key);
  return present.length > 1 ? present.sort((a, b) => (ranked.get(a) as number) - (ranked.get(b) as number)) : present;
}

/** Keys in a fixed order, so that the order of keys in the description never changes the output. */
function sortedEntries(object: JsonObject): Array<[string, JsonValue]> {
  return Object.entries(object).sort(([a], [b]) => compareStrings(a, b));
}

/** A string the pattern (and the schema's lengths) accept: the description's example or default, else a made-up one. */
function patternExample(schema: JsonObject, pattern: string): string | undefined {
  const minLength = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const maxLength = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  const fits = (value: JsonValue | undefined): value is string =>
    typeof value === 'string' && value.length >= minLength && value.length <= maxLength && value.length <= 200 && regex.test(value);
  const given = [...(Array.isArray(schema['examples']) ? schema['examples'] : []), schema['default']].find(fits);
  if (given !== undefined) return given;
  const made = sampleFromPattern(pattern, minLength);
  return fits(made) ? made : undefined;
}
