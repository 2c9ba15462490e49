// How a search query becomes terms: the same splitting, idioms and stemming the generator used on the index (its
// src/search/search-terms.ts; a test of the generator keeps the two in step), with the stop words, idioms and
// synonym table the index carries.

import { stemmer } from 'stemmer';

/** Stop words, stem → extra terms (`kick` → `~remove`), idioms (`kick off` → `start`), as the generator wrote them. */
export type TermData = { stopWords: string[]; expansions: Record<string, string[]>; phrases: Record<string, string> };

/**
 * Splits text into words: camelCase and snake_case apart, accents dropped, letters and digits of any script kept,
 * idioms replaced first.
 */
export function tokenizer(data: TermData): (text: string) => string[] {
  const idioms = Object.keys(data.phrases).sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  // Each idiom's words, escaped, with any white space between them.
  const alternatives = idioms.map((idiom) => idiom.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
  const pattern =
    alternatives.length > 0
      ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'giu')
      : undefined;
  return (text) => {
    const words = text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(?=\p{Lu}\p{Ll})/gu, '$1 ');
    const plain = pattern
      ? words.replace(pattern, (idiom) => data.phrases[idiom.toLowerCase().replace(/\s+/g, ' ')] ?? idiom)
      : words;
    return plain.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  };
}

/** The term processor MiniSearch runs on every word of the index and of a query. */
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
