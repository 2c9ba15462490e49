import path from 'node:path';
import { checkOptions, type CheckedOptions } from './check-options.js';
import { Diagnostics, type Diagnostic } from './diagnostics/diagnostic.js';
import { resolveOptions, type GenerateSettings, type PlanSettings, type ResolvedOptions } from './config/resolve-options.js';
import { loadSpec, readSpecSource, type LoadOptions, type Validated } from './load/load-spec.js';
import { embedIconSources, iconSet } from './load/read-icons.js';
import type { SourceText } from './load/read-source.js';
import type { OpenApiDocument } from './load/openapi-document.js';
import { WorkMemo, type SessionStore } from './cache/work-memo.js';
import { readLastRun, storeKept, type Kept, type LastRun } from './cache/last-run.js';
import { PathItemReplay } from './cache/path-item-replay.js';
import type { PathItemMemo } from './model/path-item-memo.js';
import type { WatchSession } from './cache/watch-session.js';
import { lookupRun, openRunCache, storeRun, type RunCache, type RunEntry, type RunInputs } from './cache/run-cache.js';
import { confirmDefaults, type ConfirmDefaults } from './emit/confirm-defaults.js';
import type { EmittedFile } from './emit/file-set.js';
import { pointerOf } from './diagnostics/json-pointer.js';
import type { PlannedArguments, PlannerOptions, PreviousNames } from './plan/drafts.js';
import type { Surface } from './surface/surface.js';
import type { ApiModel } from './model/api-model.js';
import { addCredentials } from './model/add-credentials.js';
import { applyOverrides } from './model/apply-overrides.js';
import { buildApiModel } from './model/build-api-model.js';
import { reconcileParameterTypes } from './model/reconcile-parameter-types.js';
import { nameSlug } from './model/identify-api.js';
import { diffSurfaces, type SurfaceDiff } from './surface/diff-surface.js';
import { planToolsWithArguments } from './plan/plan-tools.js';
import { surfaceOf } from './plan/surface-of.js';
import type { ToolPlan } from './plan/tool-plan.js';
import { chooseSurface } from './search/choose-surface.js';
import type { SurfaceChoice } from './search/search-plan.js';
import { collectGarbage } from './kernel/collect-garbage.js';
import { once } from './kernel/once.js';
import { GENERATOR_VERSION } from './kernel/version.js';
import { namesOf } from './write/lock-file.js';
import { readExistingProject, type ExistingProject } from './write/read-project.js';
import { writeProject, type WriteResult } from './write/write-project.js';

export type StageTimings = { load: number; model: number; plan: number; emit: number; write: number };

/** The stage about to run, for progress reports (the CLI shows them on a terminal). */
export type PipelineStage = keyof StageTimings;

/**
 * Callbacks a caller may pass to follow a run: the stage it is in, and the files `$ref`s pulled in (for --watch); and
 * the session of a process that runs again and again (--watch), which keeps the last run's work in memory.
 */
type Observers = { onProgress?: (stage: PipelineStage) => void; onInputFile?: (file: string) => void; session?: WatchSession };

export type PlanRunOptions = PlanSettings & Observers;

export type PlanRunResult = {
  ok: boolean;
  diagnostics: Diagnostic[];
  /** Absent when a generation replayed a previous run from the regeneration cache (the description was not parsed). */
  model?: ApiModel;
  plan?: ToolPlan;
  /** The surface served, with the search surface's tools, catalog and index when that is the one. */
  surface?: SurfaceChoice;
  timings: StageTimings;
};

export type GenerateRunOptions = GenerateSettings & Observers;

export type GenerateRunResult = PlanRunResult & {
  outDir?: string;
  write?: WriteResult;
  stale?: string[];
  /** Changes to the tool surface since the previous generation into the same folder. */
  diff?: SurfaceDiff;
};

export const GENERATOR = `openapi-to-mcp@${GENERATOR_VERSION}`;

