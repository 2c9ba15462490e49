// How a search query becomes terms: the same splitting, idioms and stemming the generator used on the index (its
// src/search/search-terms.ts; a test of the generator keeps the two in step), with the stop words, idioms and
// synonym table the index carries.

import { stemmer } from 'stemmer';

/**
 * Stop words, stem → extra terms (`kick` → `~remove`), the concepts that say what to do (`~remove` …), the verbs
 * that stand for their intent alone, idioms (`kick off` → `start`), as the generator wrote them.
 */
export type TermData = {
  stopWords: string[];
  expansions: Record<string, string[]>;
  intents: string[];
  synonyms: string[];
  phrases: Record<string, string>;
};

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

/**
 * What of a request is searched for: the words that say what to do and to what. A value names no action and only
 * pulls in actions that happen to share a word with it, so values are left out, or replaced by the kind of thing
 * they are where that says something about the action (one that takes a URL, a file): quoted text (a title, a
 * message), `owner/name` slugs and file paths, e-mail addresses, ids, dates and versions (a word with a digit that is long
 * or has punctuation inside: `Q2HDKL4PXL1ZN9`, `2026-12-15`, `v3.2.0-rc.1`; short names such as `s3` or `oauth2`
 * stay) are left out; URLs become `url`, file names `file`.
 */
export function queryText(text: string): string {
  return text
    .replace(/"[^"]*"|\u201c[^\u201d]*\u201d|\u2018[^\u2019]*\u2019|\u00ab[^\u00bb]*\u00bb|`[^`]*`/g, ' ')
    .replace(/(^|[\s(\[:])'[^']*'(?=$|[\s)\].,;:!?])/g, '$1 ')
    .split(/\s+/)
    .map(valueKind)
    .join(' ');
}

const FILE_NAME =
  /\.(?:md|txt|pdf|ya?ml|json|csv|tsv|xml|html?|png|jpe?g|gif|svg|zip|gz|tar|docx?|xlsx?|pptx?|js|ts|py|rb|go|java|sh|log)$/i;

/** The word, or the kind of value it is (`url`, `file`), or nothing for a value of no telling kind. */
function valueKind(word: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) return 'url';
  // A path of the API (`/repos/{owner}/{repo}/issues`) names an action: kept, unlike a slug (`octo-org/widget-kit`).
  if (word.startsWith('/')) return word;
  const inner = word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(inner)) return '';
  if (FILE_NAME.test(inner) && !inner.includes('/')) return 'file';
  if (inner.includes('/')) return '';
  if (/\p{N}/u.test(inner) && (inner.length > 6 || /[^\p{L}\p{N}]/u.test(inner) || !/\p{L}/u.test(inner))) return '';
  return word;
}

/** The term processor MiniSearch runs on every word of the index: the stem and the terms the table adds to it. */
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

/**
 * The term processor of one query (one per query: it remembers what it has seen). The first verb stands for its
 * intent (`~remove`) and, unless it is a plain synonym of it (`erase`, `delete`), for its own stem too (`rename`);
 * a later verb, often a participle that qualifies a noun ("the messages posted in #general"), stands only for its
 * own stem. Other words are processed as in the index. A term counts once, however often the request repeats it.
 */
export function queryTermProcessor(data: TermData): (word: string) => string | string[] | null {
  const index = termProcessor(data);
  const intents = new Set(data.intents);
  const synonyms = new Set(data.synonyms);
  const seen = new Set<string>();
  let intentSeen = false;
  const unseen = (terms: string[]) => {
    const fresh = terms.filter((term) => !seen.has(term));
    for (const term of fresh) seen.add(term);
    return fresh.length > 0 ? fresh : null;
  };
  return (word) => {
    const processed = index(word);
    const terms = processed === null ? [] : Array.isArray(processed) ? processed : [processed];
    if (!terms.some((term) => intents.has(term))) return unseen(terms);
    const [stem = '', ...extra] = terms;
    if (intentSeen) return unseen([stem, ...extra.filter((term) => !intents.has(term))]);
    intentSeen = true;
    return unseen(synonyms.has(stem) ? extra : terms);
  };
}
