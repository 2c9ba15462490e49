// Turns API responses into MCP tool results: JSON as structured content plus text, text as text, images as image
// content, other binary as an embedded resource; large results are cut with a note.

import type { CallToolResult } from '@modelcontextprotocol/server';
import { conciseValue } from './concise.js';
import type { UpstreamResponse } from './http.js';
import { redactJson, redactSecrets } from './redact.js';
import type { FullAnswerLink } from './result-link.js';
import type { ActionRoute, PaginationHint } from './types.js';

/** Characters per token of JSON and prose, roughly; results are bounded in characters from the token budget. */
const CHARS_PER_TOKEN = 4;
const LONG_STRING = 2_000;
const MAX_INLINE_BINARY = 2 * 1024 * 1024;

export type ResultOptions = {
  maxResultTokens: number;
  toolName: string;
  actionName: string;
  /** `concise` (the default where the route has a concise view) or `detailed`. */
  responseFormat?: 'concise' | 'detailed';
  /** Where a read's whole answer can be read when the result is cut (result-link.ts). */
  fullAnswer?: FullAnswerLink;
};

export function successResult(response: UpstreamResponse, route: ActionRoute, options: ResultOptions): CallToolResult {
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const notes: string[] = [];
  if (response.truncated)
    notes.push(`The response was larger than the server reads (${response.body.byteLength} bytes kept); it was cut.`);
  if (response.body.byteLength === 0) {
    return textResult([
      `${response.status === 202 ? 'Accepted' : 'Done'}: the API answered ${response.status} ${response.statusText || ''}`.trim() +
        ' with no content.',
      ...notes,
    ]);
  }
  const maxChars = options.maxResultTokens * CHARS_PER_TOKEN;
  // A cut result keeps its preview and links to the whole answer.
  const linked = (result: CallToolResult, wasCut: boolean): CallToolResult =>
    wasCut && options.fullAnswer && !response.truncated
      ? { ...result, content: [...result.content, ...options.fullAnswer(response.body.byteLength, mediaType)] }
      : result;
  if (isJson(mediaType) || (mediaType === '' && looksLikeJson(response.body))) {
    const text = Buffer.from(response.body).toString('utf8');
    let value: unknown;
    try {
      // Redacted after decoding: an escaped credential only shows once parsed.
      value = redactJson(JSON.parse(text));
    } catch {
      if (response.truncated) return textResult([cut(redactSecrets(text), maxChars), ...notes]);
      return errorText(
        `The API answered ${response.status} with invalid JSON (${mediaType || 'no content type'}); its text begins: ${cut(redactSecrets(text), 300)}`,
      );
    }
    if (route.concise && options.responseFormat !== 'detailed') {
      const concise = conciseValue(value, route.concise);
      value = concise.value;
      if (concise.note) notes.push(concise.note);
    }
    const { value: bounded, note } = boundJson(value, maxChars, route.pagination);
    if (note) notes.push(note);
    const paging = pagingNote(response, route, bounded);
    if (paging) notes.push(paging);
    return linked(
      {
        content: [
          { type: 'text', text: JSON.stringify(bounded) },
          ...notes.map((text) => ({ type: 'text' as const, text })),
        ],
        structuredContent: bounded !== null && typeof bounded === 'object' ? bounded : { value: bounded },
      },
      note !== undefined,
    );
  }
  if (mediaType.startsWith('image/') && response.body.byteLength <= MAX_INLINE_BINARY && !response.truncated) {
    return {
      content: [
        { type: 'image', data: Buffer.from(response.body).toString('base64'), mimeType: mediaType },
        ...notes.map((text) => ({ type: 'text' as const, text })),
      ],
    };
  }
  if (isTextual(mediaType)) {
    const text = redactSecrets(Buffer.from(response.body).toString('utf8'));
    return linked(textResult([cut(text, maxChars), ...notes]), text.length > maxChars);
  }
  if (response.body.byteLength > MAX_INLINE_BINARY) {
    return linked(
      textResult([
        `The API returned ${response.body.byteLength} bytes of ${mediaType || 'binary data'}, too large to pass to the model.`,
        ...notes,
      ]),
      true,
    );
  }
  return {
    content: [
      {
        type: 'resource',
        resource: {
          uri: `openapi://${options.toolName}/${options.actionName || 'result'}`,
          mimeType: mediaType || 'application/octet-stream',
          blob: Buffer.from(response.body).toString('base64'),
        },
      },
      ...notes.map((text) => ({ type: 'text' as const, text })),
    ],
  };
}

