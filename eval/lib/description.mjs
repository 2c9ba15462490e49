// Reading an OpenAPI description for the evaluation: its operations with their parameters and body schema (Swagger
// 2.0 and OpenAPI 3.x alike), local `$ref`s followed, and a recorded request resolved back to its operation.
import { readFileSync } from 'node:fs';
import YAML from 'yaml';

export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export function loadDescription(file) {
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  return file.endsWith('.json') ? JSON.parse(text) : YAML.parse(text, { maxAliasCount: -1, uniqueKeys: false });
}

/** Follows local `$ref`s (`#/…`) until a value that is not a reference; a cycle or a dangling ref gives undefined. */
export function deref(doc, node, seen = new Set()) {
  let current = node;
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (!ref.startsWith('#/') || seen.has(ref)) return undefined;
    seen.add(ref);
    current = ref
      .slice(2)
      .split('/')
      .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((value, key) => (value && typeof value === 'object' ? value[key] : undefined), doc);
  }
  return current;
}

/** Every operation: method (upper case), path template (without a `#fragment`), parameters by location, body. */
export function listOperations(doc) {
  const swagger2 = typeof doc.swagger === 'string';
  const operations = [];
  for (const [rawPath, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = deref(doc, rawItem) ?? {};
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation || typeof operation !== 'object') continue;
      const parameters = mergeParameters(doc, item.parameters, operation.parameters);
      const path = rawPath.replace(/#.*$/, '').replace(/\?.*$/, '');
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        summary: operation.summary,
        parameters,
        body: swagger2 ? swagger2Body(doc, parameters) : openapi3Body(doc, operation.requestBody),
      });
    }
  }
  return operations;
}

function mergeParameters(doc, pathLevel = [], operationLevel = []) {
  const byKey = new Map();
  for (const raw of [...pathLevel, ...operationLevel]) {
    const parameter = deref(doc, raw);
    if (!parameter || typeof parameter.name !== 'string') continue;
    const schema = parameter.schema ? deref(doc, parameter.schema) : parameter;
    byKey.set(`${parameter.in}:${parameter.name}`, {
      name: parameter.name,
      in: parameter.in,
      required: parameter.required === true,
      schema,
    });
  }
  return [...byKey.values()];
}

/** Swagger 2.0: a `body` parameter's schema, or the `formData` parameters as the properties of one object. */
function swagger2Body(doc, parameters) {
  const body = parameters.find((parameter) => parameter.in === 'body');
  if (body) return { mediaType: 'application/json', schema: deref(doc, body.schema) };
  const form = parameters.filter((parameter) => parameter.in === 'formData');
  if (form.length === 0) return undefined;
  return {
    mediaType: 'application/x-www-form-urlencoded',
    schema: {
      type: 'object',
      properties: Object.fromEntries(form.map((parameter) => [parameter.name, parameter.schema])),
      required: form.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    },
  };
}

function openapi3Body(doc, rawBody) {
  const body = deref(doc, rawBody);
  if (!body?.content) return undefined;
  const types = Object.keys(body.content);
  const mediaType = types.find((type) => /json/.test(type)) ?? types.find((type) => /form-urlencoded/.test(type)) ?? types[0];
  if (!mediaType) return undefined;
  return { mediaType, required: body.required === true, schema: deref(doc, body.content[mediaType]?.schema) };
}

function segmentPattern(segment) {
  const names = [];
  const source = segment
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const match = /^\{([^}]+)\}$/.exec(part);
      if (!match) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(match[1]);
      return '([^/]+)';
    })
    .join('');
  return { regex: new RegExp(`^${source}$`), names, literal: names.length === 0 ? 2 : source.replace(/\(\[\^\/\]\+\)/g, '') ? 1 : 0 };
}

/**
 * The operation a recorded request hits: method equal, every segment matching; where several match, the one with a
 * literal segment where the other has a variable wins (left to right). Returns the operation and its path values.
 */
export function resolveRequest(operations, method, rawPath) {
  const segments = rawPath.split('?')[0].split('/').slice(1);
  let best;
  for (const operation of operations) {
    if (operation.method !== method) continue;
    const templates = operation.path.split('/').slice(1);
    if (templates.length !== segments.length) continue;
    const values = {};
    const rank = [];
    let matched = true;
    for (let index = 0; index < templates.length && matched; index++) {
      const pattern = segmentPattern(templates[index]);
      const found = pattern.regex.exec(segments[index]);
      if (!found) matched = false;
      else {
        pattern.names.forEach((name, position) => (values[name] = safeDecode(found[position + 1])));
        rank.push(pattern.literal);
      }
    }
    if (!matched) continue;
    if (!best || compareRank(rank, best.rank) > 0) best = { operation, values, rank };
  }
  return best ? { operation: best.operation, pathParams: best.values } : undefined;
}

function compareRank(a, b) {
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return a[index] - b[index];
  return 0;
}

function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Path template variables, in order. */
export function pathVariables(template) {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
}