const now = () => performance.now();
const emptyTimings = (): StageTimings => ({ load: 0, model: 0, plan: 0, emit: 0, write: 0 });

/** load → model (with configured overrides applied), stopping at the first stage that reports an error. */
async function runModel(
  options: ResolvedOptions & Observers & CheckedOptions,
  diagnostics: Diagnostics,
  timings: StageTimings,
): Promise<ApiModel | undefined> {
  if (!checkOptions(options, diagnostics)) return undefined;
  options.onProgress?.('load');
  const start = now();
  const document = await loadSpec(loadOptions(options), diagnostics);
  timings.load = now() - start;
  return document && !diagnostics.hasErrors ? modelOf(document, options, diagnostics, timings) : undefined;
}

/** The load stage's options: a watch's runs parse and validate from the last save (or in the worker its session keeps). */
function loadOptions(options: ResolvedOptions & Observers): LoadOptions {
  return options.session ? { ...options, validation: options.session.validation, reparse: options.session.documents } : options;
}

/**
 * The model stage: the API model with the configuration's overrides, credentials and name applied. `pathItems`: the
 * builds of a run before (a watch's, or the regeneration cache's), where not a watch's.
 */
function modelOf(
  document: OpenApiDocument,
  options: ResolvedOptions & Observers,
  diagnostics: Diagnostics,
  timings: StageTimings,
  pathItems?: PathItemMemo,
) {
  options.onProgress?.('model');
  const start = now();
  const built = buildApiModel(document, diagnostics, options.session?.pathItems ?? pathItems);
  const { model: configured, types } = options.overrides
    ? applyOverrides(
        built,
        { overrides: options.overrides, ...(options.overridesFile ? { file: options.overridesFile } : {}) },
        diagnostics,
      )
    : { model: built, types: { pins: [] } };
  const overridden = reconcileParameterTypes(configured, types, diagnostics);
  const credentialed = options.credentials
    ? addCredentials(overridden, options.credentials, diagnostics, options.overridesFile)
    : overridden;
  const named = options.name ? { ...credentialed, slug: nameSlug(options.name) } : credentialed;
  // A watch's operations that did not change come back as the last run's objects, which the planner knows.
  const model = options.session && !diagnostics.hasErrors ? options.session.intern(named) : named;
  timings.model = now() - start;
  return diagnostics.hasErrors ? undefined : model;
}

/** load → model → plan. */
export async function runPlan(options: PlanRunOptions, diagnostics = new Diagnostics()): Promise<PlanRunResult> {
  return settling(diagnostics, () => planStages(resolveOptions(options), diagnostics));
}

/** Runs stages, then waits for diagnostics computed alongside them (validation of a large description, in a worker). */
async function settling<T>(diagnostics: Diagnostics, stages: () => Promise<T>): Promise<T> {
  try {
    return await stages();
  } finally {
    await diagnostics.settle();
  }
}

async function planStages(options: ResolvedOptions & Observers, diagnostics: Diagnostics): Promise<PlanRunResult> {
  const timings = emptyTimings();
  const model = await runModel(options, diagnostics, timings);
  if (!model) return { ok: false, diagnostics: diagnostics.items, timings };
  options.onProgress?.('plan');
  const start = now();
  // A watch's runs share their work (nothing is stored: `plan` writes no cache); a single run has nothing to share.
  const memo = options.session ? await options.session.memoFor(model, options.outputSchema, async () => undefined) : undefined;
  const { plan, arguments: planned } = planToolsWithArguments(
    model,
    { ...plannerOptions(options), ...(memo ? { memo } : {}) },
    diagnostics,
  );
  const surface = diagnostics.hasErrors ? undefined : await surfaceOfPlan(options, plan, model, diagnostics, planned);
  timings.plan = now() - start;
  return { ok: !diagnostics.hasErrors, diagnostics: diagnostics.items, model, plan, ...(surface ? { surface } : {}), timings };
}

