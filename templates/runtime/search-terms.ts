// How a search query becomes terms: the same splitting and stemming the generator used on the index (its
// src/search/search-terms.ts; a test of the generator keeps the two in step), with the stop words and synonym table
// the index carries.

import { stemmer } from 'stemmer';

/** Stop words and stem → extra terms (`kick` → `~remove`), as the generator wrote them into the index. */
export type TermData = { stopWords: string[]; expansions: Record<string, string[]> };

/** Splits text into words: camelCase and snake_case apart, accents dropped, letters and digits of any script kept. */
export function tokenize(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(?=\p{Lu}\p{Ll})/gu, '$1 ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The term processor MiniSearch runs on every word of a query. */
export function termProcessor(data: TermData): (word: string) => string | string[] | null {
  const stop = new Set(data.stopWords);
  const expansions = new Map(Object.entries(data.expansions));
  return (word) => {
    const lower = word.toLowerCase();
    if (stop.has(lower)) return null;
    const stem = stemmer(lower);
    const extra = expansions.get(stem);
    return extra ? [stem, ...extra] : stem;
  };
}
