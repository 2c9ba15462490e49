import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { JsonObject } from '../../src/kernel/json.js';
import { CORPUS } from '../helpers/corpus.js';
import { expectItemChecksAgree } from '../helpers/path-item-edits.js';

/**
 * A watch validates a save that changed one path item by checking that item alone (load/save-validation.ts). On every
 * description of the corpus, as written (`$ref`s kept, as validation sees them), edits of its items checked that way
 * give the errors of the whole document's validation, in its order.
 */
describe.each(CORPUS)('$name', (entry) => {
  it('revalidates an edited path item as the whole document’s validation would', async () => {
    const text = readFileSync(entry.spec, 'utf8');
    const document = (entry.spec.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1 })) as JsonObject;
    if (document['paths'] === undefined) {
      // Webhooks only: no path item for a save to change.
      expect(document['webhooks']).toBeDefined();
      return;
    }
    expect(await expectItemChecksAgree(document)).toBeGreaterThan(0);
  });
});
