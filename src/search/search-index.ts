import { termData, termProcessor, tokenizer, type TermData } from './search-terms.js';
import { WrittenSearch } from './written-search.js';

/**
 * The full-text index over the catalog (MiniSearch: BM25+ over weighted fields), built here at generation time and
 * loaded by the generated server at start. Its serialised form carries everything the server needs to query it the
 * same way: the fields, the search settings, the term table and the scope families.
 */

/** What each action is found by, and how much a match in each field counts. */
export const FIELD_BOOSTS = {
  summary: 3,
  /**
   * The action's names (action name, operationId), the literal words of its path and its tags, in one field: they
   * repeat each other, and BM25 counts a word once per field it is in, so separate fields would reward repetition.
   */
  name: 1.5,
  /**
   * The path's last literal segment: the thing the action acts on (`…/issues/{issue_number}/comments` → comments).
   * Short, so BM25 ranks the action on the thing asked for above those on its parts (`/incidents/{id}` above
   * `/incidents/{id}/related_incidents` for "get an incident").
   */
  resource: 1.5,
  /** Argument names: "issue number 5" finds the actions that take `issue_number`. */
  params: 1,
  /** Names of the fields nested in the arguments and the values of their short enums (see schema-words.ts). */
  fields: 0.5,
  /** A verb for the HTTP method and intent (get, search, create, update, delete), with its synonyms. */
  verb: 1,
  /** The first sentence of the description, which usually says what the action does; the rest says how. */
  lead: 0.6,
  description: 0.3,
} as const;

export type SearchField = keyof typeof FIELD_BOOSTS;

/** `id` is the action's id (`tool.action`), which the index stores once per action. */
export type SearchDocument = { id: string } & Record<SearchField, string>;

/**
 * How the server searches, decided here so that the index and its use change together: field boosts; words of at
 * least `prefixMinLength` letters also match the longer words they begin (`react` → `reaction`), worth `prefix`.
 */
export type SearchSettings = {
  boost: Record<SearchField, number>;
  prefixMinLength: number;
  weights: { prefix: number; fuzzy: number };
};

export const SEARCH_SETTINGS: SearchSettings = {
  boost: { ...FIELD_BOOSTS },
  prefixMinLength: 5,
  weights: { prefix: 0.3, fuzzy: 0.2 },
};

/** The serialised index: what `src/search/index-data.ts` of a generated project holds as JSON text. */
export type SerializedIndex = {
  version: 2;
  fields: SearchField[];
  search: SearchSettings;
  terms: TermData;
  /** Ids of actions that are one operation at different scopes, shown as one result (see scope-families.ts). */
  families: string[][];
  index: unknown;
};

/** The serialised index and the number of distinct terms in it. */
export type BuiltIndex = { json: string; terms: number };

export function buildSearchIndex(documents: SearchDocument[], families: string[][]): BuiltIndex {
  const build = new SearchIndexBuild();
  for (const document of documents) build.add(document);
  return build.finish(families);
}

/** An index built a document at a time, in the catalog's order (the same index as `addAll` of the whole list). */
export class SearchIndexBuild {
  private readonly terms = termData();
  private readonly fields = Object.keys(FIELD_BOOSTS) as SearchField[];
  private readonly search = new WrittenSearch<SearchDocument>({
    fields: this.fields,
    tokenize: remembered(tokenizer(this.terms)),
    processTerm: remembered(termProcessor(this.terms)),
  });

  add(document: SearchDocument): void {
    this.search.add(document);
  }

  finish(families: string[][]): BuiltIndex {
    const { fields, terms, search } = this;
    // The index comes last: the rest written as JSON.stringify writes it, and the index's own text after it.
    const rest: Omit<SerializedIndex, 'index'> = { version: 2, fields, search: SEARCH_SETTINGS, terms, families };
    return { json: `${JSON.stringify(rest).slice(0, -1)},"index":${search.toJSONText()}}`, terms: search.termCount };
  }
}

/**
 * A pure function of a string, computed once per string: one operation at many scopes (Graph's `/me/messages` and
 * `/users/{user-id}/messages`) repeats its summary and description, and every document repeats common words.
 * MiniSearch only reads what these return.
 */
function remembered<T>(compute: (text: string) => T): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    let value = known.get(text);
    if (value === undefined && !known.has(text)) {
      value = compute(text);
      known.set(text, value);
    }
    return value as T;
  };
}
