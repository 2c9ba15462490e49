import { parentPort } from 'node:worker_threads';
import { Diagnostics } from '../diagnostics/diagnostic.js';
import { collectGarbage } from '../kernel/collect-garbage.js';
import { isJsonObject } from '../kernel/json.js';
import { parseTextAs } from './parse-text.js';
import { documentSpans } from './path-item-spans.js';
import { textPieces, type TextPieces } from './text-pieces.js';
import { checkDocument, type SchemaCheck } from './validate-document.js';

/**
 * What the main thread posts: the description's text, which the worker lets go of once it is parsed, whether the
 * worker is kept for later requests (a watch's), and whether to piece a JSON text (load/text-pieces.ts) for the
 * regeneration cache (load/last-check.ts).
 */
export type ValidationRequest = { text?: string; location: string; kept?: boolean; pieces?: boolean };

/** The check, and the pieces when asked for and a JSON text that starts with its root object tells its spans. */
export type CheckAnswer = SchemaCheck & { pieces?: TextPieces };

/**
 * Worker thread: parses the description's text again (cheaper than copying the parsed document across threads)
 * and validates it against the OpenAPI schema, answering each request with what it found (a watch keeps the
 * worker for the next save). The text comes as a message, not as `workerData` (which lives as long as the thread),
 * so that it is garbage while validation runs.
 */
function answer(request: ValidationRequest): void {
  const { parsed, pieces } = parseRequest(request);
  const check: CheckAnswer = isJsonObject(parsed) ? checkDocument(parsed) : { errors: [] };
  parentPort?.postMessage(pieces ? { ...check, pieces } : check);
  // A kept worker would otherwise hold this description's parse, garbage but uncollected while it waits for the next
  // save (GitHub's: about 160 MB of the watch's RSS).
  if (request.kept) collectGarbage();
  // A worker for one request ends as soon as it has answered, with its heap: the main thread, busy planning, would end
  // it only when it next yields (listening on made GitHub's generation peak about 30 MB higher).
  else parentPort?.off('message', answer);
}

/** The request's text parsed (and pieced, if asked for), the text let go of: garbage while validation runs. */
function parseRequest(request: ValidationRequest): { parsed: unknown; pieces?: TextPieces | undefined } {
  const text = request.text ?? '';
  delete request.text;
  const { value: parsed, json } = parseTextAs(text, request.location, new Diagnostics());
  const spans = request.pieces && json && text.startsWith('{') ? documentSpans(text) : undefined;
  return { parsed, pieces: spans && textPieces(text, spans) };
}

parentPort?.on('message', answer);
