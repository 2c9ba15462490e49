import { parentPort } from 'node:worker_threads';
import { Diagnostics } from '../diagnostics/diagnostic.js';
import { isJsonObject } from '../kernel/json.js';
import { parseText } from './parse-text.js';
import { validateDocument } from './validate-document.js';

/** What the main thread posts: the description's text, which the worker lets go of once it is parsed. */
export type ValidationRequest = { text?: string; location: string };

/**
 * Worker thread: parses the description's text again (cheaper than copying the parsed document across threads)
 * and validates it against the OpenAPI schema, answering with the diagnostics. The text comes as a message, not as
 * `workerData` (which lives as long as the thread), so that it is garbage while validation runs.
 */
parentPort?.once('message', (request: ValidationRequest) => {
  const parsed = parseText(request.text ?? '', request.location, new Diagnostics());
  delete request.text;
  const diagnostics = new Diagnostics();
  if (isJsonObject(parsed)) validateDocument(parsed, diagnostics);
  parentPort?.postMessage(diagnostics.items);
});
