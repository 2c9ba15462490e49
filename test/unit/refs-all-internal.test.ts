import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import { hasExternalRefs, scanRefs } from '../../src/load/data-refs.js';

const refsAllInternal = (text: string) => scanRefs(text).allInternal;
import { parseText } from '../../src/load/parse-text.js';
import { isJsonObject, type JsonObject } from '../../src/kernel/json.js';
import { REPO_ROOT } from '../helpers/paths.js';

/** Every description and fragment under test/fixtures, the files that multi-file descriptions refer to among them. */
function fixtureTexts(dir = path.join(REPO_ROOT, 'test/fixtures')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return fixtureTexts(file);
    return /\.(json|ya?ml)$/.test(entry.name) ? [file] : [];
  });
}

/** The fixtures whose text parses to an object, with that object. */
function* parsedFixtures(): Generator<{ file: string; text: string; parsed: JsonObject }> {
  for (const file of fixtureTexts()) {
    const text = readFileSync(file, 'utf8');
    const parsed = parseText(text, file, new Diagnostics());
    if (isJsonObject(parsed)) yield { file, text, parsed };
  }
}

describe("a description's text read for external references", () => {
  it('answers that every reference is internal only where the walk over the parsed document finds none outside', () => {
    let internal = 0;
    for (const { file, text, parsed } of parsedFixtures()) {
      if (!refsAllInternal(text)) continue;
      internal++;
      for (const version of ['2.0', '3.0', '3.1'] as const) expect(hasExternalRefs(parsed, version), file).toBe(false);
    }
    expect(internal).toBeGreaterThan(20);
  });

  it('sees internal references written as JSON and as YAML', () => {
    expect(refsAllInternal('{"a": {"$ref": "#/components/schemas/A"}, "b": {"$ref" : "#/x"}}')).toBe(true);
    expect(refsAllInternal('a:\n  $ref: \'#/components/schemas/A\'\nb:\n  "$ref": "#/x"\nc: {$ref: \'#/y\'}\n')).toBe(true);
    expect(refsAllInternal('{"a": "no references"}')).toBe(true);
  });

  it('leaves everything else to the walk: other documents, escapes, the letters in prose, values written otherwise', () => {
    expect(refsAllInternal('{"a": {"$ref": "other.json#/A"}}')).toBe(false);
    expect(refsAllInternal('a:\n  $ref: ./other.yaml\n')).toBe(false);
    expect(refsAllInternal('{"a": {"\\u0024ref": "other.json"}}')).toBe(false);
    expect(refsAllInternal('a:\n  "\\x24ref": other.yaml\n')).toBe(false);
    expect(refsAllInternal('a:\n  "$r\\\n  ef": other.yaml\n')).toBe(false);
    expect(refsAllInternal('{"description": "a $ref names another schema", "b": {"$ref": "#/x"}}')).toBe(false);
    expect(refsAllInternal('a:\n  $ref: " #/x"\n')).toBe(false);
    expect(refsAllInternal('a:\n  $ref: !!str other.yaml\n')).toBe(false);
  });
});

/**
 * Whether any `$ref` in a parsed value names `paths` or escapes a character: what cache/path-item-replay.ts walks for.
 * Each object once: YAML aliases share them (a fixture nests an alias bomb).
 */
function walkFindsPathRef(value: unknown, seen = new Set<object>()): boolean {
  if (typeof value !== 'object' || value === null || seen.has(value)) return false;
  seen.add(value);
  if (Array.isArray(value)) return value.some((inner) => walkFindsPathRef(inner, seen));
  return Object.entries(value).some(
    ([key, inner]) =>
      (key === '$ref' && typeof inner === 'string' && (inner.includes('paths') || inner.includes('%'))) || walkFindsPathRef(inner, seen),
  );
}

describe("a description's text read for references into paths", () => {
  it('answers that none may point into paths only where the walk over the parsed document finds none', () => {
    let none = 0;
    for (const { file, text, parsed } of parsedFixtures()) {
      if (!scanRefs(text).noneIntoPaths) continue;
      none++;
      expect(walkFindsPathRef(parsed), file).toBe(false);
    }
    expect(none).toBeGreaterThan(20);
  });

  it('sees every spelling of a reference into paths, and leaves to the walk what it cannot tell', () => {
    const into = [
      '{"a": {"$ref": "#/paths/~1c/get/parameters/0"}}',
      '{"a": {"$ref": "#/%70aths/x"}}',
      "a:\n  $ref: '#/paths/x'\n",
      "a:\n  $ref: '#/x''paths'\n",
      'a:\n  $ref: #/paths/x\n',
      '{"a": {"$ref": "#/x\\"paths"}}',
      '{"a": {"$ref": "#/x/unterminated',
      '{"description": "a $ref in prose", "b": {"$ref": "#/x"}}',
      '{"a": {"\\u0024ref": "#/x"}}',
    ];
    for (const text of into) expect(scanRefs(text).noneIntoPaths, text).toBe(false);
    const none = ['{"a": {"$ref": "#/components/schemas/Paths"}}', "a:\n  $ref: '#/components/schemas/A'\nb: paths\n", '{"a": 1}'];
    for (const text of none) expect(scanRefs(text).noneIntoPaths, text).toBe(true);
  });
});