/** The planner's options: the static tools need no budget search when another surface serves them (see drafts.ts). */
function plannerOptions(options: ResolvedOptions): PlannerOptions {
  return { ...options, unlistedWhenOverBudget: options.surface !== 'static' };
}

/** The surface the plan is served with (the search surface is planned from the finished plan). */
function surfaceOfPlan(
  options: ResolvedOptions,
  plan: ToolPlan,
  model: ApiModel,
  diagnostics: Diagnostics,
  planned: PlannedArguments,
): Promise<SurfaceChoice> {
  return chooseSurface(options.surface, plan, model, { prefix: options.prefix ?? model.extension.prefix }, diagnostics, planned);
}

/**
 * The whole pipeline: plan (keeping the names the output folder's lock file pins), emit the project, then write
 * it — or, with `check`, compare it with what is there.
 */
export async function runGenerate(options: GenerateRunOptions): Promise<GenerateRunResult> {
  const diagnostics = new Diagnostics();
  return settling(diagnostics, () => generateStages(resolveOptions(options), diagnostics));
}

async function generateStages(given: ResolvedOptions & Observers, diagnostics: Diagnostics): Promise<GenerateRunResult> {
  const timings = emptyTimings();
  if (!checkOptions(given, diagnostics)) return { ok: false, diagnostics: diagnostics.items, timings };
  // Icon files are read into data: URIs first, so that the regeneration cache keys on the images, not their paths.
  const options = given.icons ? { ...given, icons: await embedIconSources(given.icons, diagnostics, given.overridesFile) } : given;
  const { session } = options;
  // The cache files the run before may be writing are read now, and the folder it wrote is written again.
  await session?.beforeRun();
  const modelled = await modelStages(options, diagnostics, timings);
  if ('failed' in modelled || 'replayed' in modelled) session?.ran();
  if ('failed' in modelled) return { ok: false, diagnostics: diagnostics.items, timings };
  if ('replayed' in modelled) return writeStage(options, diagnostics, timings, modelled.replayed);
  const { model, folder, cache, fromStages, collect, kept } = modelled;
  // The builds, counts and printed modules of the last run, for the parts of the description that did not change.
  const opened = (store?: SessionStore) =>
    cache ? WorkMemo.open(folder.outDir, cache.signer, model, options.outputSchema, store) : Promise.resolve(undefined);
  const memo = session ? await session.memoFor(model, options.outputSchema, opened) : await opened();
  // The description's text and parsed document are garbage now (see collectGarbage).
  collect();
  options.onProgress?.('plan');
  let stageStart = now();
  const { plan, arguments: planned } = planToolsWithArguments(
    model,
    {
      ...plannerOptions(options),
      ...(folder.pinned ? { previous: folder.pinned } : {}),
      ...(folder.pinnedPrefix ? { previousPrefix: folder.pinnedPrefix } : {}),
      ...(memo ? { memo } : {}),
    },
    diagnostics,
  );
  if (diagnostics.hasErrors)
    return { ok: false, diagnostics: diagnostics.items, model, plan, timings: { ...timings, plan: now() - stageStart } };
  const served = await surfaceOfPlan(options, plan, model, diagnostics, planned);
  timings.plan = now() - stageStart;
  // So are the planner's intermediate values (every candidate build, rendering and count).
  collect();
  options.onProgress?.('emit');
  stageStart = now();
  const prefix = options.prefix ?? model.extension.prefix;
  // The emitter (and prettier's printer with it) loads only in a run that emits: `plan` and `diff` never do.
  const { emitProject } = await import('./emit/emit-project.js');
  const servedNames = [...plan.tools.map((tool) => tool.name), ...(served.search?.tools.map((tool) => tool.name) ?? [])];
  const icons = iconSet(options.icons, model.logo, servedNames, diagnostics, options.overridesFile);
  const files = await emitProject(plan, {
    ...(icons ? { icons } : {}),
    ...(options.packageName ? { packageName: options.packageName } : {}),
    target: options.target,
    deploy: options.deploy,
    ...confirmOf(options, plan, diagnostics),
    ...(served.search ? { search: served.search } : {}),
    ...(prefix ? { prefix } : {}),
    ...(memo ? { memo } : {}),
  });
  timings.emit = now() - stageStart;
  const produced: Produced = { ...folder, model, plan, served, files };
  if (!cache || options.check) return writeStage(options, diagnostics, timings, produced);
  // What the stages found, validation of a large description included (a worker may still be on it), is stored
  // with the output; only a run that succeeded and left the folder as generated is.
  await diagnostics.settle();
  const stages = diagnostics.items.slice(fromStages);
  const result = await writeStage(options, diagnostics, timings, produced);
  if (result.ok && result.write && result.write.edited.length === 0) {
    // One file after the other: written side by side, the three bodies' strings and buffers were alive at once, and
    // GitHub's generation peaked about 10 MB higher (fresh: 169–173 against 159–164 MB; a one-change regeneration:
    // 146–147 against 136–138 MB) for no gain in time.
    const store = async () => {
      await storeRun(cache, { diagnostics: stages, plan, surface: served, files });
      await memo?.save(folder.outDir, cache.signer);
      if (kept) await storeKept(cache, kept);
    };
    if (session) session.persist(store);
    else await store();
  }
  return result;
}

