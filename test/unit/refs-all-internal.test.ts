import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import { hasExternalRefs, refsAllInternal } from '../../src/load/data-refs.js';
import { parseText } from '../../src/load/parse-text.js';
import { isJsonObject } from '../../src/kernel/json.js';
import { REPO_ROOT } from '../helpers/paths.js';

/** Every description and fragment under test/fixtures, the files that multi-file descriptions refer to among them. */
function fixtureTexts(dir = path.join(REPO_ROOT, 'test/fixtures')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return fixtureTexts(file);
    return /\.(json|ya?ml)$/.test(entry.name) ? [file] : [];
  });
}

describe("a description's text read for external references", () => {
  it('answers that every reference is internal only where the walk over the parsed document finds none outside', () => {
    let internal = 0;
    for (const file of fixtureTexts()) {
      const text = readFileSync(file, 'utf8');
      const parsed = parseText(text, file, new Diagnostics());
      if (!isJsonObject(parsed) || !refsAllInternal(text)) continue;
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
