import type { EmitMemo } from '../emit/emit-project.js';
import { isCount, isJsonObject, isTextList } from '../kernel/json.js';
import type { ApiModel, OperationModel } from '../model/api-model.js';
import type { BuildRecord, BuiltTool, ConditionalRequirement, OperationSummary, PlanMemo } from '../plan/drafts.js';
import type { OutputSchemaMode, ToolModel } from '../plan/tool-plan.js';
import { isUsableName } from '../kernel/names.js';
import { isSafeRelativePath } from '../write/lock-file.js';
import { contentHash } from './content-hash.js';
import { isDiagnostic, isStoredAction } from './run-entry.js';
import { readSigned, writeSigned, type Signer } from './signed-store.js';

const MEMO_FILE = 'work.json';
/**
 * The memo's largest size. Its records are small (two numbers a build); the printed tool modules are the bulk, and
 * past this size (a very large API's modules) parsing them costs more than printing them again.
 */
const MAX_MEMO_BYTES = 32 * 1024 * 1024;
/** Room left under MAX_MEMO_BYTES for the records and the signature. */
const HEADROOM = 1024 * 1024;

type Source = { path: string; content: string };
/** A build's record as stored: its characters, its exact tokens when a run counted them, the tool when the plan kept it. */
type StoredRecord = [characters: number, exactTokens?: number, tool?: BuiltTool];
/** An operation's summary as stored: all of it but the operation, which is this run's. */
type StoredSummary = Omit<OperationSummary, 'operation'>;
type Stored = {
  builds: Record<string, BuildRecord>;
  summaries: Record<string, StoredSummary>;
  sources: Record<string, Source>;
  /** Each tool's lines of the action cases file (emit/test-cases.ts). */
  cases: Record<string, string>;
  scaffold: Record<string, string>;
  /** Values of the kinds in KEPT_SHARED (PlanMemo.shared), by kind, then by key. */
  shared: Record<string, Record<string, unknown>>;
};

/**
 * The kinds of PlanMemo.shared whose values are plain JSON and are kept in the file too, not only in a watch's
 * memory, each with the check of its shape: a tool's header decisions (with their diagnostics), its action names and
 * its name draft (the candidate names and the title's words before names are chosen among tools). A new process
 * regenerating after a one-operation change then decides again only the tools that hold it (GitHub: about 40 ms of
 * header decisions, 15–25 ms of action names and about 10 ms of name drafts otherwise made again for every tool).
 */
const KEPT_SHARED: Record<string, (value: unknown) => boolean> = {
  headers: isHeaderEntry,
  'action-names': isTextList,
  'name-drafts': isNameDraft,
};

/**
 * What a watch session keeps for the planner from run to run besides the memo's records (cache/watch-session.ts):
 * in memory only, keyed by operation objects, which the session hands back unchanged when their content is.
 */
export type SessionStore = {
  /** Each operation object's content hash. */
  hashes: WeakMap<OperationModel, string>;
  /** Values derived from one operation (PlanMemo.derived), under the plan-wide context they were derived in. */
  derived?: { context: string; values: WeakMap<OperationModel, Map<string, unknown>> };
  /** The last value of each kind computed from a key (PlanMemo.reused). */
  reused: Map<string, { key: string; value: unknown }>;
  /** Values computed from operations and a key (PlanMemo.shared): the last run's, and this run's so far. */
  shared: { last: Map<string, unknown>; current: Map<string, unknown> };
};

/**
 * The parts of a generation that a one-operation change leaves as they were, kept between runs under keys made from
 * their inputs' content: what is known of each tool build — the characters its tokens are estimated from and its
 * exact o200k count (key: the planner's build key, its operations' content, and the plan-wide context: title,
 * servers, schemas, output schema mode) —, each operation's summary (key: its content and the plan-wide context),
 * each tool's header decisions and action names (KEPT_SHARED; key: its operations' content and what else they read),
 * each printed tool module (key: the tool and its file name), each tool's action cases (key: the tool and the
 * plan-wide context), each scaffold file finished from its template (key: its path, template and view: with all of
 * them known, Handlebars is not loaded). A changed operation changes the keys of the builds it is in and nothing
 * else; the planner and the emitter still make every decision, so the output is what a full run gives.
 *
 * The tools themselves are not kept: the budget search tries several hundred variants and keeps a few dozen, and
 * with the records it needs to build only those it keeps (the planner's ToolBuilder). Storing every build in full
 * made the memo 15–20 MB for GitHub, and reading and verifying it cost more than building the few tools kept.
 *
 * What is written back is what this run used, so the file holds one generation's work and does not grow.
 */
