import { describe, expect, it } from 'vitest';
import { fixtureSpec } from '../../helpers/paths.js';
import { toolSizeMismatches } from '../../helpers/tool-sizes.js';

/**
 * The budget search sizes every tool it tries with builds that reuse parts kept between builds (projected schemas,
 * merged arguments, descriptions, action lists); its plans are only right if every size is the one a build from
 * scratch gives.
 * The corpus suite checks the same on every vendor description (test/corpus/tool-sizes.test.ts).
 */
describe('sizes the budget search reads', () => {
  it.each([
    ['redocly-museum.yaml', {}],
    ['redocly-museum.yaml', { budget: { maxToolTokens: 400, tokensPerOperation: 60, maxTotalTokens: 900 } }],
    ['oai-petstore-expanded.json', {}],
    ['openfinancebrasil-accounts.yaml', { budget: { maxToolTokens: 600, tokensPerOperation: 60, maxTotalTokens: 1500 } }],
    ['sentry-shaped.yaml', {}],
    ['oai-uspto.yaml', {}],
  ])('are those of the tools built from scratch, at every level (%s %j)', async (spec, settings) => {
    const { sized, mismatches } = await toolSizeMismatches({ spec: fixtureSpec(spec), ...settings });
    expect(sized).toBeGreaterThan(0);
    expect(mismatches).toEqual([]);
  });
});
