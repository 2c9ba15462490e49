// Turns Ajv's errors into breaches a model can act on: which argument (with its path inside nested values, such as
// body.config.url), which rule of the description it breaks, and a value that keeps the rule — the description's
// own example, default or first allowed value where it gives one, else one made from the rule.

import type { ErrorObject } from 'ajv/dist/2020.js';
import { FORMAT_EXAMPLES, FORMAT_WORDS } from './formats.js';
import { type Defs, isSchema, resolve, type Schema } from './schema-nodes.js';

export type Breach = { path: string; rule: string; example?: unknown };

/** At most this many breaches are reported; a model fixes those first, and the rest would bury them. */
export const MAX_BREACHES = 8;
const MAX_LISTED = 10;
const MAX_EXAMPLE_CHARS = 160;
const MAX_PATTERN_CHARS = 120;

export function describeBreaches(errors: ErrorObject[], data: unknown, defs: Defs): Breach[] {
  const kept: ErrorObject[] = [];
  for (const error of errors) {
    // A union reports every variant's failures, then its own: it stands for them (its message lists the variants).
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      for (let index = kept.length - 1; index >= 0; index--) {
        const earlier = kept[index] as ErrorObject;
        if (earlier.instancePath === error.instancePath || earlier.instancePath.startsWith(`${error.instancePath}/`))
          kept.splice(index, 1);
      }
    }
    // `if` only says that `then` or `else` failed; their own errors say how.
    if (error.keyword === 'if') continue;
    kept.push(error);
  }
  const seen = new Set<string>();
  const breaches: Breach[] = [];
  for (const error of kept) {
    const breach = explain(error, data, defs);
    const key = `${breach.path}\u0000${breach.rule}`;
    if (seen.has(key)) continue;
    seen.add(key);
    breaches.push(breach);
  }
  return breaches;
}

function explain(error: ErrorObject, data: unknown, defs: Defs): Breach {
  const path = pathText(error.instancePath, data);
  const parent = isSchema(error.parentSchema) ? error.parentSchema : {};
  const params = error.params as Record<string, unknown>;
  const example = exampleOf(parent, defs);
  const withExample = (rule: string, value = example): Breach => ({
    path,
    rule,
    ...(value !== undefined ? { example: value } : {}),
  });
  const child = (name: string) => (path ? `${path}.${keyText(name)}` : name);
  const propertyExample = (name: string) => {
    const fields = fieldsOf(parent, defs);
    return Object.hasOwn(fields, name) ? exampleOf(fields[name], defs) : undefined;
  };
  switch (error.keyword) {
    case 'type':
      return withExample(`must be ${typeWords(String(params['type']).split(','))}`);
    case 'pattern':
      return withExample(`must match the pattern ${shorten(String(params['pattern']), MAX_PATTERN_CHARS)}`);
    case 'format':
      return withExample(
        `must be ${FORMAT_WORDS[String(params['format'])] ?? `in the format ${String(params['format'])}`}`,
      );
    case 'enum':
      return withExample(`must be one of ${listValues(params['allowedValues'])}`);
    case 'const':
      return withExample(`must be ${JSON.stringify(params['allowedValue'])}`, params['allowedValue']);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const words = {
        minimum: 'at least',
        maximum: 'at most',
        exclusiveMinimum: 'more than',
        exclusiveMaximum: 'less than',
      };
      return withExample(
        `must be ${words[error.keyword]} ${String(params['limit'])}`,
        nearestNumber(parent, error.keyword, params['limit']),
      );
    }
    case 'multipleOf':
      return withExample(`must be a multiple of ${String(params['multipleOf'])}`);
    case 'minLength':
      return withExample(`must have at least ${count(params['limit'], 'character')}`);
    case 'maxLength':
      return withExample(`must have at most ${count(params['limit'], 'character')}`, truncated(error, parent));
    case 'minItems':
      return withExample(`must have at least ${count(params['limit'], 'item')}`);
    case 'maxItems':
      return withExample(`must have at most ${count(params['limit'], 'item')}`);
    case 'uniqueItems':
      return withExample(
        `must not repeat an item (items ${String(params['j'])} and ${String(params['i'])} are equal)`,
        undefined,
      );
    case 'minProperties':
      return withExample(`must have at least ${count(params['limit'], 'field')}`);
    case 'maxProperties':
      return withExample(`must have at most ${count(params['limit'], 'field')}`);
    case 'required': {
      const name = String(params['missingProperty']);
      return { path: child(name), rule: 'is required', ...exampleField(propertyExample(name)) };
    }
    case 'dependentRequired': {
      const name = String(params['missingProperty']);
      return {
        path: child(name),
        rule: `is required when ${keyText(String(params['property']))} is sent`,
        ...exampleField(propertyExample(name)),
      };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = String(params['additionalProperty'] ?? params['unevaluatedProperty']);
      const known = Object.keys(fieldsOf(parent, defs));
      return {
        path: child(name),
        rule: `is not a field ${path || 'this action'} takes${known.length > 0 ? `; it takes ${listNames(known)}` : ''}`,
      };
    }
    case 'anyOf':
    case 'oneOf':
      return unionBreach(path, error.schema, defs);
    case 'propertyNames':
      return { path: child(String(params['propertyName'])), rule: 'is not an allowed field name' };
    case 'not':
      return { path, rule: 'must not have the shape the description excludes here' };
    case 'false schema':
      return { path, rule: 'is not allowed here' };
    default:
      return withExample(error.message ?? `breaks the rule ${error.keyword}`);
  }
}