export function textResult(lines: string[]): CallToolResult {
  return { content: lines.filter(Boolean).map((text) => ({ type: 'text' as const, text })) };
}

export function errorText(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

export function isJson(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json') || mediaType === 'text/json';
}

export function isTextual(mediaType: string): boolean {
  return (
    mediaType === '' ||
    mediaType.startsWith('text/') ||
    /(xml|yaml|csv|javascript|x-www-form-urlencoded|sdp|graphql)/.test(mediaType)
  );
}

export function looksLikeJson(body: Uint8Array): boolean {
  const first = Buffer.from(body.subarray(0, 64)).toString('utf8').trimStart()[0];
  return first === '{' || first === '[';
}

export function cut(text: string, maxChars: number): string {
  return text.length <= maxChars
    ? text
    : `${text.slice(0, maxChars)}… [cut: ${text.length - maxChars} more characters]`;
}

/**
 * Keeps a JSON value within `maxChars`: long strings are shortened, then the largest list is cut to the items that
 * fit. The note says what was cut and what the action offers to get the rest: its own paging arguments, or, for a
 * list the API does not page, filters.
 */
export function boundJson(
  value: unknown,
  maxChars: number,
  paging?: PaginationHint,
): { value: unknown; note?: string } {
  if (JSON.stringify(value).length <= maxChars) return { value };
  const shortened = shortenStrings(value, 0);
  if (JSON.stringify(shortened).length <= maxChars)
    return {
      value: shortened,
      note: `Long text fields were shortened to ${LONG_STRING} characters to fit the result budget.`,
    };
  const list = largestList(shortened);
  if (list) {
    const { items, set } = list;
    let low = 0;
    let high = items.length;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      set(items.slice(0, middle));
      if (JSON.stringify(shortened).length <= maxChars) low = middle;
      else high = middle - 1;
    }
    set(items.slice(0, low));
    return {
      value: shortened,
      note: `The result was cut to fit the result budget: ${low} of ${items.length} items are shown. ${restOfList(paging)}`,
    };
  }
  const text = JSON.stringify(shortened);
  return {
    value: { truncated: text.slice(0, maxChars) },
    note: `The result was cut to ${maxChars} characters to fit the result budget.`,
  };
}

/** How to reach the items a cut list did not show, in the action's own terms. */
function restOfList(paging: PaginationHint | undefined): string {
  const names = paging?.arguments ?? [];
  const size = names.find((name) => SIZE_ARGUMENT.test(name));
  const position = names.filter((name) => name !== size);
  if (names.length === 0)
    return "The API does not page this list: narrow it with the action's filters (its optional arguments) to get the rest.";
  const parts = [
    ...(size ? [`ask for fewer items per page with ${size}`] : []),
    ...(position.length > 0 ? [`get the next page with ${position.join(' or ')}`] : []),
  ];
  return `${parts.join(', or ')}, or narrow the list with filters.`.replace(/^./, (first) => first.toUpperCase());
}

/** Paging arguments that set how many items a page holds. */
const SIZE_ARGUMENT = /^(per_?page|page_?size|limit|count|max_?results|top|size|take)$/i;

