// Ranks the actions for a request over the index the generator built (MiniSearch: BM25+ over weighted fields), with
// the settings the index carries, and shows each family of one operation at different scopes as one result.

import MiniSearch, { type SearchOptions } from 'minisearch';
import { queryTermProcessor, queryText, termProcessor, tokenizer, type TermData } from './search-terms.js';

/** How to search, as the generator decided it (its src/search/search-index.ts). */
export type SearchSettings = {
  boost: Record<string, number>;
  prefixMinLength: number;
  weights: { prefix: number; fuzzy: number };
};

/** The serialised index (`src/search/index-data.ts`), parsed. */
export type SearchIndexData = {
  version: 2;
  fields: string[];
  search: SearchSettings;
  terms: TermData;
  /** Ids of actions that are one operation at different scopes (`/me/x` and `/users/{id}/x`). */
  families: string[][];
  index: unknown;
};

/** One result: the best-ranked action of its family, and the family's other members (best first). */
export type RankedAction = { id: string; variants: string[] };

/** A function from a request in plain words to at most `limit` results, best first. */
export type ActionRanker = (query: string, limit: number) => RankedAction[];

/**
 * What a request's first verb says about the safety class it wants: reading (`~read`, `~list`), or, for every other
 * intent (`~create`, `~remove`, `~reply`, `~start` …), changing something: a write or a deletion, since RPC APIs
 * remove with POST.
 */
const READING = new Set(['~read', '~list']);

/**
 * How much a match counts in an action whose safety class the request's verb rules out ("list the users" and
 * `create_user`): less, not nothing, as a request's verb can be loose ("get me a new token").
 */
const OTHER_CLASS = 0.6;

/** `depthOf`: how many segments an action's path has; `intentOf`: its safety class (read, write, delete). */
export function actionRanker(
  data: SearchIndexData,
  depthOf: (id: string) => number,
  intentOf: (id: string) => string | undefined,
): ActionRanker {
  const index = MiniSearch.loadJS(data.index as Parameters<typeof MiniSearch.loadJS>[0], {
    fields: data.fields,
    tokenize: tokenizer(data.terms),
    processTerm: termProcessor(data.terms),
  });
  const { boost, prefixMinLength, weights } = data.search;
  const options: SearchOptions = {
    boost,
    // Words that carry a digit are values (ids, versions, dates): they match only themselves.
    prefix: (term) => term.length >= prefixMinLength && !/\d/.test(term),
    weights,
  };
  const familyOf = new Map<string, string[]>();
  for (const family of data.families) for (const id of family) familyOf.set(id, family);

  const tokenize = tokenizer(data.terms);
  const intents = new Set(data.terms.intents);

  /** The safety classes the request's first verb rules out. */
  const ruledOut = (text: string): ((id: string) => boolean) => {
    const process = termProcessor(data.terms);
    for (const word of tokenize(text)) {
      const processed = process(word);
      const terms = processed === null ? [] : Array.isArray(processed) ? processed : [processed];
      const intent = terms.find((term) => intents.has(term));
      if (intent === undefined) continue;
      if (READING.has(intent)) return (id) => intentOf(id) !== 'read';
      return (id) => intentOf(id) === 'read';
    }
    return () => false;
  };

  return (query, limit) => {
    const text = queryText(query);
    const outOfClass = ruledOut(text);
    const ranked: RankedAction[] = [];
    const shown = new Map<string[], RankedAction>();
    const scoreOf = new Map<string, number>();
    for (const result of index.search(text, {
      ...options,
      processTerm: queryTermProcessor(data.terms),
      boostDocument: (id) => (outOfClass(String(id)) ? OTHER_CLASS : 1),
    })) {
      const id = String(result.id);
      scoreOf.set(id, result.score);
      const family = familyOf.get(id);
      if (family && shown.has(family)) continue;
      if (ranked.length === limit) {
        if (shown.size === 0) break;
        continue;
      }
      const entry = { id, variants: [] };
      ranked.push(entry);
      if (family) shown.set(family, entry);
    }
    // Every other member of a shown family: those that matched best first, then the shortest paths (the most direct
    // route to the operation), then in the family's own order.
    for (const [family, entry] of shown) {
      const others = family.filter((id) => id !== entry.id);
      const position = new Map(others.map((id, at) => [id, at]));
      entry.variants = others.sort(
        (a, b) =>
          (scoreOf.get(b) ?? 0) - (scoreOf.get(a) ?? 0) ||
          depthOf(a) - depthOf(b) ||
          (position.get(a) ?? 0) - (position.get(b) ?? 0),
      );
    }
    return ranked;
  };
}
