import { parentPort } from 'node:worker_threads';
import { Diagnostics } from '../diagnostics/diagnostic.js';
import { collectGarbage } from '../kernel/collect-garbage.js';
import { isJsonObject } from '../kernel/json.js';
import { parseText } from './parse-text.js';
import { checkDocument, type SchemaCheck } from './validate-document.js';

/**
 * What the main thread posts: the description's text, which the worker lets go of once it is parsed, and whether the
 * worker is kept for later requests (a watch's).
 */
export type ValidationRequest = { text?: string; location: string; kept?: boolean };

/**
 * Worker thread: parses the description's text again (cheaper than copying the parsed document across threads)
 * and validates it against the OpenAPI schema, answering each request with what it found (a watch keeps the
 * worker for the next save). The text comes as a message, not as `workerData` (which lives as long as the thread),
 * so that it is garbage while validation runs.
 */
function answer(request: ValidationRequest): void {
  const parsed = parseText(request.text ?? '', request.location, new Diagnostics());
  delete request.text;
  const check: SchemaCheck = isJsonObject(parsed) ? checkDocument(parsed) : { errors: [] };
  parentPort?.postMessage(check);
  // A kept worker would otherwise hold this description's parse, garbage but uncollected while it waits for the next
  // save (GitHub's: about 160 MB of the watch's RSS).
  if (request.kept) collectGarbage();
  // A worker for one request ends as soon as it has answered, with its heap: the main thread, busy planning, would end
  // it only when it next yields (listening on made GitHub's generation peak about 30 MB higher).
  else parentPort?.off('message', answer);
}

parentPort?.on('message', answer);