/** The configuration's confirmation policies for the emitter; a per-tool one for no tool that deletes is warned of. */
function confirmOf(options: ResolvedOptions, plan: ToolPlan, diagnostics: Diagnostics): { confirm?: ConfirmDefaults } {
  const { defaults, unmatched } = confirmDefaults(plan, options.confirm);
  for (const name of unmatched)
    diagnostics.warn('OTM_CONFIG_INVALID', `confirm.tools names no tool of the plan that deletes: ${JSON.stringify(name)}.`, {
      pointer: pointerOf('confirm', 'tools', name),
      hint: 'Use the names of destructive tools that `openapi-to-mcp plan` shows; mark an operation destructive with operations.<id>.annotations.destructiveHint.',
    });
  return defaults ? { confirm: defaults } : {};
}

/**
 * What the stages before planning leave: a model to plan (and how the run collects garbage between its stages), a
 * cached run to replay, or a failure (in diagnostics).
 */
type Modelled =
  | { failed: true }
  | { replayed: Produced }
  | { model: ApiModel; folder: Folder; cache: RunCache | undefined; fromStages: number; collect: () => void; kept?: Kept };

/**
 * Below this size of description (characters), a run's garbage is a few megabytes and a forced full collection, 7–10
 * ms of fixed cost each, buys nothing: three of them were about 40 ms of the petstore's generation, and Spotify's
 * (290 kB) peak and time came out the same with and without them. Xero's (930 kB) peak was 6 MB lower with them.
 */
const SMALL_DESCRIPTION_CHARS = 256 * 1024;

/**
 * A full collection between stages keeps one run's peak low (collectGarbage); a small description leaves too little
 * garbage for one to pay, and a watch's later runs keep their work in memory anyway, where each collection would
 * delay the answer to a save by tens of milliseconds. Nor is one run after a watch's run has answered: the next run
 * then took half as long again (GitHub: about 1.3 s against 0.8 s a save, the heap grown anew and code compiled
 * again), for a peak about 30 MB lower.
 */
function collectorFor(options: Observers, source: SourceText): () => void {
  return options.session?.warm || source.text.length < SMALL_DESCRIPTION_CHARS ? () => undefined : collectGarbage;
}

/**
 * Reads the description, answers from the regeneration cache when it can, else parses it and builds the model. In a
 * function of its own so that the description's text (26 MB of UTF-16 for GitHub's 13 MB file) is garbage once the
 * model exists: a local of generateStages would be held through planning and emitting.
 */
