import { Worker } from 'node:worker_threads';
import { Diagnostics, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { JsonObject } from '../kernel/json.js';
import { validateDocument } from './validate-document.js';
import type { ValidationRequest } from './validate-worker.js';

/**
 * Below this size validating in place costs less than starting a thread (validation runs at roughly 30 ms per
 * megabyte of description; a worker costs about 50 ms to start and parses the text again).
 */
export const CONCURRENT_VALIDATION_BYTES = 2 * 1024 * 1024;

/**
 * Validates a large description in a worker thread while the later stages run, deferring its diagnostics into
 * `diagnostics` (the pipeline settles them before it reports). Small descriptions, and any failure to run the
 * worker, validate in place: the diagnostics are the same either way.
 */
export function validateDescription(
  root: JsonObject,
  source: { text: string; location: string } | undefined,
  diagnostics: Diagnostics,
  threshold = CONCURRENT_VALIDATION_BYTES,
): void {
  if (!source || source.text.length < threshold) {
    validateDocument(root, diagnostics);
    return;
  }
  diagnostics.defer(inWorker(source).catch(() => inPlace(root)));
}

function inPlace(root: JsonObject): Diagnostic[] {
  const local = new Diagnostics();
  validateDocument(root, local);
  return local.items;
}

/**
 * The worker's young generation, in MB. V8's default (tens of MB) is sized for throughput; parsing and validating
 * promote most of what they allocate anyway, and a small one keeps the second heap about 25 MB smaller on GitHub's
 * description at no measurable cost in time.
 */
const WORKER_YOUNG_GENERATION_MB = 8;

function inWorker(source: { text: string; location: string }): Promise<Diagnostic[]> {
  let worker: Worker;
  try {
    worker = startWorker(source);
  } catch (error) {
    // A worker that cannot start: the caller validates in place.
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  return new Promise((resolve, reject) => {
    worker.once('message', (items: Diagnostic[]) => {
      resolve(items);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`validation worker exited with ${code}`)));
  });
}

/** Starts the worker and posts it the text; apart from the closures above, so that they do not hold the text. */
function startWorker(source: { text: string; location: string }): Worker {
  const worker = new Worker(new URL('./validate-worker.js', import.meta.url), {
    // None of this process's flags: a worker would inherit them, and `--input-type` (how `node -e` reads its own
    // string) stops a worker started from a file, while V8's flags (`--max-old-space-size`) are refused in a
    // worker's list. V8's flags hold for the whole process anyway, and preloads are meant for the user's program.
    execArgv: [],
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });
  const request: ValidationRequest = { text: source.text, location: source.location };
  worker.postMessage(request);
  return worker;
}