export class WorkMemo implements PlanMemo, EmitMemo {
  private readonly used: Stored = emptyStore();
  private readonly operationHashes: WeakMap<OperationModel, string>;
  /** Each tool's JSON, which keys both its module and its cases. */
  private readonly toolTexts = new WeakMap<ToolModel, string>();
  private readonly context: string;

  private constructor(
    private readonly stored: Stored,
    model: ApiModel,
    outputSchema: OutputSchemaMode,
    private readonly session?: SessionStore,
  ) {
    this.context = contentHash(JSON.stringify([model.title, model.servers, model.schemas, outputSchema]));
    this.operationHashes = session?.hashes ?? new WeakMap();
    // Values derived under another context (other named schemas, servers, title, output schema mode) are not reused.
    if (session && session.derived?.context !== this.context) session.derived = { context: this.context, values: new WeakMap() };
    // What the run before did not use again is let go: the store holds what two runs used, not every run's.
    if (session) session.shared = { last: session.shared.current, current: new Map() };
  }

  /** A memo that knows nothing yet (a run with no output folder to read one from). */
  static empty(model: ApiModel, outputSchema: OutputSchemaMode, session?: SessionStore): WorkMemo {
    return new WorkMemo(storedOf(undefined), model, outputSchema, session);
  }

  /**
   * The memo of the next run in the same process (a watch): what this run used is what it knows, as it would be
   * after `save` and `open`, without writing, reading or verifying the file.
   */
  carried(model: ApiModel, outputSchema: OutputSchemaMode): WorkMemo {
    return new WorkMemo(this.used, model, outputSchema, this.session);
  }

  /** The memo of an output folder's cache, or an empty one when there is none to trust. */
  static async open(
    outDir: string,
    signer: Signer,
    model: ApiModel,
    outputSchema: OutputSchemaMode,
    session?: SessionStore,
  ): Promise<WorkMemo> {
    return new WorkMemo(storedOf(await readSigned(outDir, MEMO_FILE, signer, MAX_MEMO_BYTES)), model, outputSchema, session);
  }

  /**
   * Writes what this run used, entry by entry: the build records, the scaffold files, then the printed
   * modules. Past MAX_MEMO_BYTES the remaining modules are left out — a later run prints those again — so that the
   * file stays readable.
   */
  async save(outDir: string, signer: Signer): Promise<void> {
    const { builds, summaries, sources, cases, scaffold, shared } = this.used;
    await writeSigned(
      outDir,
      MEMO_FILE,
      async (write) => {
        const records = Object.entries(builds).flatMap(([id, record]) =>
          record.characters === undefined ? [] : [[id, storedRecord(record)]],
        );
        const recordsText = JSON.stringify(Object.fromEntries(records));
        const smallText = `"summaries":${JSON.stringify(summaries)},"scaffold":${JSON.stringify(scaffold)},"shared":${JSON.stringify(shared)},"cases":${JSON.stringify(cases)}`;
        await write(`{"builds":${recordsText},${smallText},"sources":{`);
        let bytes = recordsText.length + smallText.length;
        let first = true;
        for (const [id, source] of Object.entries(sources)) {
          const piece = `${first ? '' : ','}${JSON.stringify(id)}:${JSON.stringify(source)}`;
          bytes += Buffer.byteLength(piece);
          if (bytes > MAX_MEMO_BYTES - HEADROOM) break;
          first = false;
          await write(piece);
        }
        await write('}}');
      },
      signer,
    );
  }

  buildRecord(key: string, operations: OperationModel[]): BuildRecord {
    const id = contentHash(this.context, key, ...operations.map((operation) => this.operationHash(operation)));
    const record = own(this.used.builds, id) ?? { ...own(this.stored.builds, id) };
    this.used.builds[id] = record;
    return record;
  }

  operationSummary(operation: OperationModel, make: () => OperationSummary): OperationSummary {
    const id = contentHash(this.context, 'summary', this.operationHash(operation));
    const stored = own(this.stored.summaries, id);
    if (stored) {
      this.used.summaries[id] = stored;
      return { operation, ...stored };
    }
    const { operation: _operation, ...made } = make();
    this.used.summaries[id] = made;
    return { operation, ...made };
  }

  toolSource(tool: ToolModel, fileName: string, make: () => Source): Source {
    const id = contentHash(fileName, this.toolText(tool));
    const source = own(this.stored.sources, id) ?? make();
    this.used.sources[id] = source;
    return source;
  }