async function modelStages(options: ResolvedOptions & Observers, diagnostics: Diagnostics, timings: StageTimings): Promise<Modelled> {
  options.onProgress?.('load');
  const start = now();
  // Held only by this handoff, which loadAndModel empties: see takeSource.
  const read: Handoff = { source: await readSpecSource(options, diagnostics), start };
  if (!read.source || diagnostics.hasErrors) {
    timings.load = now() - start;
    return { failed: true };
  }
  // Diagnostics from here on are the stages' own: what a cached run stores and a later run replays.
  const fromStages = diagnostics.items.length;
  // Only the text's digest is kept here, not the text: once parsed, the text is garbage, and the collection after
  // parsing frees it before the model is built (GitHub: 26 MB of UTF-16 that used to be held to the model's end).
  const textHash = read.source.digest;
  const collect = collectorFor(options, read.source);
  // A watch's save of new text: the cache holds a run of the text before (the session's last), which cannot answer
  // this one, so nothing is looked up.
  const unseen = options.session?.newText(textHash) === true;
  // With --out known before parsing, an unchanged description is answered from the cache without being parsed.
  const early = options.out ? await openFolder(path.resolve(options.out), options, textHash) : undefined;
  if (early && !usable(early, options, diagnostics)) return { failed: true };
  const earlyHit = early?.cache && !unseen ? await lookupRun(early.cache) : undefined;
  if (early && earlyHit) {
    timings.load = now() - start;
    return { replayed: replay(early, earlyHit, diagnostics, fromStages) };
  }
  // The last run's check, for this run's to start from (load/last-check.ts); a watch keeps its own in memory.
  if (early?.cache && !options.session && options.validate !== false && read.source.kind === 'file')
    read.last = (await readLastRun(early.cache)) ?? null;
  const { model, externalRefs, kept, resumed } = await loadAndModel(options, diagnostics, timings, read, collect);
  if (!model) return { failed: true };
  const folder = early ?? (await openFolder(path.resolve(options.out ?? `./${model.slug}-mcp`), options, textHash));
  if (!usable(folder, options, diagnostics)) return { failed: true };
  // A description that pulls in other files is decided by more than its own text: such runs are not cached.
  const cache = externalRefs ? undefined : folder.cache;
  if (cache && !early && !unseen) {
    const hit = await lookupRun(cache);
    if (hit) {
      await diagnostics.settle();
      return { replayed: replay(folder, hit, diagnostics, fromStages) };
    }
  }
  // A resumed model's document was parsed only as far as it was read, and its getters held the text until the model
  // existed: the text (26 MB for GitHub's) is the one large garbage such a run leaves, freed by its one collection.
  // Left to V8, GitHub's regeneration peaked at 175 MB of RSS in half the runs, against 144–148 MB with it.
  return { model, folder, cache, fromStages, collect: resumed ? once(collect) : collect, ...(kept ? { kept } : {}) };
}

/**
 * Parses the text read and builds the model. In a function of its own so that the parsed document (hundreds of
 * megabytes for the largest APIs) is garbage once the model exists, not held through planning and emitting.
 */
