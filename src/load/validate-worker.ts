import { parentPort, workerData } from 'node:worker_threads';
import { Diagnostics } from '../diagnostics/diagnostic.js';
import { isJsonObject } from '../kernel/json.js';
import { parseText } from './parse-text.js';
import { validateDocument } from './validate-document.js';

/**
 * Worker thread: parses the description's text again (cheaper than copying the parsed document across threads)
 * and validates it against the OpenAPI schema, answering with the diagnostics.
 */
const { text, location } = workerData as { text: string; location: string };
const diagnostics = new Diagnostics();
const parsed = parseText(text, location, new Diagnostics());
if (isJsonObject(parsed)) validateDocument(parsed, diagnostics);
parentPort?.postMessage(diagnostics.items);