/** A union: one line naming what each variant wants; the example fits the first variant that has one. */
function unionBreach(path: string, variants: unknown, defs: Defs): Breach {
  const list = Array.isArray(variants) ? variants.map((variant) => resolve(variant, defs)) : [];
  // The arguments' own alternatives (a body that needs file_ids or files).
  if (path === '' && list.every((variant) => isSchema(variant) && Array.isArray(variant['required']))) {
    const names = list.map((variant) => ((variant as Schema)['required'] as string[]).join(' and '));
    return { path: 'arguments', rule: `need ${names.join(', or ')}` };
  }
  const shapes = [...new Set(list.map((variant) => shapeWords(variant, defs)))];
  const example = list.map((variant) => exampleOf(variant, defs)).find((value) => value !== undefined);
  return { path, rule: `must be ${shapes.join(', or ')}`, ...exampleField(example) };
}

function shapeWords(schema: unknown, defs: Defs): string {
  const node = resolve(schema, defs);
  if (!isSchema(node)) return 'any value';
  if (Array.isArray(node['enum'])) return `one of ${listValues(node['enum'])}`;
  if (node['const'] !== undefined) return JSON.stringify(node['const']);
  const fields = Object.keys(fieldsOf(node, defs));
  const required = Array.isArray(node['required']) ? (node['required'] as string[]) : [];
  if (typeOf(node) === 'object' || fields.length > 0) {
    if (required.length > 0) return `an object with ${listNames(required)}`;
    return fields.length > 0 ? `an object with fields such as ${listNames(fields.slice(0, 5))}` : 'an object';
  }
  if (typeof node['format'] === 'string' && FORMAT_WORDS[node['format']]) return FORMAT_WORDS[node['format']] as string;
  const types = Array.isArray(node['type'])
    ? (node['type'] as string[])
    : typeof node['type'] === 'string'
      ? [node['type']]
      : [];
  return types.length > 0 ? typeWords(types) : 'a value of another shape';
}

/** The properties a schema declares, its `allOf` parts' included. */
function fieldsOf(schema: unknown, defs: Defs, depth = 0): Record<string, unknown> {
  const node = resolve(schema, defs);
  if (!isSchema(node) || depth > 8) return {};
  const fields: Record<string, unknown> = {};
  for (const part of Array.isArray(node['allOf']) ? node['allOf'] : [])
    Object.assign(fields, fieldsOf(part, defs, depth + 1));
  if (isSchema(node['properties'])) Object.assign(fields, node['properties']);
  return fields;
}

/** The type a schema or its `allOf` parts give, else `object` when they declare properties. */
function typeIn(node: Schema, defs: Defs, depth = 0): string | undefined {
  const own = typeOf(node);
  if (own !== undefined || depth > 8) return own;
  for (const part of Array.isArray(node['allOf']) ? node['allOf'] : []) {
    const resolved = resolve(part, defs);
    const type = isSchema(resolved) ? typeIn(resolved, defs, depth + 1) : undefined;
    if (type !== undefined) return type;
  }
  return Object.keys(fieldsOf(node, defs)).length > 0 ? 'object' : undefined;
}

