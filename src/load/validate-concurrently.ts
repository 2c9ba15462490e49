import { Worker } from 'node:worker_threads';
import type { Diagnostics } from '../diagnostics/diagnostic.js';
import type { JsonObject } from '../kernel/json.js';
import { checkDocument, reportSchemaCheck, schemaCheckDiagnostics, type SchemaCheck } from './validate-document.js';
import type { CheckAnswer, ValidationRequest } from './validate-worker.js';

/**
 * Below this size validating in place costs less than starting a thread (validation runs at roughly 30 ms per
 * megabyte of description; a worker costs about 50 ms to start and parses the text again).
 */
export const CONCURRENT_VALIDATION_BYTES = 2 * 1024 * 1024;

/**
 * Validates a large description in a worker thread while the later stages run, deferring its diagnostics into
 * `diagnostics` (the pipeline settles them before it reports). Small descriptions, and any failure to run the
 * worker, validate in place: the diagnostics are the same either way. `thread` is a worker kept from load to load
 * (a watch); without one, a worker is started for this description and ended once it has answered.
 */
export function validateDescription(
  root: JsonObject,
  source: { text: string; location: string } | undefined,
  diagnostics: Diagnostics,
  options: { threshold?: number; thread?: ValidationThread } = {},
): void {
  const check = checkDescription(root, source, options);
  if (check instanceof Promise) diagnostics.defer(check.then(schemaCheckDiagnostics));
  else reportSchemaCheck(check, diagnostics);
}

/**
 * The schema check of a description: in place (small ones), or the answer of a worker that validates its text. A
 * worker asked for `pieces` answers the pieces of a JSON text too (load/text-pieces.ts), when its spans can be told.
 */
export function checkDescription(
  root: JsonObject,
  source: { text: string; location: string } | undefined,
  {
    threshold = CONCURRENT_VALIDATION_BYTES,
    thread,
    pieces = false,
  }: { threshold?: number; thread?: ValidationThread; pieces?: boolean } = {},
): SchemaCheck | Promise<CheckAnswer> {
  if (!source || source.text.length < threshold) return checkDocument(root);
  return (thread ? thread.validate(source) : inWorker(source, pieces)).catch(() => checkDocument(root));
}

/**
 * A validation worker kept between the loads of a process that loads again and again (a watch): each save checked
 * whole is validated by a thread whose modules are loaded and whose validators are compiled, which on GitHub's
 * description takes about a third of the CPU time a new worker took (280–400 ms wall for a new one, parse and
 * validation about 120–140 ms warm). Requests are answered one after the other. The worker does not keep the process
 * alive while it waits; one that fails is let go, and the next request starts another.
 */
export class ValidationThread {
  private worker: Worker | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  validate(source: { text: string; location: string }): Promise<SchemaCheck> {
    const answered = this.queue.then(() => this.request(source));
    this.queue = answered.catch(() => undefined);
    return answered;
  }

  /** Ends the worker, if one runs. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private request(source: { text: string; location: string }): Promise<SchemaCheck> {
    const worker = (this.worker ??= startWorker());
    worker.ref();
    return new Promise((resolve, reject) => {
      const answered = (check: SchemaCheck) => {
        settle();
        resolve(check);
      };
      const failed = (error: unknown) => {
        settle();
        if (this.worker === worker) this.worker = undefined;
        void worker.terminate();
        reject(error instanceof Error ? error : new Error(String(error)));
      };
      const exited = (code: number) => failed(new Error(`validation worker exited with ${code}`));
      const settle = () => {
        worker.off('message', answered).off('error', failed).off('exit', exited);
        worker.unref();
      };
      worker.on('message', answered).on('error', failed).on('exit', exited);
      post(worker, source, true);
    });
  }
}

function inWorker(source: { text: string; location: string }, pieces: boolean): Promise<CheckAnswer> {
  let worker: Worker;
  try {
    worker = startWorker();
    post(worker, source, false, pieces);
  } catch (error) {
    // A worker that cannot start: the caller validates in place.
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  return new Promise((resolve, reject) => {
    worker.once('message', (check: CheckAnswer) => {
      resolve(check);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`validation worker exited with ${code}`)));
  });
}

/**
 * The worker's young generation, in MB. V8's default (tens of MB) is sized for throughput; parsing and validating
 * promote most of what they allocate anyway, and a small one keeps the second heap about 25 MB smaller on GitHub's
 * description at no measurable cost in time.
 */
const WORKER_YOUNG_GENERATION_MB = 8;

function startWorker(): Worker {
  return new Worker(new URL('./validate-worker.js', import.meta.url), {
    // None of this process's flags: a worker would inherit them, and `--input-type` (how `node -e` reads its own
    // string) stops a worker started from a file, while V8's flags (`--max-old-space-size`) are refused in a
    // worker's list. V8's flags hold for the whole process anyway, and preloads are meant for the user's program.
    execArgv: [],
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });
}

/** Posts the text; apart from the closures that wait for the answer, so that they do not hold the text. */
function post(worker: Worker, source: { text: string; location: string }, kept = false, pieces = false): void {
  const request: ValidationRequest = { text: source.text, location: source.location, kept, pieces };
  worker.postMessage(request);
}
