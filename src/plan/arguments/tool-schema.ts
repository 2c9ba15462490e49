import { setOwn, type JsonObject, type JsonValue } from '../../kernel/json.js';
import type { SchemaModel } from '../../model/api-model.js';
import type { ArgumentDraft, BodyFields, NamedAction } from '../drafts.js';
import { compareStrings } from '../text/words.js';
import { ArgumentPhrases } from './argument-phrases.js';
import { bodyFieldsPhrase, MIN_FIELDS_PHRASE } from './body-fields.js';
import { canonical } from './canonical-schema.js';
import { LEVELS, MAX_DETAIL } from './detail-levels.js';
import { mergeSchemas } from './merge-schemas.js';
import { isPagingArgument } from './paging-arguments.js';
import { Projector } from './project-schema.js';
import { mostlyRequired } from './shared-arguments.js';

export type MergedArgument = { key: string; drafts: Array<{ action: string; argument: ArgumentDraft }> };

/** Arguments of a tool's actions, merged by key and sorted: required-by-all first, then by key. */
export function mergeArguments(actions: NamedAction[]): MergedArgument[] {
  const byKey = new Map<string, MergedArgument>();
  for (let a = 0; a < actions.length; a++) {
    const action = actions[a] as NamedAction;
    const list = action.draft.arguments;
    for (let b = 0; b < list.length; b++) {
      const argument = list[b] as ArgumentDraft;
      const merged = byKey.get(argument.key);
      if (merged) merged.drafts.push({ action: action.name, argument });
      else byKey.set(argument.key, { key: argument.key, drafts: [{ action: action.name, argument }] });
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
  typed: ReadonlySet<string> = NONE,
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
  const projector = new Projector(defs, level, phrases);
  const untyped = new Map<string, string[]>();
  const { merged: prepared, mentioned } = preparedArguments(actions);
  // Indexed loops: a plan builds tens of thousands of schemas (one per action on the search surface), much of it
  // before V8 optimizes this function, and iterating an array unoptimized allocates a result per step.
  for (let index = 0; index < prepared.length; index++) {
    const { merged, schema: given, requiredBy, base, notes } = prepared[index] as PreparedArgument;
    if (!typed.has(merged.key) && isCollapsible(merged, level.collapse, actions.length)) {
      for (const entry of merged.drafts) append(untyped, entry.action, merged.key);
      continue;
    }
    const schema = projector.project(given);
    const meaning = level.argument >= 140 ? phrases.full(base, level.argument) : phrases.phrase(base, merged.key, level.argument);
    const description = sentencesOf(meaning, notes, level.maxDepth === Infinity ? '' : fieldsNote(merged, level.argument));
    setOwn(properties, merged.key, describedProperty(schema, description) as JsonValue);
    if (requiredBy.length === actions.length) required.push(merged.key);
  }
  const schema: JsonObject = { type: 'object', properties };
  if (required.length > 0) schema['required'] = required;
  if (untyped.size === 0) schema['additionalProperties'] = false;
  const usedDefs = projector.collectDefs();
  if (usedDefs) schema['$defs'] = usedDefs;
  return { schema, untyped, mentioned };
}

const NONE: ReadonlySet<string> = new Set();

/**
 * A property: the argument's projected schema with its description. One object per projection and description: the
 * projections are shared by every build of a plan, and so are their properties (Microsoft Graph's search surface
 * makes 74,804 properties of 4,195 distinct ones), and with them the lengths and cleanings remembered by the object.
 * Shared, so never changed (headers/apply-headers.ts marks a copy).
 */
function describedProperty(schema: SchemaModel, description: string): JsonObject {
  if (typeof schema === 'boolean') return made(schema, description);
  let byDescription = describedProperties.get(schema);
  if (!byDescription) describedProperties.set(schema, (byDescription = new Map()));
  let property = byDescription.get(description);
  if (property === undefined) byDescription.set(description, (property = made(schema, description)));
  return property;
}

const describedProperties = new WeakMap<JsonObject, Map<string, JsonObject>>();

function made(schema: SchemaModel, description: string): JsonObject {
  const property: JsonObject = typeof schema === 'boolean' ? {} : { ...schema };
  if (description) property['description'] = description;
  else delete property['description'];
  return canonical(property);
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
 * A body taken whole names its first-level fields, cut at a whole field to the level's length (never below
 * MIN_FIELDS_PHRASE, even at the levels that drop other descriptions: a body's fields are what a model needs last),
 * at the levels that cut nested schemas (the fuller ones show every field). Actions whose bodies differ say theirs
 * each.
 */
function fieldsNote(merged: MergedArgument, length: number): string {
  const limit = Math.max(length, MIN_FIELDS_PHRASE);
  const distinct = new Map<string, { actions: string[]; fields: BodyFields }>();
  for (const { action, argument } of merged.drafts) {
    if (!argument.fields) continue;
    const key = JSON.stringify(argument.fields);
    const known = distinct.get(key);
    if (known) known.actions.push(action);
    else distinct.set(key, { actions: [action], fields: argument.fields });
  }
  const lists = [...distinct.values()];
  if (lists.length === 1 && lists[0]?.actions.length === merged.drafts.length) return bodyFieldsPhrase(lists[0].fields, limit);
  return lists.map(({ actions, fields }) => `For ${actions.join(', ')}: ${bodyFieldsPhrase(fields, limit)}`).join(' ');
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

/**
 * Text fragments joined as sentences (the empty ones left out), each but the last given the full stop it lacks;
 * without making lists, since a property's description is joined for every build.
 */
function sentencesOf(first: string, middle: readonly string[], last: string): string {
  let text = first;
  for (let index = 0; index <= middle.length; index++) {
    const part = index < middle.length ? (middle[index] as string) : last;
    if (!part) continue;
    text = text ? `${text}${ENDS_SENTENCE.test(text) ? '' : '.'} ${part}` : part;
  }
  return text;
}

const ENDS_SENTENCE = /[.!?…:]$/;

/**
 * Arguments most actions require are stated once, on the property: "Required except for …". The others' needs are in
 * each action's line of the tool description.
 */
function requiredNote(key: string, requiredBy: string[], actions: NamedAction[], shared: Set<string>): string {
  if (!shared.has(key)) return '';
  const exceptions = actions.map((action) => action.name).filter((name) => !requiredBy.includes(name));
  return exceptions.length > 0 ? `Required except for ${exceptions.join(', ')}.` : '';
}