function shortenStrings(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > LONG_STRING ? `${value.slice(0, LONG_STRING)}… [cut]` : value;
  if (Array.isArray(value)) return value.map((item) => shortenStrings(item, depth + 1));
  if (value !== null && typeof value === 'object' && depth < 64) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      Object.defineProperty(out, key, {
        value: shortenStrings(item, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return value;
}

type ListSlot = { items: unknown[]; set: (items: unknown[]) => void };

/** The longest array at the top or one level down (`data`, `items`, `results` …). */
function largestList(value: unknown): ListSlot | undefined {
  let best: ListSlot | undefined;
  let bestSize = 0;
  const consider = (items: unknown[], set: (items: unknown[]) => void) => {
    const size = JSON.stringify(items).length;
    if (size > bestSize) {
      best = { items, set };
      bestSize = size;
    }
  };
  if (Array.isArray(value)) {
    const holder = value;
    consider([...value], (items) => holder.splice(0, holder.length, ...items));
    return best;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  for (const [key, item] of Object.entries(record)) {
    if (Array.isArray(item)) consider(item, (items) => (record[key] = items));
    else if (item !== null && typeof item === 'object') {
      const inner = item as Record<string, unknown>;
      for (const [innerKey, innerItem] of Object.entries(inner))
        if (Array.isArray(innerItem)) consider(innerItem, (items) => (inner[innerKey] = items));
    }
  }
  return best;
}

/** Tells the model how to get the next page: from a `Link: rel="next"` header or next-page fields of the body. */
function pagingNote(response: UpstreamResponse, route: ActionRoute, body: unknown): string | undefined {
  const link = response.headers.get('link');
  const next = link ? /<([^>]+)>\s*;[^,]*rel="?next"?/i.exec(link)?.[1] : undefined;
  if (next) {
    const target = new URL(next, response.url);
    const pairs: string[] = [];
    for (const [name, value] of target.searchParams) {
      const argument = route.arguments.find((candidate) => candidate.in === 'query' && candidate.name === name);
      if (argument) pairs.push(`${argument.arg}=${JSON.stringify(value)}`);
    }
    return pairs.length > 0
      ? `More results: call again with ${pairs.join(', ')}.`
      : 'More results are available (the API sent a next-page link).';
  }
  if (!route.pagination || body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const found = route.pagination.nextFields
    .map((field) => [field, record[field]] as const)
    .filter(([, value]) => value !== undefined && value !== null && value !== false && value !== '');
  if (found.length === 0) return undefined;
  const call = nextCall(found, route, record);
  if (call) return `More results: call again with ${call}.`;
  const shown = found
    .map(
      ([field, value]) =>
        `${field}: ${typeof value === 'object' ? JSON.stringify(value).slice(0, 200) : String(value)}`,
    )
    .join('; ');
  return `More results may follow (${shown}); the next page is asked for with ${route.pagination.arguments.join(', ')}.`;
}

/**
 * The argument and value that ask for the next page, where the result says them: a next-page URL's query (mapped to
 * the action's arguments), a cursor or token field whose name is an argument's with `next` before it
 * (`next_cursor` → `cursor`, `nextPageToken` → `pageToken`, `next_page` → `page`), or, after `has_more`, the last
 * item's id for an `after`-style argument (`starting_after`, as Stripe pages).
 */
function nextCall(
  found: ReadonlyArray<readonly [string, unknown]>,
  route: ActionRoute,
  body: Record<string, unknown>,
): string | undefined {
  const paging = route.pagination?.arguments ?? [];
  const queryArgument = (name: string) =>
    route.arguments.find((candidate) => candidate.in === 'query' && candidate.name === name)?.arg;
  const plain = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');
  for (const [field, value] of found) {
    if (typeof value === 'string' && /^(https?:\/\/|\/)/.test(value)) {
      const pairs: string[] = [];
      for (const [name, item] of new URL(value, 'http://localhost').searchParams) {
        const argument = queryArgument(name);
        if (argument) pairs.push(`${argument}=${JSON.stringify(item)}`);
      }
      if (pairs.length > 0) return pairs.join(', ');
    }
    if (typeof value === 'string' || typeof value === 'number') {
      const stem = plain(field).replace(/^next/, '');
      const argument = paging.find((name) => plain(name) === stem || (stem !== '' && plain(name) === `${stem}token`));
      if (argument) return `${argument}=${JSON.stringify(value)}`;
    }
    if (value === true && /^has_?more$/i.test(field)) {
      const after = paging.find((name) => /(^|_)after$/i.test(name));
      const last = lastItemId(body);
      if (after && last !== undefined) return `${after}=${JSON.stringify(last)} (the id of the last item)`;
    }
  }
  return undefined;
}

/** The `id` of the last item of the result's list (`data`, `items`, `results` … or the only list it holds). */
function lastItemId(body: Record<string, unknown>): unknown {
  const lists = Object.values(body).filter((value): value is unknown[] => Array.isArray(value));
  const list = lists.length === 1 ? lists[0] : undefined;
  const last = list?.at(-1);
  return last !== null && typeof last === 'object' ? (last as Record<string, unknown>)['id'] : undefined;
}