async function loadAndModel(
  options: ResolvedOptions & Observers,
  diagnostics: Diagnostics,
  timings: StageTimings,
  read: Handoff,
  collect: () => void,
): Promise<{ model?: ApiModel; externalRefs: boolean; kept?: Kept; resumed?: boolean }> {
  let validated: Validated | undefined;
  const keeping = read.last !== undefined;
  const last = takeLast(read);
  const digest = read.source?.digest ?? '';
  const document = await loadSpec(
    {
      ...loadOptions(options),
      ...(keeping ? { keepCheck: (given: typeof validated) => (validated = given) } : {}),
      ...(last ? { lastCheck: last.check } : {}),
    },
    diagnostics,
    takeSource(read),
  );
  timings.load = now() - read.start;
  if (!document || diagnostics.hasErrors) return { externalRefs: false };
  // The builds of the last run's model where only one path item's text changed since; recorded for the next run.
  const change = validated?.change;
  const resumable = last?.model && change ? { stored: last.model, key: change.key } : undefined;
  // The text is garbage now, in large-object space, which only a full collection frees: collected here, the model is
  // built in a heap sized for the parsed document alone while the validation worker parses its own copy (GitHub's
  // first peak of RSS, at the end of the model stage, went from about 200 MB to 167 MB). A run that resumes the last
  // one's model leaves too little garbage for three collections to pay (GitHub's took 50–60 ms of a 1.2 s run): it
  // makes one, once the model exists (modelStages).
  if (!resumable) collect();
  const unreferenced = validated?.pathsUnreferenced ?? false;
  const replay =
    validated &&
    (resumable ? PathItemReplay.resumed(resumable.stored, resumable.key, unreferenced) : new PathItemReplay(false, unreferenced));
  const model = modelOf(document, options, diagnostics, timings, replay);
  const kept = validated && { digest, check: validated.kept, ...(replay ? { replay } : {}) };
  return {
    ...(model ? { model } : {}),
    externalRefs: document.externalRefs === true,
    ...(kept ? { kept } : {}),
    resumed: resumable !== undefined,
  };
}

/**
 * The description's text as read, on its way to the parser, and when the load stage started; for a run that keeps
 * its check, the last run's (null: none to start from).
 */
type Handoff = { source?: SourceText; start: number; last?: LastRun | null };

/**
 * The text, taken out of its handoff. Once parsed it is garbage, so that the model is built without it: a local
 * or parameter of the stages would hold it (25 MB of UTF-16 for GitHub's description) until the model exists.
 */
function takeSource(read: Handoff): SourceText | undefined {
  const { source } = read;
  delete read.source;
  return source;
}

/** The last run's check and builds, taken out of their handoff like the text. */
function takeLast(read: Handoff): LastRun | undefined {
  const { last } = read;
  if (last) read.last = null;
  return last ?? undefined;
}

/** The output folder as a run finds it: what is there, the lock file's surface and pins, its cache for this run. */
type Folder = {
  outDir: string;
  existing: ExistingProject;
  lockSurface?: Surface;
  pinned?: PreviousNames;
  /** The prefix the pinned names carry. */
  pinnedPrefix?: string;
  cache?: RunCache;
};

/** What the stages hand the write stage, computed or replayed from the cache. */
type Produced = Folder & { model?: ApiModel; plan: ToolPlan; served: SurfaceChoice; files: EmittedFile[] };

async function openFolder(outDir: string, options: ResolvedOptions & Observers, textHash: RunInputs['textHash']): Promise<Folder> {
  const existing = await readExistingProject(outDir);
  if (existing.kind === 'unusable') return { outDir, existing };
  const lockSurface = existing.kind === 'generated' ? existing.lock.surface : undefined;
  const pinned = lockSurface && !options.regroup ? namesOf(lockSurface) : undefined;
  const pinnedPrefix = pinned && existing.kind === 'generated' ? existing.lock.prefix : undefined;
  const cache = options.cache
    ? await openRunCache(outDir, { textHash, options: cacheKeyOptions(options), pinned: pinnedPrefix ? { pinned, pinnedPrefix } : pinned })
    : undefined;
  return {
    outDir,
    existing,
    ...(lockSurface ? { lockSurface } : {}),
    ...(pinned ? { pinned } : {}),
    ...(pinnedPrefix ? { pinnedPrefix } : {}),
    ...(cache ? { cache } : {}),
  };
}

