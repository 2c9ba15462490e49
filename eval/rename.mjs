#!/usr/bin/env node
// Renames every domain word of Slack's Web API description (rename-map.json) into invented words, consistently — in
// paths, operationIds, tags, summaries, descriptions, parameter and property names, enums, examples, schema and
// security names — so that the evaluation has an API no model knows by heart. Structural words of OpenAPI itself
// (`type: file`, `in: formData`, formats, media types, patterns) are left alone. The result is written, not committed.
//
//   node eval/rename.mjs [<slack-web.json> [<out.json>]]    default: the corpus copy → eval/.work/specs/murmel-web.json
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MAP = JSON.parse(readFileSync(path.join(HERE, 'rename-map.json'), 'utf8')).words;

/** Object keys that are names chosen by the API's authors (renamed), under these parent keys. */
const NAME_MAPS = new Set(['paths', 'properties', 'definitions', 'parameters', 'responses', 'securityDefinitions', 'scopes']);
/** String values that belong to OpenAPI or JSON Schema, never renamed. */
const STRUCTURAL_VALUES = new Set([
  'type',
  'format',
  'in',
  'collectionFormat',
  'swagger',
  'consumes',
  'produces',
  'pattern',
  'flow',
  'schemes',
]);

const sources = Object.keys(MAP).sort((a, b) => b.length - a.length);
const forms = (transform) => sources.map(transform).join('|');
// A word starts after a non-letter or at a lower→upper case step, and ends before a lower-case letter does not follow.
const WORD = new RegExp(
  `(?<![A-Za-z])(${forms((word) => word)}|${forms(capitalise)}|${forms((word) => word.toUpperCase())})(?![a-z])|(?<=[a-z0-9])(${forms(capitalise)})(?![a-z])`,
  'g',
);

function capitalise(word) {
  return word[0].toUpperCase() + word.slice(1);
}

/** Replaces each map word, keeping its case pattern (lower, Capitalised, UPPER). */
export function renameText(text) {
  return text.replace(WORD, (match) => {
    const target = MAP[match.toLowerCase()];
    if (match === match.toUpperCase() && match.length > 1) return target.toUpperCase();
    if (match[0] === match[0].toUpperCase()) return capitalise(target);
    return target;
  });
}

/** The words of a text as the metrics and a reader see them: split at non-letters and camel-case steps. */
function wordsOf(text) {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

function renameNode(node, parentKey) {
  if (Array.isArray(node)) return node.map((item) => renameNode(item, parentKey));
  if (node && typeof node === 'object') {
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      const renamedKey = NAME_MAPS.has(parentKey) || parentKey === 'security' ? renameText(key) : key;
      out[renamedKey] = renameNode(value, key);
    }
    return out;
  }
  if (typeof node === 'string' && !STRUCTURAL_VALUES.has(parentKey)) return renameText(node);
  return node;
}

const BASE64 = /^(?=.*[0-9])[A-Za-z0-9+/]{12,}={0,2}$/;

/** Map words still present in the renamed document's text (outside structural values). */
function leftovers(doc) {
  const found = new Map();
  const visit = (node, parentKey) => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, parentKey));
    if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (NAME_MAPS.has(parentKey)) count(key);
        visit(value, key);
      }
    } else if (typeof node === 'string' && !STRUCTURAL_VALUES.has(parentKey)) count(node);
  };
  const count = (text) => {
    if (BASE64.test(text)) return; // cursors and ids in examples: letters by chance, not words
    for (const word of wordsOf(text)) if (word in MAP) found.set(word, (found.get(word) ?? 0) + 1);
  };
  visit(doc);
  return found;
}

export function renameSlack(input, output) {
  const original = JSON.parse(readFileSync(input, 'utf8'));
  const renamed = renameNode(original, undefined);
  const left = leftovers(renamed);
  if (left.size > 0) throw new Error(`words left after renaming: ${[...left].map(([word, n]) => `${word} ×${n}`).join(', ')}`);
  mkdirSync(path.dirname(output), { recursive: true });
  writeFileSync(output, `${JSON.stringify(renamed, null, 2)}\n`);
  return renamed;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { specsDir } = await import('./lib/apis.mjs');
  const input = process.argv[2] ?? path.join(specsDir(), 'slack-web.json');
  const output = process.argv[3] ?? path.join(HERE, '.work/specs/murmel-web.json');
  const renamed = renameSlack(input, output);
  console.log(`${output}: ${Object.keys(renamed.paths).length} paths, title "${renamed.info.title}"`);
}
