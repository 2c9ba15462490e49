import { createRequire } from 'node:module';
import type { Schema } from 'js-yaml';
import { Diagnostics } from '../diagnostics/diagnostic.js';
import { MAX_DOCUMENT_DEPTH } from './measure-document.js';
import type { PathItemSpan } from './path-item-spans.js';
import { isPlainBlockMapping, yamlPathItemSpans, type YamlEvents } from './yaml-path-item-spans.js';

type JsYaml = typeof import('js-yaml');

const require = createRequire(import.meta.url);
let yaml: { api: JsYaml; schema: Schema } | undefined;

/**
 * js-yaml, loaded on the first YAML text: a JSON description (most large ones) never needs it. The YAML 1.2 core
 * types plus merge keys; no timestamps, so `version: 2020-09-14` stays a string.
 */
function jsYaml(): { api: JsYaml; schema: Schema } {
  if (!yaml) {
    const api = require('js-yaml') as JsYaml;
    yaml = { api, schema: api.CORE_SCHEMA.withTags(api.mergeTag) };
  }
  return yaml;
}

/**
 * Parses JSON or YAML text. JSON goes through JSON.parse (fast on 10 MB documents); anything else through
 * js-yaml with the JSON-compatible core schema. Syntax errors become diagnostics with line and column.
 */
export function parseText(text: string, location: string, diagnostics: Diagnostics): unknown {
  return parseTextAs(text, location, diagnostics).value;
}

/**
 * parseText, saying also whether the whole text was JSON (JSON.parse read it, not the YAML parser), and, for YAML when
 * `yamlSpans` asks (a watch, to parse its next save an item at a time), where its path items are, if that can be
 * told for sure (load/yaml-path-item-spans.ts).
 */
export function parseTextAs(
  text: string,
  location: string,
  diagnostics: Diagnostics,
  { yamlSpans = false }: { yamlSpans?: boolean } = {},
): { value: unknown; json: boolean; spans?: PathItemSpan[] | undefined } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') {
    diagnostics.error('OTM_PARSE_ERROR', `${location} is empty.`);
    return { value: undefined, json: false };
  }
  if (looksLikeUtf16(body)) {
    diagnostics.error('OTM_PARSE_ERROR', `${location} is UTF-16 text; descriptions are read as UTF-8.`, {
      hint: 'Save the file as UTF-8 and run again (Windows PowerShell writes UTF-16 with `>`: use `Out-File -Encoding utf8` or `Set-Content -Encoding utf8`).',
    });
    return { value: undefined, json: false };
  }
  if (looksLikeJson(body)) {
    try {
      return { value: JSON.parse(body), json: true };
    } catch (error) {
      // A YAML flow mapping also starts with `{`; only report the JSON error when YAML fails too.
      const quiet = new Diagnostics();
      const asYaml = parseYaml(body, location, quiet, false);
      if (!quiet.hasErrors) {
        for (const item of quiet.items) diagnostics.add(item);
        return { value: asYaml.value, json: false };
      }
      const { line, column } = jsonErrorPosition(body, error);
      diagnostics.error('OTM_PARSE_ERROR', `${location} is not valid JSON: ${jsonErrorReason(error)}`, {
        line,
        column,
        hint: `Look at line ${line}, column ${column}.`,
      });
      return { value: undefined, json: false };
    }
  }
  // Offsets into the text without a byte order mark would not be offsets into the text.
  const { value, spans } = parseYaml(body, location, diagnostics, false, yamlSpans && body === text);
  return { value, json: false, ...(spans ? { spans } : {}) };
}

/**
 * UTF-16 read as UTF-8: its byte order mark (FF FE or FE FF) becomes two replacement characters, and text of ASCII
 * characters has a NUL beside each of them. No UTF-8 description starts so; both parsers would report a NUL or a
 * stray character at line 1 instead of the file's encoding.
 */
function looksLikeUtf16(body: string): boolean {
  return body.startsWith('\ufffd\ufffd') || body.slice(0, 4).includes('\0');
}

function parseYaml(
  body: string,
  location: string,
  diagnostics: Diagnostics,
  lenient: boolean,
  spans = false,
): { value: unknown; spans?: PathItemSpan[] | undefined } {
  const { api, schema } = jsYaml();
  // js-yaml's default depth limit (100) would refuse genuine descriptions that JSON.parse accepts; the measured
  // limit after parsing applies to both formats alike.
  const options = { filename: location, json: lenient, schema, maxDepth: MAX_DOCUMENT_DEPTH + 1 };
  try {
    if (!spans) return { value: api.load(body, options) };
    // What api.load does, keeping the events to find the path items in.
    const events = api.parseEvents(body, { filename: location, maxDepth: options.maxDepth });
    const documents = api.constructFromEvents(events, { filename: location, json: lenient, schema, source: body });
    // Not one document: api.load says so its own way.
    if (documents.length !== 1) return { value: api.load(body, options) };
    return { value: documents[0], spans: yamlPathItemSpans(events, body, yamlEvents(api)) };
  } catch (error) {
    if (!(error instanceof api.YAMLException)) throw error;
    const line = (error.mark?.line ?? 0) + 1;
    const column = (error.mark?.column ?? 0) + 1;
    if (!lenient && /duplicated mapping key/.test(error.reason)) {
      diagnostics.warn('OTM_VALIDATION', `${location} repeats a key at line ${line}; the last value wins.`, { line, column });
      // js-yaml's json mode lets later keys win, as JSON.parse does.
      return { value: parseYaml(body, location, diagnostics, true).value };
    }
    if (/nesting exceeded maxDepth/.test(error.reason)) {
      diagnostics.error('OTM_INPUT_TOO_COMPLEX', `${location} nests deeper than ${MAX_DOCUMENT_DEPTH} levels.`, {
        line,
        column,
        hint: 'Real descriptions nest far less; move deep structures into components joined by $ref.',
      });
      return { value: undefined };
    }
    diagnostics.error('OTM_PARSE_ERROR', `${location} is not valid YAML: ${error.reason}`, {
      line,
      column,
      hint: `Look at line ${line}, column ${column}.`,
    });
    return { value: undefined };
  }
}

/**
 * One path item's YAML text parsed alone — its key's line and the lines after it, as they stand in the description
 * (load/reparse-document.ts) — as the description's parse reads it: the item's value, or undefined when the text is
 * not a block mapping of `key` alone without anchors or aliases, or does not parse.
 */
export function parseYamlItem(text: string, key: string): unknown {
  const { api, schema } = jsYaml();
  try {
    const events = api.parseEvents(text, { maxDepth: MAX_DOCUMENT_DEPTH + 1 });
    if (!isPlainBlockMapping(events, yamlEvents(api))) return undefined;
    const documents = api.constructFromEvents(events, { schema, source: text });
    const item = documents[0];
    if (documents.length !== 1 || typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
    const keys = Object.keys(item);
    return keys.length === 1 && keys[0] === key ? (item as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

function yamlEvents(api: JsYaml): YamlEvents {
  return { ids: api.EVENT_ID, block: api.COLLECTION_STYLE.BLOCK, scalarValue: api.getScalarValue };
}

function looksLikeJson(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}

function jsonErrorReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/ in JSON at position \d+.*$/s, '').replace(/^Unexpected/, 'unexpected');
}

function jsonErrorPosition(text: string, error: unknown): { line: number; column: number } {
  const message = error instanceof Error ? error.message : '';
  const match = /position (\d+)/.exec(message);
  const offset = match ? Number(match[1]) : text.length;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { line, column };
}
