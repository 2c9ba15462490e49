import { describe, expect, it } from 'vitest';
import { contentHash } from '../../src/cache/content-hash.js';

describe('content hashes', () => {
  it('tell apart lists of parts that join to the same text', () => {
    expect(contentHash('ab', 'c')).not.toBe(contentHash('a', 'bc'));
    expect(contentHash('abc')).not.toBe(contentHash('ab', 'c'));
    expect(contentHash('1:a')).not.toBe(contentHash('1', 'a'));
  });

  it('tell a lone surrogate from U+FFFD, which are one and the same in UTF-8', () => {
    expect(contentHash('\ud800')).not.toBe(contentHash('\ufffd'));
    expect(contentHash('é 日本 😀')).toBe(contentHash('é 日本 😀'));
  });
});