/** False, with an error, where the output path cannot be a folder: before any planning, since nothing could be written. */
function usable(folder: Folder, options: ResolvedOptions, diagnostics: Diagnostics): boolean {
  if (folder.existing.kind !== 'unusable') return true;
  const given = options.out ?? path.relative(process.cwd(), folder.outDir);
  diagnostics.error('OTM_WRITE_FAILED', `${given} cannot be the output folder: ${folder.existing.reason}.`, {
    hint: 'Give --out a folder that is new, empty or generated before, on a path that runs through folders only; nothing was changed.',
  });
  return false;
}

/** The options that decide what is generated; where and how it is written (and callbacks, a watch's session) do not. */
function cacheKeyOptions(options: ResolvedOptions & Observers): Record<string, unknown> {
  const { out: _out, check: _check, force: _force, cache: _cache, readStdin: _readStdin, session: _session, ...deciding } = options;
  return deciding;
}

/** A cached run's output, with its diagnostics in place of the ones this run's stages reported so far. */
function replay(folder: Folder, entry: RunEntry, diagnostics: Diagnostics, fromStages: number): Produced {
  diagnostics.items.splice(fromStages);
  for (const item of entry.diagnostics) diagnostics.add(item);
  return { ...folder, plan: entry.plan, served: entry.surface, files: entry.files };
}

/** Stage 5: the lock file's surface and the changelog's diff, then the project written (or compared, with --check). */
async function writeStage(
  options: ResolvedOptions & Observers,
  diagnostics: Diagnostics,
  timings: StageTimings,
  produced: Produced,
): Promise<GenerateRunResult> {
  const { outDir, existing, lockSurface, model, plan, served, files } = produced;
  const surface = surfaceOf(plan);
  const diff = lockSurface ? diffSurfaces(lockSurface, surface) : undefined;
  options.onProgress?.('write');
  const start = now();
  const write = await writeProject(
    files,
    {
      outDir,
      existing,
      check: options.check,
      force: options.force,
      generator: GENERATOR,
      ...(plan.api.toolPrefix ? { prefix: plan.api.toolPrefix } : {}),
      surface,
      changelog: { apiVersion: plan.api.version, generator: GENERATOR, tools: plan.tools.length, ...(diff ? { diff } : {}) },
    },
    diagnostics,
  );
  timings.write = now() - start;
  const stale = options.check ? write.changes.map((change) => change.path) : undefined;
  if (stale && stale.length > 0) {
    diagnostics.error('OTM_OUTPUT_STALE', `${outDir} differs from what the description generates: ${stale.join(', ')}.`, {
      hint: 'Regenerate without --check and commit the result.',
    });
  }
  return {
    ok: !diagnostics.hasErrors,
    diagnostics: diagnostics.items,
    ...(model ? { model } : {}),
    plan,
    surface: served,
    timings,
    outDir,
    write,
    ...(stale ? { stale } : {}),
    ...(diff ? { diff } : {}),
  };
}

export type DiffRunResult = { ok: boolean; diagnostics: Diagnostic[]; diff?: SurfaceDiff };

/**
 * The change to the tool surface between two descriptions, as a regeneration from the old one to the new one would
 * see it: the new plan keeps the old plan's names, as it would through the lock file.
 */
export async function runDiff(options: { old: string; new: string } & Omit<PlanRunOptions, 'spec'>): Promise<DiffRunResult> {
  const { old: oldSpec, new: newSpec, ...rest } = options;
  const before = await runPlan({ ...rest, spec: oldSpec });
  if (!before.ok || !before.plan) return { ok: false, diagnostics: before.diagnostics };
  const previous = surfaceOf(before.plan);
  const after = await runPlan({ ...rest, spec: newSpec, previous: namesOf(previous) });
  if (!after.ok || !after.plan) return { ok: false, diagnostics: after.diagnostics };
  return { ok: true, diagnostics: [...before.diagnostics, ...after.diagnostics], diff: diffSurfaces(previous, surfaceOf(after.plan)) };
}
