import type { ApiModel } from '../model/api-model.js';
import type { OutputSchemaMode } from '../plan/tool-plan.js';
import { WorkMemo } from './work-memo.js';

/**
 * What a process that runs the pipeline again and again (`--watch`) keeps between its runs, so that a save is
 * answered from the work the run before did rather than from the output folder's cache on disk:
 *
 * - the work memo of the last run, in memory: the next run neither reads nor verifies `work.json`, and a `plan
 *   --watch`, which has no output folder, gets one too. Its entries are keyed by content exactly as on disk, so the
 *   output is what a fresh run gives (test/unit/watch-session.test.ts proves it edit by edit);
 * - the writes of the regeneration cache (`run.json`, `work.json`), done after the run has reported rather than
 *   before: they are for the next process, not for the user waiting on this save. A run waits for the writes of the
 *   one before it before it reads the cache or writes the folder, and the watch waits for them before it stops.
 */
export class WatchSession {
  private memo: WorkMemo | undefined;
  private writes: Promise<void> = Promise.resolve();
  private runs = 0;

  /** Whether a run of this session came before: later runs skip work that only keeps a single run's memory low. */
  get warm(): boolean {
    return this.runs > 0;
  }

  /** The memo for a new run: the last run's work in memory, or `first()` (the output folder's, or an empty one). */
  async memoFor(model: ApiModel, outputSchema: OutputSchemaMode, first: () => Promise<WorkMemo | undefined>): Promise<WorkMemo> {
    this.runs++;
    const memo = this.memo ? this.memo.carried(model, outputSchema) : ((await first()) ?? WorkMemo.empty(model, outputSchema));
    this.memo = memo;
    return memo;
  }

  /** Counts a run that planned nothing (replayed from the cache, or failed before planning). */
  ran(): void {
    this.runs++;
  }

  /** Runs `write` once the writes deferred before it are done; a failed write is a cache miss later, never an error. */
  defer(write: () => Promise<unknown>): void {
    this.writes = this.writes.then(write).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Resolves once every deferred write is done. */
  settled(): Promise<void> {
    return this.writes;
  }
}
