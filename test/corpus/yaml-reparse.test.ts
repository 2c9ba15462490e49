import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/corpus.js';
import { checkYamlEdits } from '../helpers/yaml-edits.js';

/**
 * A watch parses a save of a YAML description that changed inside one path item by parsing that item alone
 * (load/reparse-document.ts). On every YAML description of the corpus, random line edits inside its items — valid or
 * not — are each answered either by a whole parse or by a document equal to the whole parse's.
 */
describe.each(CORPUS.filter((entry) => /\.ya?ml$/.test(entry.spec)))('$name', (entry) => {
  it('reparses an edited path item as the whole YAML parse reads it', () => {
    const report = checkYamlEdits(readFileSync(entry.spec, 'utf8'), 100, entry.operations);
    expect(report.mismatches).toEqual([]);
  });
});
