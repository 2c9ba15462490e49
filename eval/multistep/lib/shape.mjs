// Does a scripted response have the API's own shape? Stricter than the first-call truth check, because a response is
// a whole value: required fields present, no field an object closes out (`additionalProperties: false`), types,
// enums and patterns. Alternatives (oneOf, anyOf, and Slack's habit of writing them as an `items` list on a schema
// that is no array) fit when one branch fits; allOf parts must all fit.
import { deref } from '../../lib/description.mjs';

/**
 * The problems of `value` against `schema`, as text (`where` is the JSON path); an empty list when it fits. With
 * `placeholders`, a `"{{name}}"` string fits any string.
 */
export function shapeProblems(doc, rawSchema, value, where = '$', options = {}) {
  const schema = deref(doc, rawSchema);
  if (!schema || typeof schema !== 'object') return [];
  const alternatives = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  if (Array.isArray(schema.items) && schema.type !== 'array') alternatives.push(...schema.items);
  if (alternatives.length > 0) {
    const own = { ...schema, oneOf: undefined, anyOf: undefined, items: Array.isArray(schema.items) ? undefined : schema.items };
    const ownProblems = hasConstraints(own) ? shapeProblems(doc, own, value, where, options) : [];
    const branches = alternatives.map((branch) => shapeProblems(doc, branch, value, where, options));
    if (branches.some((problems) => problems.length === 0)) return ownProblems;
    return [...ownProblems, ...branches.sort((a, b) => a.length - b.length)[0]];
  }
  const problems = (schema.allOf ?? []).flatMap((part) => shapeProblems(doc, part, value, where, options));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 0 && !types.some((type) => fitsType(type, value)) && !(value === null && schema.nullable)) {
    return [...problems, `${where}: ${describe(value)} where the description has ${types.join('|')}`];
  }
  // A rule's `"{{name}}"` stands for the argument the request sends; its value is checked where a request fills it.
  if (options.placeholders && typeof value === 'string' && /^\{\{.+\}\}$/.test(value)) return problems;
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    problems.push(`${where}: ${JSON.stringify(value)} is not one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`);
  }
  if (typeof value === 'string' && typeof schema.pattern === 'string' && !safeRegExp(schema.pattern).test(value)) {
    problems.push(`${where}: ${JSON.stringify(value)} breaks the pattern ${schema.pattern}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      problems.push(`${where}: fewer than ${schema.minItems} items`);
    if (schema.items && !Array.isArray(schema.items)) {
      value.forEach((item, index) => problems.push(...shapeProblems(doc, schema.items, item, `${where}[${index}]`, options)));
    }
  } else if (value && typeof value === 'object') {
    const properties = schema.properties ?? {};
    for (const name of schema.required ?? []) if (!(name in value)) problems.push(`${where}.${name}: required, missing`);
    for (const [key, inner] of Object.entries(value)) {
      if (key in properties) problems.push(...shapeProblems(doc, properties[key], inner, `${where}.${key}`, options));
      else if (schema.additionalProperties === false) problems.push(`${where}.${key}: no such field`);
      else if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
        problems.push(...shapeProblems(doc, schema.additionalProperties, inner, `${where}.${key}`, options));
    }
  }
  return problems;
}

function hasConstraints(schema) {
  return ['type', 'properties', 'required', 'enum', 'pattern', 'allOf'].some((key) => schema[key] !== undefined);
}

function fitsType(type, value) {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    default:
      return true;
  }
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function safeRegExp(pattern) {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return { test: () => true };
  }
}

/**
 * The schema a response of `status` must have: the status's own response, else `default`. Swagger 2.0 keeps it on
 * the response; OpenAPI 3 under `content`. Slack answers refusals with 200 and `ok: false`, described as `default`,
 * so a body that fails the status's schema is tried against `default` too.
 */
export function responseProblems(doc, operation, status, body, options = {}) {
  const responses = operation.responses ?? {};
  const candidates = [responses[String(status)], responses[`${String(status)[0]}XX`], responses.default]
    .map((response) => deref(doc, response))
    .filter(Boolean)
    .map((response) => deref(doc, response.schema ?? jsonContentSchema(response)))
    .filter(Boolean);
  if (candidates.length === 0) return [`${operation.key} describes no response for ${status}`];
  const results = candidates.map((schema) => shapeProblems(doc, schema, body, '$', options));
  return results.find((problems) => problems.length === 0) ?? results.sort((a, b) => a.length - b.length)[0];
}

function jsonContentSchema(response) {
  const content = response.content ?? {};
  const type = Object.keys(content).find((candidate) => /json/.test(candidate));
  return type ? content[type].schema : undefined;
}
