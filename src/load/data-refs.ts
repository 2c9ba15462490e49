import { isJsonObject, setOwn, type JsonObject, type JsonValue, type SpecVersion } from './openapi-document.js';

/**
 * Keywords whose values are data wherever they stand (JSON Schema and OpenAPI). A `{ "$ref": … }` inside one is an
 * example payload or an allowed value, not a reference: GitHub's Enterprise Cloud description has example values
 * that hold `$ref`s to files it never published.
 */
const DATA_KEYWORDS = new Set(['example', 'default', 'enum', 'const']);

/** Maps whose keys are names chosen by the author, not keywords: a response named `default`, a property `enum`. */
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'dependentSchemas',
  'schemas',
  'responses',
  'parameters',
  'headers',
  'requestBodies',
  'securitySchemes',
  'securityDefinitions',
  'links',
  'callbacks',
  'pathItems',
  'paths',
  'webhooks',
  'content',
  'encoding',
  'variables',
]);

/** Stands in for `$ref` inside data while the bundler runs; it never leaves the load stage. */
const MASKED_REF = '\u0000openapi-to-mcp:$ref';

type DataVisitor = (data: JsonValue) => JsonValue;

/** Calls `visit` on every data value of the document and puts back what it returns. */
function rewriteData(node: JsonValue, version: SpecVersion, visit: DataVisitor, names = false): JsonValue {
  if (Array.isArray(node)) return node.map((item) => rewriteData(item, version, visit));
  if (!isJsonObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    let next: JsonValue;
    if (names) next = rewriteData(value, version, visit);
    else if (key.startsWith('x-') || DATA_KEYWORDS.has(key)) next = visit(value);
    else if (key === 'examples') next = rewriteExamples(value, version, visit);
    else next = rewriteData(value, version, visit, NAME_MAPS.has(key));
    setOwn(out, key, next);
  }
  return out;
}

/**
 * `examples` is data in a schema (a list) and in a Swagger 2.0 response (values by media type); in OpenAPI 3 it maps
 * names to Example objects (or references to them), whose `value` is data.
 */
function rewriteExamples(value: JsonValue, version: SpecVersion, visit: DataVisitor): JsonValue {
  if (Array.isArray(value) || version === '2.0' || !isJsonObject(value)) return visit(value);
  const out: JsonObject = {};
  for (const [name, example] of Object.entries(value)) {
    if (!isJsonObject(example)) {
      setOwn(out, name, example);
      continue;
    }
    const copy: JsonObject = {};
    for (const [key, field] of Object.entries(example)) setOwn(copy, key, key === 'value' || key.startsWith('x-') ? visit(field) : field);
    setOwn(out, name, copy);
  }
  return out;
}

function renameKeys(node: JsonValue, from: string, to: string): JsonValue {
  if (Array.isArray(node)) return node.map((item) => renameKeys(item, from, to));
  if (!isJsonObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) setOwn(out, key === from ? to : key, renameKeys(value, from, to));
  return out;
}

/** The document with every `$ref` key inside data renamed, so that a bundler leaves data alone. */
export function maskDataRefs(root: JsonObject, version: SpecVersion): JsonObject {
  return rewriteData(root, version, (data) => renameKeys(data, '$ref', MASKED_REF)) as JsonObject;
}

/** Undoes `maskDataRefs` on the bundled document (data the bundler never moves stays where it was). */
export function unmaskDataRefs(root: JsonObject, version: SpecVersion): JsonObject {
  return rewriteData(root, version, (data) => renameKeys(data, MASKED_REF, '$ref')) as JsonObject;
}

/** True when some `$ref` outside data and vendor extensions points at another document. */
export function hasExternalRefs(root: JsonObject, version: SpecVersion): boolean {
  let found = false;
  const scan = (node: JsonValue, names: boolean): void => {
    if (found) return;
    if (Array.isArray(node)) {
      for (const item of node) scan(item, false);
      return;
    }
    if (!isJsonObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (names) scan(value, false);
      else if (key === '$ref') found ||= typeof value === 'string' && !value.startsWith('#');
      else if (key === 'examples') scanExamples(value);
      else if (!key.startsWith('x-') && !DATA_KEYWORDS.has(key)) scan(value, NAME_MAPS.has(key));
      if (found) return;
    }
  };
  const scanExamples = (value: JsonValue): void => {
    if (Array.isArray(value) || version === '2.0' || !isJsonObject(value)) return;
    for (const example of Object.values(value)) {
      if (isJsonObject(example) && typeof example['$ref'] === 'string') found ||= !example['$ref'].startsWith('#');
    }
  };
  scan(root, false);
  return found;
}