  toolCases(tool: ToolModel, make: () => string): string {
    // The cases read the plan's argument definitions, which the named schemas (the context) decide.
    const id = contentHash(this.context, 'cases', this.toolText(tool));
    const cases = own(this.stored.cases, id) ?? make();
    this.used.cases[id] = cases;
    return cases;
  }

  derived<T>(kind: string, operation: OperationModel, make: () => T): T {
    const values = this.session?.derived?.values;
    if (!values) return make();
    let byKind = values.get(operation);
    if (!byKind) values.set(operation, (byKind = new Map()));
    if (byKind.has(kind)) return byKind.get(kind) as T;
    const value = make();
    byKind.set(kind, value);
    return value;
  }

  reused<T>(kind: string, keyOf: () => string, make: () => T): T {
    if (!this.session) return make();
    const key = keyOf();
    const last = this.session.reused.get(kind);
    if (last?.key === key) return last.value as T;
    const value = make();
    this.session.reused.set(kind, { key, value });
    return value;
  }

  shared<T>(kind: string, keyOf: () => string, operations: readonly OperationModel[], make: () => T): T {
    const kept = Object.hasOwn(KEPT_SHARED, kind) ? (this.used.shared[kind] ??= {}) : undefined;
    if (!this.session && !kept) return make();
    const id = contentHash(this.context, kind, keyOf(), ...operations.map((operation) => this.operationHash(operation)));
    // Without a session: what this run used already (a round forms most tools of the rounds before it, so the same
    // value is asked for again and again), else what the file holds, else made now.
    const value = this.session
      ? this.sessionValue(this.session, id, make)
      : (own(kept ?? {}, id) ?? own(this.stored.shared[kind] ?? {}, id) ?? make());
    if (kept) kept[id] = value;
    return value as T;
  }

  /** The value a watch's session holds under `id`: this run's, else its run before's (kept for this run), else made now. */
  private sessionValue(session: SessionStore, id: string, make: () => unknown): unknown {
    const { last, current } = session.shared;
    if (current.has(id)) return current.get(id);
    const value = last.has(id) ? last.get(id) : make();
    current.set(id, value);
    return value;
  }

  async scaffoldFile(key: string, make: () => Promise<string>): Promise<string> {
    const id = contentHash(key);
    const content = own(this.stored.scaffold, id) ?? (await make());
    this.used.scaffold[id] = content;
    return content;
  }

  private toolText(tool: ToolModel): string {
    let text = this.toolTexts.get(tool);
    if (text === undefined) this.toolTexts.set(tool, (text = JSON.stringify(tool)));
    return text;
  }

  private operationHash(operation: OperationModel): string {
    let hash = this.operationHashes.get(operation);
    if (!hash) {
      hash = contentHash(JSON.stringify(operation));
      this.operationHashes.set(operation, hash);
    }
    return hash;
  }
}

function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function storedRecord(record: BuildRecord): StoredRecord {
  const characters = record.characters as number;
  if (record.exactTokens === undefined) return [characters];
  return record.tool ? [characters, record.exactTokens, record.tool] : [characters, record.exactTokens];
}

function emptyStore(): Stored {
  return { builds: {}, summaries: {}, sources: {}, cases: {}, scaffold: {}, shared: {} };
}

/** A stored memo, each entry checked for its shape; entries that fail are dropped (their work is done again). */
function storedOf(value: unknown): Stored {
  const stored = emptyStore();
  if (!isJsonObject(value)) return stored;
  const { builds, summaries, sources, cases, scaffold, shared } = value;
  if (isJsonObject(shared))
    for (const [kind, check] of Object.entries(KEPT_SHARED)) {
      const values = shared[kind];
      if (!isJsonObject(values)) continue;
      stored.shared[kind] = Object.fromEntries(Object.entries(values).filter(([, entry]) => check(entry)));
    }
  if (isJsonObject(summaries))
    for (const [id, summary] of Object.entries(summaries)) if (isStoredSummary(summary)) stored.summaries[id] = summaryFields(summary);
  if (isJsonObject(scaffold)) for (const [key, text] of Object.entries(scaffold)) if (typeof text === 'string') stored.scaffold[key] = text;
  if (isJsonObject(cases)) for (const [key, text] of Object.entries(cases)) if (typeof text === 'string') stored.cases[key] = text;
  if (isJsonObject(builds))
    for (const [id, record] of Object.entries(builds))
      if (Array.isArray(record) && isStoredRecord(record))
        stored.builds[id] = {
          characters: record[0],
          ...(record.length >= 2 ? { exactTokens: record[1] } : {}),
          ...(record.length === 3 ? { tool: record[2] } : {}),
        };
  if (isJsonObject(sources))
    for (const [id, source] of Object.entries(sources))
      if (
        isJsonObject(source) &&
        typeof source['path'] === 'string' &&
        isSafeRelativePath(source['path']) &&
        typeof source['content'] === 'string'
      )
        stored.sources[id] = { path: source['path'], content: source['content'] };
  return stored;
}