/** The required fields of a schema and of its `allOf` parts. */
function requiredOf(schema: unknown, defs: Defs, depth = 0): string[] {
  const node = resolve(schema, defs);
  if (!isSchema(node) || depth > 8) return [];
  const own = Array.isArray(node['required']) ? (node['required'] as string[]) : [];
  const parts = Array.isArray(node['allOf']) ? node['allOf'].flatMap((part) => requiredOf(part, defs, depth + 1)) : [];
  return [...new Set([...own, ...parts])];
}

function typeOf(schema: Schema): string | undefined {
  const type = schema['type'];
  if (typeof type === 'string') return type;
  return Array.isArray(type) ? (type.find((item) => item !== 'null') as string | undefined) : undefined;
}

/**
 * A value the schema accepts: its const, example, first allowed value or default, else one built from its type,
 * format and bounds. Undefined when no value is known (a pattern without example).
 */
export function exampleOf(schema: unknown, defs: Defs, depth = 0): unknown {
  // Any value will do (a readOnly field some other part requires): text is as good as any.
  if (schema === true) return 'xxx';
  const node = resolve(schema, defs);
  if (!isSchema(node) || depth > 4) return undefined;
  if (node['const'] !== undefined) return node['const'];
  if (Array.isArray(node['examples']) && node['examples'].length > 0) return node['examples'][0];
  if (Array.isArray(node['enum'])) return node['enum'].find((value) => value !== null) ?? node['enum'][0];
  if (Array.isArray(node['anyOf'])) {
    for (const variant of node['anyOf']) {
      const value = exampleOf(variant, defs, depth + 1);
      if (value !== undefined) return value;
    }
  }
  const type = typeIn(node, defs);
  // `allOf` parts of a scalar: the first that gives a value (the others only narrow it).
  if (type !== 'object' && Array.isArray(node['allOf'])) {
    for (const part of node['allOf']) {
      const value = exampleOf(part, defs, depth + 1);
      if (value !== undefined && (value === null || typeof value !== 'object')) return value;
    }
  }
  const format = typeof node['format'] === 'string' ? FORMAT_EXAMPLES[node['format']] : undefined;
  switch (type) {
    case 'string':
      if (typeof format === 'string') return format;
      return node['pattern'] === undefined ? stringExample(node) : undefined;
    case 'integer':
    case 'number':
      return numberExample(node, type === 'integer');
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const item = exampleOf(node['items'], defs, depth + 1);
      const count = Math.min(Number(node['minItems'] ?? 1) || 1, 3);
      return item === undefined
        ? Number(node['minItems'] ?? 0) > 0
          ? undefined
          : []
        : Array.from({ length: count }, () => item);
    }
    case 'object': {
      const fields = fieldsOf(node, defs);
      const out: Record<string, unknown> = {};
      for (const name of requiredOf(node, defs)) {
        const value = exampleOf(fields[name], defs, depth + 1);
        if (value === undefined) return undefined;
        Object.defineProperty(out, name, { value, enumerable: true });
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** `xxx`, or as many x as `minLength` asks for. */
function stringExample(node: Schema): string | undefined {
  const length = Math.max(Number(node['minLength'] ?? 0), Math.min(3, Number(node['maxLength'] ?? 3)));
  return length <= MAX_EXAMPLE_CHARS ? 'x'.repeat(length) : undefined;
}

/** `count(3, 'item')` → `3 items`. */
function count(limit: unknown, noun: string): string {
  return `${String(limit)} ${noun}${limit === 1 ? '' : 's'}`;
}

/** For a bound: the valid value closest to it (100 for `maximum: 100`), when the schema's other rules allow it. */
function nearestNumber(schema: Schema, keyword: string, limit: unknown): number | undefined {
  if (typeof limit !== 'number' || schema['multipleOf'] !== undefined || schema['enum'] !== undefined) return undefined;
  const step = typeOf(schema) === 'integer' ? 1 : 0.5;
  const value = keyword === 'exclusiveMinimum' ? limit + step : keyword === 'exclusiveMaximum' ? limit - step : limit;
  const within = (bound: string, test: (other: number) => boolean) =>
    typeof schema[bound] !== 'number' || test(schema[bound] as number);
  const fits =
    within('minimum', (other) => value >= other) &&
    within('maximum', (other) => value <= other) &&
    within('exclusiveMinimum', (other) => value > other) &&
    within('exclusiveMaximum', (other) => value < other);
  return fits && (step === 0.5 || Number.isInteger(value)) ? value : undefined;
}

/** For a string that is too long: the string cut to the limit, when no pattern or format constrains it further. */
function truncated(error: ErrorObject, schema: Schema): string | undefined {
  const value = error.data;
  if (typeof value !== 'string' || typeof error.params['limit'] !== 'number' || schema['pattern'] !== undefined)
    return undefined;
  if (schema['format'] !== undefined || schema['enum'] !== undefined || Array.isArray(schema['examples']))
    return undefined;
  return [...value].slice(0, error.params['limit']).join('');
}

function numberExample(node: Schema, integer: boolean): number {
  const bound = (keyword: string) => (typeof node[keyword] === 'number' ? (node[keyword] as number) : undefined);
  const step = integer ? 1 : 0.5;
  const low =
    bound('minimum') ??
    (bound('exclusiveMinimum') !== undefined ? (bound('exclusiveMinimum') as number) + step : undefined);
  const high =
    bound('maximum') ??
    (bound('exclusiveMaximum') !== undefined ? (bound('exclusiveMaximum') as number) - step : undefined);
  let value = low ?? (high !== undefined ? Math.min(1, high) : 1);
  if (integer) value = Math.ceil(value);
  const multiple = bound('multipleOf');
  if (multiple && multiple > 0) value = Math.ceil(value / multiple) * multiple;
  return value;
}

export function typeWords(types: string[]): string {
  const words: Record<string, string> = {
    string: 'a string',
    integer: 'an integer',
    number: 'a number',
    boolean: 'true or false',
    object: 'an object',
    array: 'an array',
    null: 'null',
  };
  return types.map((type) => words[type] ?? type).join(' or ');
}

function listValues(values: unknown): string {
  const list = Array.isArray(values) ? values : [];
  const shown = list.slice(0, MAX_LISTED).map((value) => JSON.stringify(value));
  return list.length > MAX_LISTED ? `${shown.join(', ')} … (${list.length} values)` : shown.join(', ');
}

function listNames(names: string[]): string {
  const shown = names.slice(0, MAX_LISTED * 2).map(keyText);
  return names.length > shown.length ? `${shown.join(', ')} …` : shown.join(', ');
}

/** A field name as a path segment: bare when it reads as one, else quoted. */
function keyText(name: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(name) ? name : JSON.stringify(name);
}

/** `/body/config/url` → `body.config.url`; array positions as `[0]`. */
function pathText(pointer: string, data: unknown): string {
  if (pointer === '') return '';
  let text = '';
  let current = data;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      text += `[${segment}]`;
      current = current[Number(segment)];
    } else {
      text += text === '' ? segment : `.${keyText(segment)}`;
      current = isSchema(current) && Object.hasOwn(current, segment) ? current[segment] : undefined;
    }
  }
  return text;
}

function shorten(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** `{ example }` when there is one. */
export function exampleField(value: unknown): { example?: unknown } {
  return value === undefined ? {} : { example: value };
}

/** The tool result's text: what is wrong with which argument, a value that would do, and that nothing was sent. */
export function breachMessage(tool: string, action: string, breaches: Breach[]): string {
  const subject = action ? `action ${action} of ${tool}` : tool;
  const lines = breaches.slice(0, MAX_BREACHES).map((breach) => {
    const example =
      breach.example === undefined
        ? ''
        : ` For example: ${shorten(JSON.stringify(breach.example), MAX_EXAMPLE_CHARS)}.`;
    return `- ${breach.path} ${breach.rule}.${example}`;
  });
  const more = breaches.length > MAX_BREACHES ? [`- … and ${breaches.length - MAX_BREACHES} more.`] : [];
  const rules = breaches.length === 1 ? 'a rule' : `${breaches.length} rules`;
  return [
    `Nothing was sent to the API: the arguments of ${subject} break ${rules} of the API description.`,
    ...lines,
    ...more,
    'Correct the arguments and call again.',
  ].join('\n');
}
