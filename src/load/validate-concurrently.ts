import { Worker } from 'node:worker_threads';
import { Diagnostics, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { JsonObject } from '../kernel/json.js';
import { validateDocument } from './validate-document.js';

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

function inWorker(source: { text: string; location: string }): Promise<Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./validate-worker.js', import.meta.url), { workerData: source });
    worker.once('message', (items: Diagnostic[]) => {
      resolve(items);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`validation worker exited with ${code}`)));
  });
}
