import type { ApiModel, OperationModel } from '../model/api-model.js';
import type { OutputSchemaMode } from '../plan/tool-plan.js';
import { contentHash } from './content-hash.js';
import { DocumentReparse } from '../load/reparse-document.js';
import { SaveValidation } from '../load/save-validation.js';
import { PathItemReplay } from './path-item-replay.js';
import { sameJson } from './same-json.js';
import { WorkMemo, type SessionStore } from './work-memo.js';

/** How long the watch stays idle after a run before it writes that run's cache. */
const PERSIST_AFTER_MS = 1000;

/**
 * What a process that runs the pipeline again and again (`--watch`) keeps between its runs, so that a save is
 * answered from the work the run before did rather than from the output folder's cache on disk:
 *
 * - the validation (`validation`): a save that changed one path item validates that item alone, its errors merged
 *   with the last document's (load/save-validation.ts); anything else goes to a worker kept with its modules loaded
 *   and validators compiled;
 * - the last text (JSON, or YAML without anchors) and its document (`documents`): a save that changed one path item
 *   parses only that item, and the rest of the document is the last one's objects (load/reparse-document.ts);
 * - the path items of the last model (`pathItems`): an item whose JSON, and everything it reads, is as it was is not
 *   built again (its operations, diagnostics and named schemas are the last build's; cache/path-item-replay.ts);
 * - the work memo of the last run, in memory: the next run neither reads nor verifies `work.json`, and a `plan
 *   --watch`, which has no output folder, gets one too. Its entries are keyed by content exactly as on disk, so the
 *   output is what a fresh run gives (test/unit/watch-session.test.ts proves it edit by edit);
 * - the operations of the last model: an operation whose content (its JSON) is what it was comes back as the same
 *   object (`intern`), so that what the planner derives from it alone — its arguments, route, concise view, content
 *   hash — is taken from the run before without hashing it again (PlanMemo.derived), under the same plan-wide context;
 *   and so do the named schemas, while their JSON is what it was (the schemas' argument views are kept with them);
 * - what the planner computed from a tool's operations (action names, header decisions, the starting clusters of the
 *   grouping: PlanMemo.shared), and the grouping or its word table while all they read is as it was (PlanMemo.reused);
 * - the writes of the regeneration cache (`run.json`, `work.json`), done once the watch has been idle for a moment
 *   after a run rather than before it reports: they are for the next process, not for the user waiting on this save,
 *   and a later run that stores replaces them with its own (what is on disk stays right for the inputs it is keyed
 *   by, only older). A run waits for writes under way before it reads the cache or writes the folder; the watch
 *   writes what is pending before it stops.
 */
export class WatchSession {
  /** The last run's cache writes, waiting for the watch to be idle. */
  private pending: (() => Promise<unknown>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private memo: WorkMemo | undefined;
  private readonly store: SessionStore = {
    hashes: new WeakMap(),
    reused: new Map(),
    shared: { last: new Map(), current: new Map() },
  };
  /** The last model's operations by key. */
  private operations = new Map<string, OperationModel>();
  /** The last model's named schemas. */
  private schemas: ApiModel['schemas'] | undefined;
  /** The last model's path item builds, replayed where nothing they read changed. */
  readonly pathItems = new PathItemReplay();
  /** The last document parsed, for the next save to parse only what changed. */
  readonly documents = new DocumentReparse();
  /** The validation worker and the last documents' checks, kept from run to run. */
  readonly validation = new SaveValidation();
  private writes: Promise<void> = Promise.resolve();
  private runs = 0;
  /** The digest of the last run's text (see newText). */
  private lastText: string | undefined;

  /** Whether a run of this session came before: later runs skip work that only keeps a single run's memory low. */
  get warm(): boolean {
    return this.runs > 0;
  }

  /**
   * The model with each operation whose content equals the last model's operation of the same key replaced by that
   * object, and its named schemas by the last model's where their JSON is the same: what the planner derives from the
   * schemas alone is keyed by that object (the argument views of every schema: GitHub's took about 8 ms a save).
   * Content is the operation's JSON, as the work memo's keys hash it.
   */
  intern(model: ApiModel): ApiModel {
    const next = new Map<string, OperationModel>();
    const operations = model.operations.map((operation) => {
      const previous = this.operations.get(operation.key);
      // Equal JSON is equal content: the one before keeps its hash. A replayed operation shares all but its top
      // level with the one before, where the comparison stops at once.
      const kept = previous !== undefined && this.store.hashes.has(previous) && sameJson(previous, operation) ? previous : operation;
      if (kept !== previous) this.store.hashes.set(kept, contentHash(JSON.stringify(kept)));
      next.set(kept.key, kept);
      return kept;
    });
    this.operations = next;
    // Replayed path items hand back the schemas they reached as the same objects, where the walk stops at once.
    const schemas = this.schemas !== undefined && sameJson(this.schemas, model.schemas) ? this.schemas : model.schemas;
    this.schemas = schemas;
    return { ...model, operations, schemas };
  }

  /**
   * The memo for a new run: the last run's work in memory, or `first(store)` (the output folder's, or an empty one),
   * given the session's store.
   */
  async memoFor(
    model: ApiModel,
    outputSchema: OutputSchemaMode,
    first: (store: SessionStore) => Promise<WorkMemo | undefined>,
  ): Promise<WorkMemo> {
    this.runs++;
    const memo = this.memo
      ? this.memo.carried(model, outputSchema)
      : ((await first(this.store)) ?? WorkMemo.empty(model, outputSchema, this.store));
    this.memo = memo;
    return memo;
  }

  /**
   * Whether this run's text, by its digest, differs from the last run's (false for the first run: it has none to
   * differ from). The output folder's cache then holds no run of it, and a run need not look one up.
   */
  newText(digest: string): boolean {
    const last = this.lastText;
    this.lastText = digest;
    return last !== undefined && last !== digest;
  }

  /** Counts a run that planned nothing (replayed from the cache, or failed before planning). */
  ran(): void {
    this.runs++;
  }

  /** The run's cache writes, in place of any still pending: done once the watch is idle (see `idle`). */
  persist(write: () => Promise<unknown>): void {
    this.pending = write;
  }

  /**
   * After a run has answered: what is pending is written once the watch has stayed idle PERSIST_AFTER_MS. A run
   * that stores nothing (it failed, or replayed the cache) leaves the run before's writes pending.
   */
  idle(): void {
    clearTimeout(this.timer);
    if (!this.pending) return;
    this.timer = setTimeout(() => this.writePending(), PERSIST_AFTER_MS);
    // Nothing to keep a process alive for: a watch that stops writes what is pending (settled).
    this.timer.unref();
  }

  /** Before a run: pending writes wait for the run to end; writes under way are waited for. */
  beforeRun(): Promise<void> {
    clearTimeout(this.timer);
    return this.writes;
  }

  /** Writes what is pending now, and resolves once every write is done (the watch stops, a test looks). */
  settled(): Promise<void> {
    this.writePending();
    return this.writes;
  }

  /** Ends the session: its writes done, its validation worker ended. */
  async close(): Promise<void> {
    await this.settled();
    await this.validation.close();
  }

  private writePending(): void {
    clearTimeout(this.timer);
    const write = this.pending;
    this.pending = undefined;
    // One after the other; a failed write is a cache miss later, never an error.
    if (write)
      this.writes = this.writes.then(write).then(
        () => undefined,
        () => undefined,
      );
  }
}
