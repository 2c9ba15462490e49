import MiniSearch from 'minisearch';
import { termData, termProcessor, tokenizer, type TermData } from './search-terms.js';

/**
 * The full-text index over the catalog (MiniSearch: BM25+ over weighted fields), built here at generation time and
 * loaded by the generated server at start. Its serialised form carries everything the server needs to query it the
 * same way: the fields, their weights and the term table.
 */

/** What each action is found by, and how much a match in each field counts. */
export const FIELD_BOOSTS = {
  summary: 3,
  /**
   * The action's names (action name, operationId), the literal words of its path and its tags, in one field: they
   * repeat each other, and BM25 counts a word once per field it is in, so separate fields would reward repetition.
   */
  name: 1.5,
  /** Argument names: "issue number 5" finds the actions that take `issue_number`. */
  params: 1,
  /** A verb for the HTTP method and intent (get, search, create, update, delete), with its synonyms. */
  verb: 1,
  description: 0.3,
} as const;

export type SearchField = keyof typeof FIELD_BOOSTS;

/** `id` is the action's id (`tool.action`), which the index stores once per action. */
export type SearchDocument = { id: string } & Record<SearchField, string>;

/** The serialised index: what `src/search/index-data.ts` of a generated project holds as JSON text. */
export type SerializedIndex = {
  version: 1;
  fields: SearchField[];
  boost: Record<SearchField, number>;
  terms: TermData;
  index: unknown;
};

export function buildSearchIndex(documents: SearchDocument[]): { json: string; terms: number } {
  const terms = termData();
  const fields = Object.keys(FIELD_BOOSTS) as SearchField[];
  const search = new MiniSearch<SearchDocument>({ fields, tokenize: tokenizer(terms), processTerm: termProcessor(terms) });
  search.addAll(documents);
  const serialized: SerializedIndex = { version: 1, fields, boost: { ...FIELD_BOOSTS }, terms, index: search.toJSON() };
  return { json: JSON.stringify(serialized), terms: search.termCount };
}
