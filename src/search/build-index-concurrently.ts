import { Worker } from 'node:worker_threads';
import { collectGarbage } from '../kernel/collect-garbage.js';
import type { IndexRequest } from './index-worker.js';
import { buildSearchIndex, type BuiltIndex, type SearchDocument } from './search-index.js';

/**
 * From this many actions the index is built in a worker thread while this one makes the catalog's schemas: Microsoft
 * Graph's 11,422 documents take about a second to index, and a worker costs about 50 ms to start. Below it the index
 * is built in place: a description that size has too few actions for a second thread to pay.
 */
export const CONCURRENT_INDEX_DOCUMENTS = 2_000;

/** Documents are posted in batches of this many, so that the worker indexes while the catalog is still being made. */
const BATCH = 500;

/**
 * The worker's young generation, in MB: the index keeps most of what it allocates (terms, postings), so a small
 * one costs little time and keeps the second heap small beside the planner's.
 */
const WORKER_YOUNG_GENERATION_MB = 8;

/**
 * The search index of the catalog's documents, added in its order: in a worker for a large catalog, else in place.
 * The index is the same either way (the same documents added in the same order, the same settings); a worker that
 * fails to start or dies is replaced by a build in place from the documents kept here.
 */
export class ConcurrentIndex {
  private readonly documents: SearchDocument[] = [];
  private readonly worker: Worker | undefined;
  private readonly answer: Promise<BuiltIndex> | undefined;
  private posted = 0;
  /** Where the index was built, once `finish` answered: for tests, which cannot tell the two by the index. */
  builtIn: 'worker' | 'this thread' | undefined;

  constructor(expected: number, threshold = CONCURRENT_INDEX_DOCUMENTS) {
    if (expected < threshold) return;
    try {
      const worker = new Worker(new URL('./index-worker.js', import.meta.url), {
        // None of this process's flags: see load/validate-concurrently.ts.
        execArgv: [],
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB, maxOldGenerationSizeMb: 1024 },
      });
      this.answer = new Promise<BuiltIndex>((resolve, reject) => {
        worker.once('message', (built: BuiltIndex) => resolve(built));
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`search index worker exited with ${code}`)));
      });
      // Handled in `finish`, which falls back to a build in place; until then a failure is not unhandled.
      this.answer.catch(() => undefined);
      this.worker = worker;
      // Two heaps grow from here on, this thread's with the catalog's schemas and the worker's with the index: the
      // planner's intermediate values are garbage now, and collected while the worker starts, this thread's heap
      // starts from what it keeps (Microsoft Graph: see bench/PROFILE.md, thirteenth pass).
      collectGarbage();
    } catch {
      // No worker: the index is built in place by `finish`.
    }
  }

  add(document: SearchDocument): void {
    this.documents.push(document);
    if (this.documents.length - this.posted >= BATCH) this.post();
  }

  /**
   * The index of the documents added, ended by the scope families. With a worker, the last documents and the
   * families are posted before this returns, so that the caller can go on while the worker serialises the index.
   */
  finish(families: string[][]): Promise<BuiltIndex> {
    if (!this.worker || !this.answer) return Promise.resolve(this.inPlace(families));
    this.post();
    this.worker.postMessage({ families } satisfies IndexRequest);
    return this.answered(this.worker, this.answer, families);
  }

  private async answered(worker: Worker, answer: Promise<BuiltIndex>, families: string[][]): Promise<BuiltIndex> {
    // No full collection while the worker serialises the index: since the catalog's properties are shared (one per
    // projection and description), this thread's heap adds too little to the worker's peak for one to lower it
    // (Microsoft Graph: 472-482 MB without it, 474 MB with it), and it cost this thread 0.2-0.9 s.
    try {
      const built = await answer;
      this.builtIn = 'worker';
      return built;
    } catch {
      return this.inPlace(families);
    } finally {
      // Waited for, so that the worker's heap is gone before the caller goes on to use more memory.
      await worker.terminate();
    }
  }

  private inPlace(families: string[][]): BuiltIndex {
    this.builtIn = 'this thread';
    return buildSearchIndex(this.documents, families);
  }

  private post(): void {
    if (!this.worker || this.posted === this.documents.length) return;
    this.worker.postMessage({ documents: this.documents.slice(this.posted) } satisfies IndexRequest);
    this.posted = this.documents.length;
  }
}
