// Finds the actions that match a request: the full-text index the generator built over every action (MiniSearch,
// BM25 over weighted fields: names, summary, path words, tags, argument names, description), loaded once when the
// server starts.

import type { CallToolResult } from '@modelcontextprotocol/server';
import MiniSearch, { type SearchOptions } from 'minisearch';
import { catalog } from '../search/catalog.js';
import { searchIndexJson } from '../search/index-data.js';
import { termProcessor, tokenizer, type TermData } from './search-terms.js';
import type { CatalogEntry, InputSchema, SurfaceDefinition } from './search-types.js';

type SerializedIndex = { fields: string[]; boost: Record<string, number>; terms: TermData; index: unknown };

const data = JSON.parse(searchIndexJson) as SerializedIndex;
const index = MiniSearch.loadJS(data.index as Parameters<typeof MiniSearch.loadJS>[0], {
  fields: data.fields,
  tokenize: tokenizer(data.terms),
  processTerm: termProcessor(data.terms),
});

const options: SearchOptions = {
  boost: data.boost,
  // Longer words also match the words they begin (`react` → `reaction`), worth less than a whole word.
  prefix: (term) => term.length >= 5,
  weights: { prefix: 0.3, fuzzy: 0.2 },
};

const schemas = new Map<string, InputSchema>();

/** An action's input schema, parsed on first use. */
export function inputSchemaOf(id: string, entry: CatalogEntry): InputSchema {
  let schema = schemas.get(id);
  if (!schema) {
    schema = JSON.parse(entry.inputSchema) as InputSchema;
    schemas.set(id, schema);
  }
  return schema;
}

/** The action under an id, if there is one (an id such as `constructor` must not find Object's). */
export function actionOf(id: string): CatalogEntry | undefined {
  return Object.hasOwn(catalog, id) ? catalog[id] : undefined;
}

/** The best matches for a request, best first, with their ids. */
export function findActions(query: string, limit: number): Array<{ id: string; entry: CatalogEntry }> {
  const found: Array<{ id: string; entry: CatalogEntry }> = [];
  for (const result of index.search(query, options).slice(0, limit)) {
    const entry = actionOf(String(result.id));
    if (entry) found.push({ id: String(result.id), entry });
  }
  return found;
}

/** Characters per token of JSON, roughly: results are bounded in characters from the result token budget. */
const CHARS_PER_TOKEN = 4;

/**
 * `search_actions`: the matches with everything a model needs to call one next, best first. Matches past the
 * result budget (`<PREFIX>_MAX_RESULT_TOKENS`, counted once, as for every other result) are left out, and a note
 * says so.
 */
export function searchActions(
  args: Record<string, unknown>,
  names: SurfaceDefinition['names'],
  maxResultTokens: number,
): CallToolResult {
  const query = String(args['query'] ?? '');
  const limit = typeof args['limit'] === 'number' ? args['limit'] : 5;
  const found = findActions(query, limit);
  if (found.length === 0)
    return {
      content: [
        {
          type: 'text',
          text: `No action matches ${JSON.stringify(query)}. Search again with other words: the thing to act on and what to do with it.`,
        },
      ],
      structuredContent: { results: [] },
    };
  const results: Array<Record<string, unknown>> = [];
  let size = 0;
  for (const { id, entry } of found) {
    const result = {
      action: id,
      summary: entry.summary,
      method: entry.method.toUpperCase(),
      path: entry.path,
      call: names[entry.intent] ?? '',
      inputSchema: inputSchemaOf(id, entry),
    };
    size += JSON.stringify(result).length;
    if (results.length > 0 && size > maxResultTokens * CHARS_PER_TOKEN) break;
    results.push(result);
  }
  const left = found.length - results.length;
  const note = left > 0 ? ` ${left} more match${left === 1 ? '' : 'es'} left out to keep the answer short.` : '';
  return {
    content: [{ type: 'text', text: `${JSON.stringify({ results })}${note}` }],
    structuredContent: { results },
  };
}
