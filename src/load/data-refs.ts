import { type SpecVersion } from './openapi-document.js';
import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../kernel/json.js';
import { skipWhiteSpace } from '../kernel/white-space.js';

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

/**
 * Walks the document's structure: `data(holder, key)` for every data value (`holder[key]`), `ref(target)` for every
 * `$ref` outside data, which may return true to stop the walk. Keys of name maps are names, never keywords; in an
 * OpenAPI 3 `examples` map each Example's `value` is data and its `$ref` a reference.
 */
function walk(
  node: JsonValue,
  version: SpecVersion,
  data: (holder: JsonObject, key: string) => void,
  ref: (target: JsonValue) => boolean,
  names = false,
): boolean {
  // Index loops and Object.keys rather than `some` and Object.entries: this walks every value of the document.
  if (Array.isArray(node)) {
    for (let index = 0; index < node.length; index++) if (walk(node[index] as JsonValue, version, data, ref)) return true;
    return false;
  }
  if (!isJsonObject(node)) return false;
  for (const key of Object.keys(node)) {
    const value = node[key] as JsonValue;
    if (names) {
      if (walk(value, version, data, ref)) return true;
    } else if (key === '$ref') {
      if (ref(value)) return true;
    } else if (key.startsWith('x-') || DATA_KEYWORDS.has(key)) data(node, key);
    else if (key === 'examples') {
      if (walkExamples(node, version, data, ref)) return true;
    } else if (walk(value, version, data, ref, NAME_MAPS.has(key))) return true;
  }
  return false;
}

/**
 * `examples` is data in a schema (a list) and in a Swagger 2.0 response (values by media type); in OpenAPI 3 it maps
 * names to Example objects (or references to them), whose `value` is data.
 */
function walkExamples(
  holder: JsonObject,
  version: SpecVersion,
  data: (holder: JsonObject, key: string) => void,
  ref: (target: JsonValue) => boolean,
): boolean {
  const examples = holder['examples'];
  if (Array.isArray(examples) || version === '2.0' || !isJsonObject(examples)) {
    data(holder, 'examples');
    return false;
  }
  for (const example of Object.values(examples)) {
    if (!isJsonObject(example)) continue;
    for (const key of Object.keys(example)) {
      if (key === '$ref') {
        if (ref(example[key] as JsonValue)) return true;
      } else if (key === 'value' || key.startsWith('x-')) data(example, key);
    }
  }
  return false;
}

function renameKeys(node: JsonValue, from: string, to: string): JsonValue {
  if (Array.isArray(node)) return node.map((item) => renameKeys(item, from, to));
  if (!isJsonObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) setOwn(out, key === from ? to : key, renameKeys(value, from, to));
  return out;
}

/** A copy of the document with every `$ref` key inside data renamed from `from` to `to`. */
function renameDataRefs(root: JsonObject, version: SpecVersion, from: string, to: string): JsonObject {
  const copy = structuredClone(root);
  walk(
    copy,
    version,
    (holder, key) => setOwn(holder, key, renameKeys(holder[key] as JsonValue, from, to)),
    () => false,
  );
  return copy;
}

/** The document with every `$ref` key inside data renamed, so that a bundler leaves data alone. */
export function maskDataRefs(root: JsonObject, version: SpecVersion): JsonObject {
  return renameDataRefs(root, version, '$ref', MASKED_REF);
}

/** Undoes `maskDataRefs` on the bundled document (data the bundler never moves stays where it was). */
export function unmaskDataRefs(root: JsonObject, version: SpecVersion): JsonObject {
  return renameDataRefs(root, version, MASKED_REF, '$ref');
}

/**
 * After a backslash, what could make JSON's and YAML's escapes spell `$ref` otherwise than as it is: `\u`, `\x`, `\U`,
 * and a line break escaped to join two lines.
 */
const SPELLING_ESCAPES = new Set(['u', 'x', 'U', '\r', '\n']);

/** What a text's `$ref`s show (scanRefs): all of them internal; none that may point into `paths`. */
export type RefScan = { allInternal: boolean; noneIntoPaths: boolean };

/**
 * What a description's text shows of its `$ref`s, in one scan: whether all point inside the document, so that the
 * walk for external ones is not needed (hasExternalRefs over GitHub's description in a fresh process: median 77 ms;
 * this scan of its text and 10,460 references: 18 ms; 10 runs each, load 5–7), and whether none may point into
 * `paths` — none whose value names `paths` or escapes a character (`%70aths`), as cache/path-item-replay.ts judges a
 * value.
 * Without escapes a `$ref` key is written out as it is, in JSON and YAML alike, and each occurrence of the letters
 * must be such a key with a `#…` value. Anything else — an escape anywhere, `$ref` in prose, a value that is not
 * written `#…` — answers false, and the walk decides. No regular expression runs over the text: V8 keeps the subject
 * of the last match (RegExp.lastMatch), and the text would outlive its parse (with regular expressions GitHub's peak
 * went from about 164 to 176 MB).
 */
export function scanRefs(text: string): RefScan {
  for (let at = text.indexOf('\\'); at >= 0; at = text.indexOf('\\', at + 2))
    if (SPELLING_ESCAPES.has(text.charAt(at + 1))) return { allInternal: false, noneIntoPaths: false };
  let allInternal = true;
  let noneIntoPaths = true;
  for (let at = text.indexOf('$ref'); at >= 0 && (allInternal || noneIntoPaths); at = text.indexOf('$ref', at + 4)) {
    const value = valueAt(text, at + 4);
    if (value < 0 || text.charAt(value) !== '#') allInternal = false;
    if (value < 0 || mayNamePaths(text, value)) noneIntoPaths = false;
  }
  return { allInternal, noneIntoPaths };
}

/** Where the value of a `$ref` key that ends at `from` starts (after its quote), or -1 when it is no such key. */
function valueAt(text: string, from: number): number {
  let at = skipQuote(text, from);
  at = skipWhiteSpace(text, at);
  if (text.charAt(at) !== ':') return -1;
  return skipQuote(text, skipWhiteSpace(text, at + 1));
}

/**
 * Whether a `$ref` value that starts at `from` may name `paths`: it does, or escapes a character (`%`, a backslash, a
 * doubled single quote), or it cannot be told where it ends. A quoted value ends at its quote, a plain one with its line.
 */
function mayNamePaths(text: string, from: number): boolean {
  const quote = text.charAt(from - 1);
  const quoted = quote === '"' || quote === "'";
  for (let at = from; at < text.length; at++) {
    const char = text.charAt(at);
    if (quoted ? char === quote : char === '\n' || char === '\r') return quoted && text.charAt(at + 1) === quote;
    if (char === '\\' || char === '%' || (char === 'p' && text.startsWith('paths', at))) return true;
  }
  return true;
}

function skipQuote(text: string, at: number): number {
  const char = text.charAt(at);
  return char === '"' || char === "'" ? at + 1 : at;
}

/** True when some `$ref` outside data and vendor extensions points at another document. */
export function hasExternalRefs(root: JsonObject, version: SpecVersion): boolean {
  return walk(
    root,
    version,
    () => undefined,
    (target) => typeof target === 'string' && !target.startsWith('#'),
  );
}
