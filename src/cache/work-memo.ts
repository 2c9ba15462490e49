import type { EmitMemo } from '../emit/emit-project.js';
import { isJsonObject } from '../kernel/json.js';
import type { ApiModel, OperationModel } from '../model/api-model.js';
import type { BuiltTool, PlanMemo } from '../plan/drafts.js';
import type { OutputSchemaMode, ToolModel } from '../plan/tool-plan.js';
import { isSafeRelativePath } from '../write/lock-file.js';
import { contentHash } from './content-hash.js';
import { readSigned, writeSigned, type Signer } from './signed-store.js';

const MEMO_FILE = 'work.json';
/**
 * The memo's largest size: parsing it costs memory and time that grow with it, and past this size (the builds of a
 * very large API's budget search) they outweigh the builds saved.
 */
const MAX_MEMO_BYTES = 32 * 1024 * 1024;
/** Room left under MAX_MEMO_BYTES for the counts and the signature. */
const HEADROOM = 1024 * 1024;

type Source = { path: string; content: string };
type Stored = { builds: Record<string, BuiltTool>; counts: Record<string, number>; sources: Record<string, Source> };

/**
 * The parts of a generation that a one-operation change leaves as they were, kept between runs under keys made from
 * their inputs' content: each tool build (its draft's key, its operations, and the plan-wide context: title,
 * servers, schemas, output schema mode), each exact token count (the counted JSON), each printed tool module (the tool
 * and its file name). A changed operation changes the keys of the builds it is in and nothing else; the planner and
 * the emitter still make every decision, so the output is what a full run gives.
 *
 * What is written back is what this run used, so the file holds one generation's work and does not grow.
 */
export class WorkMemo implements PlanMemo, EmitMemo {
  private readonly used: Stored = { builds: {}, counts: {}, sources: {} };
  private readonly operationHashes = new WeakMap<OperationModel, string>();
  private readonly context: string;

  private constructor(
    private readonly stored: Stored,
    model: ApiModel,
    outputSchema: OutputSchemaMode,
  ) {
    this.context = contentHash(JSON.stringify([model.title, model.servers, model.schemas, outputSchema]));
  }

  /** The memo of an output folder's cache, or an empty one when there is none to trust. */
  static async open(outDir: string, signer: Signer, model: ApiModel, outputSchema: OutputSchemaMode): Promise<WorkMemo> {
    return new WorkMemo(storedOf(await readSigned(outDir, MEMO_FILE, signer, MAX_MEMO_BYTES)), model, outputSchema);
  }

  /**
   * Writes what this run used, entry by entry. Builds are the bulk (every detail level the budget search rendered);
   * past MAX_MEMO_BYTES the rest are left out — a later run builds those again — so that the file stays readable.
   */
  async save(outDir: string, signer: Signer): Promise<void> {
    const { builds, counts, sources } = this.used;
    await writeSigned(
      outDir,
      MEMO_FILE,
      async (write) => {
        await write(`{"counts":${JSON.stringify(counts)},"sources":{`);
        let bytes = 0;
        let first = true;
        for (const [id, source] of Object.entries(sources)) {
          const piece = `${first ? '' : ','}${JSON.stringify(id)}:${JSON.stringify(source)}`;
          bytes += Buffer.byteLength(piece);
          first = false;
          await write(piece);
        }
        await write('},"builds":{');
        first = true;
        for (const [id, tool] of Object.entries(builds)) {
          const piece = `${first ? '' : ','}${JSON.stringify(id)}:${JSON.stringify(tool)}`;
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

  build(key: string, draft: { name: string; operations: OperationModel[] }, make: () => BuiltTool): BuiltTool {
    const id = contentHash(this.context, key, ...draft.operations.map((operation) => this.operationHash(operation)));
    const kept = own(this.stored.builds, id);
    // Signed by this user, but checked against what is asked all the same: the name becomes a file name.
    const tool = kept && kept.name === draft.name && kept.actions.length === draft.operations.length ? kept : make();
    this.used.builds[id] = tool;
    return tool;
  }

  count(tool: BuiltTool, make: () => number): number {
    const id = contentHash(JSON.stringify([tool.name, tool.title, tool.description, tool.inputSchema, tool.annotations]));
    const kept = own(this.stored.counts, id);
    const tokens = kept ?? make();
    this.used.counts[id] = tokens;
    return tokens;
  }

  toolSource(tool: ToolModel, fileName: string, make: () => Source): Source {
    const id = contentHash(fileName, JSON.stringify(tool));
    const source = own(this.stored.sources, id) ?? make();
    this.used.sources[id] = source;
    return source;
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

/** A stored memo, each entry checked for its shape; entries that fail are dropped (their work is done again). */
function storedOf(value: unknown): Stored {
  const stored: Stored = { builds: {}, counts: {}, sources: {} };
  if (!isJsonObject(value)) return stored;
  const { builds, counts, sources } = value;
  if (isJsonObject(builds))
    for (const [id, tool] of Object.entries(builds))
      if (isJsonObject(tool) && typeof tool['name'] === 'string' && Array.isArray(tool['actions']))
        stored.builds[id] = tool as unknown as BuiltTool;
  if (isJsonObject(counts))
    for (const [id, tokens] of Object.entries(counts))
      if (Number.isSafeInteger(tokens) && (tokens as number) >= 0) stored.counts[id] = tokens as number;
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
