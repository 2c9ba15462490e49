import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../kernel/json.js';
import type { SchemaModel } from '../model/api-model.js';
import type { ActionDraft } from '../plan/drafts.js';
import { withResponseFormat } from '../plan/describe/concise-view.js';
import { ArgumentPhrases } from '../plan/arguments/argument-phrases.js';
import { withOperationStatus } from '../plan/describe/operation-status.js';
import { buildToolSchema } from '../plan/arguments/tool-schema.js';
import { jsonLength } from '../plan/build/listed-length.js';

/**
 * Longest input schema a search result carries, in characters of JSON (about 1,500 tokens): five results stay well
 * inside a client's result budget. Nearly every action fits at full detail (GitHub's largest take 22,000 characters,
 * Microsoft Graph's with their `$defs` up to 490,000); the rest get the leaner levels the static planner uses.
 */
export const MAX_SCHEMA_CHARS = 6_000;

/**
 * Detail levels tried, richest first: every description with `$defs`, shorter descriptions, nested objects inlined to
 * depth 3 and 2, types only. The planner's leaner levels leave optional arguments untyped; a search result never does.
 */
const LEVELS = [0, 1, 2, 3, 4];

/** Levels 0 and 1 bundle every schema an argument reaches: past this many, the result cannot fit and is not built. */
const MAX_BUNDLED_DEFS = 48;

/**
 * The input schema of one action on its own: only the arguments it takes, each with its own description and type
 * (a grouped tool's schema merges the arguments of its actions and notes which action uses which), `required` as the
 * action needs them, `response_format` where the static plan offers a concise view of the action's lists, and
 * `operation_status` where the action may answer before its work is done.
 */
export function actionInputSchema(
  draft: ActionDraft,
  defs: Record<string, SchemaModel>,
  concise: boolean,
  /** Shared by every action of a surface: they describe the same arguments again and again. */
  phrases = new ArgumentPhrases(),
): JsonObject {
  const levels = reachesMany(draft, defs) ? LEVELS.filter((level) => level >= 2) : LEVELS;
  // One list for every level: the arguments' merged schemas and notes are prepared once per list (tool-schema.ts).
  const actions = [{ name: '', draft }];
  let schema: JsonObject = {};
  for (const level of levels) {
    const built = withoutContradictions(buildToolSchema(actions, defs, level, new Set(), phrases).schema);
    const formatted = concise ? withResponseFormat(built, [''], 1, level).schema : built;
    schema = draft.operation.longRunning ? withOperationStatus(formatted, [''], 1, level).schema : formatted;
    if (builtLength(schema) <= MAX_SCHEMA_CHARS) break;
  }
  return schema;
}

/**
 * What jsonLength gives of a built schema, from its parts: the root and its maps of properties and named schemas are
 * new in every build, what the maps hold is shared (properties, one per projection and description, and projected
 * named schemas), so each of those is measured once, whatever its size.
 */
function builtLength(schema: JsonObject): number {
  return objectLength(schema, (key, value) =>
    SCHEMA_MAPS.has(key) && isJsonObject(value) ? objectLength(value, sharedLength) : jsonLength(value),
  );
}

/** `{"key":value,…}` over the own keys, in their order, without those whose value JSON leaves out. */
function objectLength(object: JsonObject, lengthOf: (key: string, value: JsonValue) => number | undefined): number {
  let length = 2;
  let written = 0;
  for (const key of Object.keys(object)) {
    const valueLength = lengthOf(key, object[key] as JsonValue);
    if (valueLength === undefined) continue;
    length += (jsonLength(key) as number) + 1 + valueLength;
    written++;
  }
  return length + Math.max(written - 1, 0);
}

function sharedLength(_key: string, value: JsonValue): number | undefined {
  if (value === null || typeof value !== 'object') return jsonLength(value);
  let length = sharedLengths.get(value);
  if (length === undefined) sharedLengths.set(value, (length = jsonLength(value) as number));
  return length;
}

const sharedLengths = new WeakMap<object, number>();

/**
 * The schema without a `format` beside an `enum` or `const`: the list names every value allowed, and a format can
 * only contradict it (SendGrid's `send_at` is `enum: ["now"]` with `format: date-time`, which no value satisfies; the
 * server validates calls against this schema, so the action could never be called). A part with nothing to drop is
 * returned as it is, and each shared part is looked at once: the levels of an action and the actions of a surface
 * share their projected schemas (which nobody changes), and so the lengths listed-length.ts keeps of them.
 *
 * A built schema's root is new in every build, and what it holds is shared (its properties, one per projection and
 * description, and the `$defs`): the root is cleaned as it comes, each shared part is looked up in a memo, and what is
 * inside a shared part belongs to it alone, so it is cleaned with its part (remembering every node of Microsoft
 * Graph's 57,000 built schemas cost more than cleaning them).
 */
function withoutContradictions(schema: JsonObject): JsonObject {
  return cleanedObject(schema, 0) as JsonObject;
}

/**
 * `fresh` counts the levels still new to this build (0 and up), then marks a shared part (-1: looked up in the memo)
 * and what is inside one (-2: cleaned with it).
 */
