import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { closestName } from '../diagnostics/did-you-mean.js';
import { pointerOf } from '../diagnostics/json-pointer.js';
import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../kernel/json.js';
import type { ApiModel, OperationModel, ParameterLocation, ParameterModel, SchemaModel } from './api-model.js';

/** The scalar types a parameter can be believed or pinned to. */
export const PARAMETER_TYPES = ['string', 'integer', 'number', 'boolean'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

/** A parameter's type as the configuration pins it; `in` picks the location where the name is used in several. */
export type ParameterTypePin = { type: ParameterType; in?: ParameterLocation };

export type TypeReconciliation = {
  /** Pins per operation, found by the name the configuration keys them with (operationId or `METHOD /path`). */
  pins: Array<{ operation: OperationModel; key: string; parameters: Record<string, ParameterTypePin> }>;
  /** The configuration file, for diagnostics. */
  file?: string;
};

/** Keywords that say nothing about the type: a dissenting parameter with no others is retyped by the majority. */
const ANNOTATIONS = new Set(['type', 'description', 'title', 'deprecated', 'examples', 'default']);
/** Formats that only give a number's width: they do not make a dissenting type deliberate. */
const WIDTHS = new Set(['int32', 'int64', 'float', 'double']);
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const STRING_KEYWORDS = ['pattern', 'minLength', 'maxLength'];

/**
 * Parameters whose description contradicts itself get the type the rest of it says: a type that every one of its own
 * examples breaks (`integer`, every example a 24-digit hex string) is taken as `string`; and a type narrower than every
 * other operation's for a parameter of the same name in the same location (the same meaning) is taken as theirs, when
 * nothing but the bare type says otherwise. The model and the generated server then both use the believed type, and
 * a warning names the parameter, says what was believed and how to pin either type. The configuration's pins
 * (`operations.<operation>.parameters.<name>.type`) decide without a warning.
 */
export function reconcileParameterTypes(model: ApiModel, reconciliation: TypeReconciliation, diagnostics: Diagnostics): ApiModel {
  const pinned = applyPins(reconciliation, diagnostics);
  const believed = new Map<string, { type: ParameterType; reason: string }>();
  const byPointer = definitions(model);
  for (const [pointer, definition] of byPointer) {
    if (pinned.has(pointer)) continue;
    const reason = brokenByExamples(definition.parameter, model.schemas);
    if (reason) believed.set(pointer, { type: 'string', reason });
  }
  for (const [pointer, belief] of majorityBeliefs(byPointer, believed, pinned, model.schemas)) believed.set(pointer, belief);
  const lists = repeatedKeys(byPointer, pinned, model.schemas, diagnostics);
  if (pinned.size === 0 && believed.size === 0 && lists.size === 0) return model;
  for (const [pointer, belief] of believed) {
    const { parameter, operations } = byPointer.get(pointer) as Definition;
    const declared = scalarType(parameter.schema, model.schemas) as ParameterType;
    const where = operations[0] as OperationModel;
    const also = operations.length > 1 ? ` (and ${operations.length - 1} more operation${operations.length > 2 ? 's' : ''})` : '';
    diagnostics.warn(
      'OTM_PARAMETER_TYPE_BELIEVED',
      `${where.key}${also}: the ${parameter.in} parameter ${JSON.stringify(parameter.name)} is typed ${declared}, but ${belief.reason}; the model and the server take it as ${belief.type === 'integer' ? 'an' : 'a'} ${belief.type}.`,
      {
        pointer,
        hint: `To keep ${declared}, pin it in the configuration: operations: { ${where.id}: { parameters: { ${parameter.name}: { type: ${declared}${ambiguous(where, parameter) ? `, in: ${parameter.in}` : ''} } } } }; or correct the type in the description.`,
      },
    );
  }
  const types = new Map<string, ParameterType>([...pinned, ...[...believed].map(([pointer, belief]) => [pointer, belief.type] as const)]);
  return {
    ...model,
    operations: model.operations.map((operation) =>
      operation.parameters.some((parameter) => types.has(parameter.pointer) || lists.has(parameter.pointer))
        ? {
            ...operation,
            parameters: operation.parameters.map((parameter) => {
              const type = types.get(parameter.pointer);
              const typed = type ? { ...parameter, schema: retyped(parameter.schema, type, model.schemas) } : parameter;
              return lists.has(parameter.pointer) ? listOf(typed) : typed;
            }),
          }
        : operation,
    ),
  };
}

/**
 * Query parameters named `name[]` with a one-value type: the brackets are the convention (Rails, PHP, PagerDuty) for a
 * key repeated once per value, and the API takes a list there however the type reads (PagerDuty types `statuses[]` as
 * one enum string and documents `statuses[]=triggered&statuses[]=acknowledged`). A model that reads the name sends a
 * list, so the model and the server take a list of the declared type; one value is still taken as a one-item list. A
 * pinned type keeps one value. Reported as information at each definition: the convention is not a mistake.
 */
function repeatedKeys(
  byPointer: ReadonlyMap<string, Definition>,
  pinned: ReadonlyMap<string, ParameterType>,
  schemas: Record<string, SchemaModel>,
  diagnostics: Diagnostics,
): Set<string> {
  const out = new Set<string>();
  for (const [pointer, { parameter, operations }] of byPointer) {
    if (parameter.in !== 'query' || !parameter.name.endsWith('[]') || parameter.name === '[]' || pinned.has(pointer)) continue;
    out.add(pointer);
    const where = operations[0] as OperationModel;
    diagnostics.add({
      severity: 'info',
      code: 'OTM_PARAMETER_LIST_BELIEVED',
      message: `${where.key}: the query parameter ${JSON.stringify(parameter.name)} is typed as one value, but its name repeats the key per value; the model and the server take a list of them.`,
      pointer,
      hint: `To send one value only, pin its type in the configuration: operations: { ${where.id}: { parameters: { ${JSON.stringify(parameter.name)}: { type: ${scalarType(parameter.schema, schemas)}${ambiguous(where, parameter) ? ', in: query' : ''} } } } }.`,
    });
  }
  return out;
}

/**
 * A one-value parameter as the list its repeated key carries: the declared schema becomes the items', `uniqueItems`
 * (which only a list can mean) and the description move to the list, and a `form` list repeats its key.
 */
function listOf(parameter: ParameterModel): ParameterModel {
  const { schema } = parameter;
  const items: JsonObject = {};
  const list: JsonObject = { type: 'array', items };
  if (isJsonObject(schema))
    for (const [keyword, value] of Object.entries(schema)) {
      if (keyword === 'uniqueItems' || keyword === 'description') setOwn(list, keyword, value);
      else setOwn(items, keyword, value);
    }
  return { ...parameter, schema: list, explode: parameter.style === 'form' ? true : parameter.explode };
}

/** Whether an operation has parameters of that name in more than one location (a pin then needs `in`). */
function ambiguous(operation: OperationModel, parameter: ParameterModel): boolean {
  return operation.parameters.some((other) => other.name === parameter.name && other.in !== parameter.in);
}

type Definition = { parameter: ParameterModel; operations: OperationModel[] };

/**
 * Every parameter definition by its pointer: a path item's parameter is one definition however many of its
 * operations share it. Parameters sent as JSON (`content`) are left out: their text is not the type's.
 */
function definitions(model: ApiModel): Map<string, Definition> {
  const out = new Map<string, Definition>();
  for (const operation of model.operations)
    for (const parameter of operation.parameters) {
      if (parameter.contentType !== undefined || scalarType(parameter.schema, model.schemas) === undefined) continue;
      const known = out.get(parameter.pointer);
      if (known) known.operations.push(operation);
      else out.set(parameter.pointer, { parameter, operations: [operation] });
    }
  return out;
}

/** The configuration's pins, by parameter pointer; a pin that names no parameter of its operation is reported. */
function applyPins(reconciliation: TypeReconciliation, diagnostics: Diagnostics): Map<string, ParameterType> {
  const pinned = new Map<string, ParameterType>();
  for (const { operation, key, parameters } of reconciliation.pins)
    for (const [name, pin] of Object.entries(parameters)) {
      const found = operation.parameters.filter(
        (parameter) => parameter.name === name && (pin.in === undefined || parameter.in === pin.in),
      );
      if (found.length === 1) {
        pinned.set((found[0] as ParameterModel).pointer, pin.type);
        continue;
      }
      const close = closestName(
        name,
        operation.parameters.map((parameter) => parameter.name),
      );
      diagnostics.warn(
        'OTM_CONFIG_INVALID',
        found.length === 0
          ? `operations.${key}.parameters.${name} names no parameter of ${operation.key}; the pin was ignored.`
          : `operations.${key}.parameters.${name} names parameters in ${found.map((parameter) => parameter.in).join(' and ')}; the pin was ignored.`,
        {
          pointer: pointerOf('operations', key, 'parameters', name),
          ...(reconciliation.file ? { file: reconciliation.file } : {}),
          hint:
            found.length > 1
              ? 'Add `in` (path, query, header or cookie) to say which one.'
              : close
                ? `Did you mean ${close}?`
                : `Its parameters: ${operation.parameters.map((parameter) => parameter.name).join(', ') || 'none'}.`,
        },
      );
    }
  return pinned;
}

/** Why a parameter's own examples contradict its type (each is text no value of the type reads as), if they do. */
function brokenByExamples(parameter: ParameterModel, schemas: Record<string, SchemaModel>): string | undefined {
  const type = scalarType(parameter.schema, schemas);
  if (type === undefined || type === 'string') return undefined;
  const examples = examplesOf(parameter.schema, schemas);
  if (examples.length === 0 || !examples.every((example) => typeof example === 'string' && !readsAs(example, type))) return undefined;
  const shown = JSON.stringify(examples[0]);
  return examples.length === 1 ? `its example ${shown} is not one` : `none of its ${examples.length} examples is one (${shown} …)`;
}

/**
 * Parameters whose type is unlike every other definition's of the same name and location: taken as the others' type
 * when they agree (at least two of them), the dissent is one definition or at most a tenth, and the others' type is
 * the wider (see `widens`), unless the dissenting schema says more than its bare type (a pattern, an enum, a format
 * other than a width) or its examples fit only it.
 */
function majorityBeliefs(
  byPointer: Map<string, Definition>,
  believed: ReadonlyMap<string, { type: ParameterType }>,
  pinned: ReadonlyMap<string, ParameterType>,
  schemas: Record<string, SchemaModel>,
): Map<string, { type: ParameterType; reason: string }> {
  const groups = new Map<string, Array<[string, ParameterType]>>();
  for (const [pointer, { parameter }] of byPointer) {
    const type = pinned.get(pointer) ?? believed.get(pointer)?.type ?? (scalarType(parameter.schema, schemas) as ParameterType);
    const key = `${parameter.in}\u0000${parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name}`;
    // Pushed in place: copying the list per member was quadratic (Graph's query parameter `$select` has thousands).
    const members = groups.get(key);
    if (members) members.push([pointer, type]);
    else groups.set(key, [[pointer, type]]);
  }
  const out = new Map<string, { type: ParameterType; reason: string }>();
  for (const members of groups.values()) {
    const counts = new Map<ParameterType, number>();
    for (const [, type] of members) counts.set(type, (counts.get(type) ?? 0) + 1);
    if (counts.size !== 2) continue;
    const [[majority, agreeing], [, dissenting]] = [...counts].sort((a, b) => b[1] - a[1]) as [
      [ParameterType, number],
      [ParameterType, number],
    ];
    if (agreeing < 2 || !(dissenting === 1 || dissenting * 10 <= members.length)) continue;
    const dissent = members.find(([, type]) => type !== majority)?.[1] as ParameterType;
    // Others whose schema could not hold the dissent's values mean something else by the name (Xero's timeframe is
    // MONTH|QUARTER|YEAR in two reports and a number of months in a third): they are no evidence.
    const alike = members.filter(
      ([pointer, type]) => type === majority && couldHold((byPointer.get(pointer) as Definition).parameter.schema, schemas, dissent),
    ).length;
    if (alike < 2) continue;
    for (const [pointer, type] of members) {
      if (!widens(majority, type) || pinned.has(pointer) || believed.has(pointer)) continue;
      const { parameter } = byPointer.get(pointer) as Definition;
      if (!onlyTyped(parameter.schema, schemas, majority)) continue;
      const others = `${alike} other definition${alike > 1 ? 's' : ''}`;
      out.set(pointer, {
        type: majority,
        reason: `the ${others} of a ${parameter.in} parameter ${JSON.stringify(parameter.name)} type it ${majority}`,
      });
    }
  }
  return out;
}

/**
 * Whether a type takes every value of another as the same text (a string takes 42 as "42"; a number takes 42). Only
 * a narrower dissent is corrected: it refuses calls the majority's type allows, while a wider one refuses nothing.
 */
function widens(type: ParameterType, other: ParameterType): boolean {
  return type !== other && (type === 'string' || (type === 'number' && other === 'integer'));
}

/** Whether a schema says nothing but its type, with examples and a default that also read as `type`. */
function onlyTyped(schema: SchemaModel, schemas: Record<string, SchemaModel>, type: ParameterType): boolean {
  const node = resolved(schema, schemas);
  if (!isJsonObject(node)) return false;
  for (const keyword of Object.keys(node)) {
    if (keyword === 'format' && typeof node['format'] === 'string' && WIDTHS.has(node['format'])) continue;
    if (!ANNOTATIONS.has(keyword)) return false;
  }
  const values = [...examplesOf(node, schemas), ...(node['default'] !== undefined ? [node['default']] : [])];
  return values.every(
    (value) => (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') && readsAs(String(value), type),
  );
}

/** Whether a schema takes values of another type as text: no enum without one, no pattern, no format but a width. */
function couldHold(schema: SchemaModel, schemas: Record<string, SchemaModel>, type: ParameterType): boolean {
  const node = resolved(schema, schemas);
  if (!isJsonObject(node)) return false;
  if (typeof node['format'] === 'string' && !WIDTHS.has(node['format'])) return false;
  if (node['pattern'] !== undefined) return false;
  const values = node['enum'];
  return (
    !Array.isArray(values) ||
    values.some((value) => (typeof value === 'string' || typeof value === 'number') && readsAs(String(value), type))
  );
}

/** Whether text is what a value of the type is sent as. */
function readsAs(text: string, type: ParameterType): boolean {
  switch (type) {
    case 'integer':
      return /^-?\d+$/.test(text);
    case 'number':
      return /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text);
    case 'boolean':
      return text === 'true' || text === 'false';
    default:
      return true;
  }
}

/** The schema behind a chain of references into the named schemas. */
function resolved(schema: SchemaModel, schemas: Record<string, SchemaModel>): SchemaModel | undefined {
  let node: SchemaModel | undefined = schema;
  for (let hops = 0; hops < 16 && isJsonObject(node) && typeof node['$ref'] === 'string'; hops++) {
    const name: string = node['$ref'].replace('#/$defs/', '');
    node = Object.hasOwn(schemas, name) ? schemas[name] : undefined;
  }
  return node;
}

/** The one scalar type a schema declares (null aside), if it declares exactly one. */
function scalarType(schema: SchemaModel, schemas: Record<string, SchemaModel>): ParameterType | undefined {
  const node = resolved(schema, schemas);
  if (!isJsonObject(node)) return undefined;
  const type = node['type'];
  const types = (Array.isArray(type) ? type : [type]).filter((item) => item !== 'null');
  const only = types.length === 1 ? types[0] : undefined;
  return typeof only === 'string' && (PARAMETER_TYPES as readonly string[]).includes(only) ? (only as ParameterType) : undefined;
}

function examplesOf(schema: SchemaModel, schemas: Record<string, SchemaModel>): JsonValue[] {
  const node = resolved(schema, schemas);
  return isJsonObject(node) && Array.isArray(node['examples']) ? node['examples'] : [];
}

/**
 * The schema with another scalar type: annotations kept, the keywords of the old type dropped (a `minimum` says
 * nothing of a string), enum values, examples and a default kept where they read as the new type. A reference is
 * replaced by what it points to, so that other users of the named schema keep it as it is.
 */
function retyped(schema: SchemaModel, type: ParameterType, schemas: Record<string, SchemaModel>): SchemaModel {
  const node = resolved(schema, schemas);
  const source: JsonObject = isJsonObject(node) ? node : {};
  const out: JsonObject = {};
  const dropped = new Set(type === 'string' ? NUMBER_KEYWORDS : STRING_KEYWORDS);
  for (const [keyword, value] of Object.entries(source)) {
    if (dropped.has(keyword) || keyword === '$ref') continue;
    if (keyword === 'format' && typeof value === 'string' && (type === 'string') === WIDTHS.has(value)) continue;
    setOwn(out, keyword, value);
  }
  if (isJsonObject(schema) && typeof schema['description'] === 'string') out['description'] = schema['description'];
  const nullable = Array.isArray(source['type']) && source['type'].includes('null');
  out['type'] = nullable ? [type, 'null'] : type;
  const convert = (value: JsonValue): JsonValue[] => {
    if (value === null) return [value];
    const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
    if (text === undefined || !readsAs(text, type)) return [];
    return [type === 'string' ? text : type === 'boolean' ? text === 'true' : Number(text)];
  };
  for (const keyword of ['enum', 'examples'] as const) {
    const values = out[keyword];
    if (!Array.isArray(values)) continue;
    const kept = values.flatMap(convert);
    if (kept.length > 0) out[keyword] = kept;
    else delete out[keyword];
  }
  if (out['default'] !== undefined) {
    const [kept] = convert(out['default']);
    if (kept === undefined) delete out['default'];
    else out['default'] = kept;
  }
  return out;
}
