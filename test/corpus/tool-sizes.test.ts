import { describe, expect, it } from 'vitest';
import { CORPUS, corpusOptions } from '../helpers/corpus.js';
import { toolSizeMismatches } from '../helpers/tool-sizes.js';

/**
 * Every tool the budget search sizes, on every vendor description, at every detail level: the builder's tool and the
 * characters the search reads are those of a build from scratch (test/helpers/tool-sizes.ts).
 */
describe.each(CORPUS)('$name', (entry) => {
  it('sizes every tool the search tries as a build from scratch', async () => {
    const { sized, mismatches } = await toolSizeMismatches(corpusOptions(entry));
    // Descriptions of webhooks only have no operation, so no tool to size.
    expect(sized > 0).toBe(entry.operations > 0);
    expect(mismatches.slice(0, 5)).toEqual([]);
  });
});