function cleaned(node: JsonValue, fresh: number): JsonValue {
  if (node === null || typeof node !== 'object') return node;
  if (fresh !== SHARED) return Array.isArray(node) ? cleanedList(node, fresh) : cleanedObject(node, fresh);
  let known = cleanedParts.get(node);
  if (known === undefined) {
    known = Array.isArray(node) ? cleanedList(node, SHARED) : cleanedObject(node, SHARED);
    cleanedParts.set(node, known);
  }
  return known;
}

const SHARED = -1;
const INSIDE_SHARED = -2;

/** What `fresh` is one level down. */
function below(fresh: number): number {
  return fresh >= 0 ? fresh - 1 : INSIDE_SHARED;
}

const cleanedParts = new WeakMap<object, JsonValue>();

function cleanedList(list: JsonValue[], fresh: number): JsonValue {
  const out = list.map((item) => cleaned(item, below(fresh)));
  return out.some((item, index) => item !== list[index]) ? out : list;
}

function cleanedObject(node: JsonObject, fresh: number): JsonValue {
  const listed = node['enum'] !== undefined || node['const'] !== undefined;
  const keywords = Object.keys(node);
  // Most parts have nothing to drop: the copy is made only from the first keyword that changes.
  let out: JsonObject | undefined;
  for (let index = 0; index < keywords.length; index++) {
    const keyword = keywords[index] as string;
    const value = node[keyword] as JsonValue;
    if (listed && keyword === 'format') {
      out ??= copyOf(node, keywords, index);
      continue;
    }
    // Keywords whose value maps names to schemas: the names are not keywords.
    const next =
      SCHEMA_MAPS.has(keyword) && isJsonObject(value)
        ? cleanedMap(value, fresh)
        : VALUES.has(keyword)
          ? value
          : cleaned(value, below(fresh));
    if (next !== value) out ??= copyOf(node, keywords, index);
    if (out) setOwn(out, keyword, next);
  }
  return out ?? node;
}

/** A map of names to schemas (a level of its own for `fresh`), each cleaned; the map itself when none changed. */
function cleanedMap(map: JsonObject, fresh: number): JsonObject {
  const names = Object.keys(map);
  let out: JsonObject | undefined;
  for (let index = 0; index < names.length; index++) {
    const name = names[index] as string;
    const schema = map[name] as JsonValue;
    const next = cleaned(schema, below(fresh));
    if (next !== schema) out ??= copyOf(map, names, index);
    if (out) setOwn(out, name, next);
  }
  return out ?? map;
}

/** The first `count` keys of an object, copied in their order. */
function copyOf(node: JsonObject, keys: string[], count: number): JsonObject {
  const out: JsonObject = {};
  for (let index = 0; index < count; index++) setOwn(out, keys[index] as string, node[keys[index] as string] as JsonValue);
  return out;
}

const SCHEMA_MAPS = new Set(['properties', '$defs', 'patternProperties', 'dependentSchemas']);
/** Keywords whose value is data (or names), not a schema. */
const VALUES = new Set(['enum', 'const', 'default', 'examples', 'required']);

/** Whether the arguments reach more than MAX_BUNDLED_DEFS named schemas through `$ref`s. */
function reachesMany(draft: ActionDraft, defs: Record<string, SchemaModel>): boolean {
  const reached = new Set<string>();
  for (const argument of draft.arguments) {
    const names = reachedFrom(argument.schema, defs);
    if (names === MANY) return true;
    for (const name of names) reached.add(name);
    if (reached.size > MAX_BUNDLED_DEFS) return true;
  }
  return false;
}

/** More names than MAX_BUNDLED_DEFS: the walk stopped there. */
const MANY = Symbol('many');

/**
 * The named schemas one argument's schema reaches through `$ref`s (a bounded walk), once per schema: arguments share
 * their schemas (see argumentView), and Microsoft Graph's bodies refer to entities that refer to dozens more.
 */
function reachedFrom(schema: SchemaModel, defs: Record<string, SchemaModel>): ReadonlySet<string> | typeof MANY {
  if (typeof schema === 'boolean') return NONE;
  let byDefs = reachedByDefs.get(defs);
  if (!byDefs) reachedByDefs.set(defs, (byDefs = new WeakMap()));
  let reached = byDefs.get(schema);
  if (reached === undefined) byDefs.set(schema, (reached = walkReached(schema, defs)));
  return reached;
}

const NONE: ReadonlySet<string> = new Set();
const reachedByDefs = new WeakMap<Record<string, SchemaModel>, WeakMap<JsonObject, ReadonlySet<string> | typeof MANY>>();

function walkReached(schema: JsonObject, defs: Record<string, SchemaModel>): ReadonlySet<string> | typeof MANY {
  const seen = new Set<string>();
  const pending: JsonValue[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop() as JsonValue;
    if (Array.isArray(node)) {
      for (const item of node) pending.push(item);
      continue;
    }
    if (!isJsonObject(node)) continue;
    for (const keyword in node) {
      const value = node[keyword] as JsonValue;
      if (keyword === '$ref' && typeof value === 'string') {
        const name = value.replace('#/$defs/', '');
        if (seen.has(name)) continue;
        seen.add(name);
        if (seen.size > MAX_BUNDLED_DEFS) return MANY;
        const target = defs[name];
        if (target !== undefined) pending.push(target as JsonValue);
      } else if (typeof value === 'object' && value !== null) {
        pending.push(value);
      }
    }
  }
  return seen;
}
