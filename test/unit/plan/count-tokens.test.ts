import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countToolTokens } from '../../../src/plan/budget/count-tokens.js';

const tool = (description: string) => ({
  name: 'pets_read',
  title: 'Pets: read',
  description,
  inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
  annotations: { readOnlyHint: true },
});

const exact = (value: ReturnType<typeof tool>) => countTokens(JSON.stringify(value), { disallowedSpecial: new Set() });

describe('o200k token counts of a tools/list entry', () => {
  it('are exact for ordinary text, even when the JSON runs long without spaces', () => {
    const words = tool('Lists pets. '.repeat(200));
    expect(countToolTokens(words)).toBe(exact(words));
    // With the JSON around it (`read","description":"`), a run of 960 characters: under the 1,000 counted in slices.
    const justUnder = tool(`${'a,'.repeat(460)}${'b'.repeat(19)} end`);
    expect(countToolTokens(justUnder)).toBe(exact(justUnder));
  });

  it('count a run of 1,000 characters without white space in slices, quickly', () => {
    const word = tool('x'.repeat(2_000_000));
    const started = performance.now();
    const count = countToolTokens(word);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(count).toBeGreaterThan(2_000_000 / 1_000);
  });

  it('treat non-ASCII white space as white space, as \\s does', () => {
    // U+00A0 and U+3000 break the run: 600 + 600 characters are not one run of 1,000, so the count is exact.
    for (const space of ['\u00a0', '\u3000', '\ufeff']) {
      const split = tool(`${'y'.repeat(600)}${space}${'y'.repeat(600)}`);
      expect(countToolTokens(split)).toBe(exact(split));
    }
  });
});