function isStoredSummary(value: unknown): value is StoredSummary {
  if (!isJsonObject(value)) return false;
  const { summary, summaryWords, needs, returns, pagination, optional, argumentTypes, conditions } = value;
  if (typeof summary !== 'string' || typeof returns !== 'string' || !isTextList(summaryWords) || !isTextList(needs)) return false;
  if (optional !== undefined && !isTextList(optional)) return false;
  if (
    argumentTypes !== undefined &&
    !(Array.isArray(argumentTypes) && argumentTypes.every((pair) => isTextList(pair) && pair.length === 2))
  )
    return false;
  if (conditions !== undefined && !(Array.isArray(conditions) && conditions.every(isCondition))) return false;
  return (
    pagination === undefined ||
    (isJsonObject(pagination) &&
      isTextList(pagination['arguments']) &&
      isTextList(pagination['nextFields']) &&
      typeof pagination['nextLinkHeader'] === 'boolean')
  );
}

/** A conditional requirement as summarizeOperation writes it (plan/drafts.ts, ConditionalRequirement). */
function isCondition(value: unknown): value is ConditionalRequirement {
  if (!isJsonObject(value)) return false;
  switch (value['kind']) {
    case 'with':
      return typeof value['when'] === 'string' && isTextList(value['required']);
    case 'value':
      return typeof value['when'] === 'string' && Array.isArray(value['values']) && isTextList(value['required']);
    case 'alternatives':
      return Array.isArray(value['alternatives']) && value['alternatives'].every(isTextList);
    case 'body':
      return isTextList(value['required']);
    default:
      return false;
  }
}

/** The fields a summary has, in the order summarizeOperation writes them, and nothing else. */
function summaryFields({
  summary,
  summaryWords,
  needs,
  returns,
  pagination,
  optional,
  argumentTypes,
  conditions,
}: StoredSummary): StoredSummary {
  return {
    summary,
    summaryWords,
    needs,
    returns,
    ...(pagination ? { pagination } : {}),
    ...(argumentTypes ? { argumentTypes } : {}),
    ...(conditions ? { conditions } : {}),
    ...(optional ? { optional } : {}),
  };
}

function isStoredRecord(record: unknown[]): record is StoredRecord {
  if (record.length < 1 || record.length > 3 || !record.slice(0, 2).every(isCount)) return false;
  return record.length < 3 || isBuiltTool(record[2]);
}

/** The parts of a tool the planner and the emitter read without checking them again. */
function isBuiltTool(value: unknown): value is BuiltTool {
  if (!isJsonObject(value)) return false;
  const { name, title, description, inputSchema, actions, headers, detail } = value;
  return (
    typeof name === 'string' &&
    isUsableName(name) &&
    typeof title === 'string' &&
    typeof description === 'string' &&
    isJsonObject(inputSchema) &&
    isJsonObject(headers) &&
    isCount(detail) &&
    Array.isArray(actions) &&
    actions.every(isStoredAction)
  );
}

/** A tool's header decisions and the diagnostics deciding them gave (plan/headers/header-decider.ts). */
function isNameDraft(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  const { candidates, label, contents, sortKey } = value;
  return (
    Array.isArray(candidates) &&
    candidates.every(isTextList) &&
    typeof label === 'string' &&
    isTextList(contents) &&
    typeof sortKey === 'string'
  );
}

function isHeaderEntry(value: unknown): boolean {
  if (!isJsonObject(value) || !isJsonObject(value['decisions'])) return false;
  const { marked, refused } = value['decisions'];
  const diagnostics = value['diagnostics'];
  return isDecisionList(marked) && isDecisionList(refused) && Array.isArray(diagnostics) && diagnostics.every(isDiagnostic);
}

function isDecisionList(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (decision) =>
        isJsonObject(decision) &&
        typeof decision['property'] === 'string' &&
        typeof decision['reason'] === 'string' &&
        (decision['header'] === undefined || typeof decision['header'] === 'string'),
    )
  );
}
