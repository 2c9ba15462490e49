// Finds the actions that match a request: the full-text index the generator built over every action (MiniSearch,
// BM25 over weighted fields: names, summary, path words, tags, arguments, description), loaded once when the server
// starts, and ranked by search-ranking.ts.

import type { CallToolResult } from '@modelcontextprotocol/server';
import { catalog } from '../../search/catalog.js';
import { searchIndexJson } from '../../search/index-data.js';
import { offeredPerUser } from '../calls/per-user-tools.js';
import { actionRanker, type SearchIndexData } from './search-ranking.js';
import type { CatalogEntry, InputSchema, SurfaceDefinition } from './search-types.js';

const rank = actionRanker(
  JSON.parse(searchIndexJson) as SearchIndexData,
  (id) => actionOf(id)?.path.split('/').length ?? 0,
  (id) => actionOf(id)?.intent,
);

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

export type Found = { id: string; entry: CatalogEntry; variants: Array<{ id: string; entry: CatalogEntry }> };

/**
 * The best matches for a request, best first, each with the other members of its family (see search-ranking.ts).
 * `perUser`: only the actions the per-user upstream modes offer (per-user-tools.ts), so a search never proposes one
 * that would have to act as the server itself.
 */
export function findActions(query: string, limit: number, perUser = false): Found[] {
  const found: Found[] = [];
  const offered = (entry: CatalogEntry) => !perUser || offeredPerUser(entry.tool, entry.action);
  // The ranking knows nothing of the mode: ask for more, so that the actions left out do not shorten the answer.
  for (const result of rank(query, perUser ? limit * 8 : limit)) {
    const entry = actionOf(result.id);
    if (!entry || !offered(entry)) continue;
    const variants = result.variants.flatMap((id) => {
      const variant = actionOf(id);
      return variant && offered(variant) ? [{ id, entry: variant }] : [];
    });
    found.push({ id: result.id, entry, variants });
    if (found.length >= limit) break;
  }
  return found;
}

/** Most variants listed under one result; a family can have dozens (Microsoft Graph's navigation paths). */
const MAX_VARIANTS = 8;

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
  perUser = false,
): CallToolResult {
  const query = String(args['query'] ?? '');
  const limit = typeof args['limit'] === 'number' ? args['limit'] : 5;
  const found = findActions(query, limit, perUser);
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
  for (const { id, entry, variants } of found) {
    const schema = inputSchemaOf(id, entry);
    const listed = variants
      .slice(0, MAX_VARIANTS)
      .map((variant) => variantOf(variant.id, variant.entry, entry, schema));
    const result = {
      action: id,
      summary: entry.summary,
      method: entry.method.toUpperCase(),
      path: entry.path,
      call: names[entry.intent] ?? '',
      inputSchema: schema,
      ...(listed.length > 0 ? { variants: listed } : {}),
      ...(variants.length > listed.length ? { moreVariants: variants.length - listed.length } : {}),
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

/**
 * A member of a result's family as the result lists it: the same operation at another path, with what its arguments
 * differ in from the result's (`arguments`: added or changed, `without`: left out, `required` when it differs; its
 * whole `inputSchema` when a changed argument refers to shared definitions), so a model can call it without
 * searching again.
 */
function variantOf(
  id: string,
  entry: CatalogEntry,
  main: CatalogEntry,
  mainSchema: InputSchema,
): Record<string, unknown> {
  const schema = inputSchemaOf(id, entry);
  const own = schema.properties ?? {};
  const theirs = mainSchema.properties ?? {};
  const changed: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(own))
    if (!Object.hasOwn(theirs, name) || JSON.stringify(theirs[name]) !== JSON.stringify(property))
      changed[name] = property;
  const without = Object.keys(theirs).filter((name) => !Object.hasOwn(own, name));
  const required = requiredOf(schema);
  const head = { action: id, ...(entry.summary !== main.summary ? { summary: entry.summary } : {}), path: entry.path };
  // A changed argument that refers to a shared definition needs the variant's own definitions: show its whole schema.
  if (JSON.stringify(changed).includes('"$ref"')) return { ...head, inputSchema: schema };
  return {
    ...head,
    ...(Object.keys(changed).length > 0 ? { arguments: changed } : {}),
    ...(without.length > 0 ? { without } : {}),
    ...(required.join('\u0000') !== requiredOf(mainSchema).join('\u0000') ? { required } : {}),
  };
}

function requiredOf(schema: InputSchema): string[] {
  return Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
}
