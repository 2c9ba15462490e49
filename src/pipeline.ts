import path from 'node:path';
import { checkOptions, type CheckedOptions } from './check-options.js';
import { Diagnostics, type Diagnostic } from './diagnostics/diagnostic.js';
import { resolveOptions, type GenerateSettings, type PlanSettings, type ResolvedOptions } from './config/resolve-options.js';
import { emitProject } from './emit/emit-project.js';
import { loadSpec } from './load/load-spec.js';
import type { ApiModel } from './model/api-model.js';
import { addCredentials } from './model/add-credentials.js';
import { applyOverrides } from './model/apply-overrides.js';
import { buildApiModel } from './model/build-api-model.js';
import { nameSlug } from './model/identify-api.js';
import { diffSurfaces, type SurfaceDiff } from './surface/diff-surface.js';
import { planTools } from './plan/plan-tools.js';
import { surfaceOf } from './plan/surface-of.js';
import type { ToolPlan } from './plan/tool-plan.js';
import { chooseSurface } from './search/choose-surface.js';
import type { SurfaceChoice } from './search/search-plan.js';
import { GENERATOR_VERSION } from './kernel/version.js';
import { namesOf } from './write/lock-file.js';
import { readExistingProject } from './write/read-project.js';
import { writeProject, type WriteResult } from './write/write-project.js';

export type StageTimings = { load: number; model: number; plan: number; emit: number; write: number };

/** The stage about to run, for progress reports (the CLI shows them on a terminal). */
export type PipelineStage = keyof StageTimings;

type Progress = { onProgress?: (stage: PipelineStage) => void };

export type PlanRunOptions = PlanSettings & Progress;

export type PlanRunResult = {
  ok: boolean;
  diagnostics: Diagnostic[];
  model?: ApiModel;
  plan?: ToolPlan;
  /** The surface served, with the search surface's tools, catalog and index when that is the one. */
  surface?: SurfaceChoice;
  timings: StageTimings;
};

export type GenerateRunOptions = GenerateSettings & Progress;

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
  options: ResolvedOptions & Progress & CheckedOptions,
  diagnostics: Diagnostics,
  timings: StageTimings,
): Promise<ApiModel | undefined> {
  if (!checkOptions(options, diagnostics)) return undefined;
  options.onProgress?.('load');
  let start = now();
  const document = await loadSpec(options, diagnostics);
  timings.load = now() - start;
  if (!document || diagnostics.hasErrors) return undefined;
  options.onProgress?.('model');
  start = now();
  const built = buildApiModel(document, diagnostics);
  const overridden = options.overrides
    ? applyOverrides(
        built,
        { overrides: options.overrides, ...(options.overridesFile ? { file: options.overridesFile } : {}) },
        diagnostics,
      )
    : built;
  const credentialed = options.credentials
    ? addCredentials(overridden, options.credentials, diagnostics, options.overridesFile)
    : overridden;
  const model = options.name ? { ...credentialed, slug: nameSlug(options.name) } : credentialed;
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

async function planStages(options: ResolvedOptions & Progress, diagnostics: Diagnostics): Promise<PlanRunResult> {
  const timings = emptyTimings();
  const model = await runModel(options, diagnostics, timings);
  if (!model) return { ok: false, diagnostics: diagnostics.items, timings };
  options.onProgress?.('plan');
  const start = now();
  const plan = planTools(model, options, diagnostics);
  const surface = diagnostics.hasErrors ? undefined : surfaceOfPlan(options, plan, model, diagnostics);
  timings.plan = now() - start;
  return { ok: !diagnostics.hasErrors, diagnostics: diagnostics.items, model, plan, ...(surface ? { surface } : {}), timings };
}

/** The surface the plan is served with (the search surface is planned from the finished plan). */
function surfaceOfPlan(options: ResolvedOptions, plan: ToolPlan, model: ApiModel, diagnostics: Diagnostics): SurfaceChoice {
  return chooseSurface(options.surface, plan, model, { prefix: options.prefix ?? model.extension.prefix }, diagnostics);
}

/**
 * The whole pipeline: plan (keeping the names the output folder's lock file pins), emit the project, then write
 * it — or, with `check`, compare it with what is there.
 */
export async function runGenerate(options: GenerateRunOptions): Promise<GenerateRunResult> {
  const diagnostics = new Diagnostics();
  return settling(diagnostics, () => generateStages(resolveOptions(options), diagnostics));
}

async function generateStages(options: ResolvedOptions & Progress, diagnostics: Diagnostics): Promise<GenerateRunResult> {
  const timings = emptyTimings();
  const model = await runModel(options, diagnostics, timings);
  if (!model) return { ok: false, diagnostics: diagnostics.items, timings };
  const outDir = path.resolve(options.out ?? `./${model.slug}-mcp`);
  const existing = await readExistingProject(outDir);
  const previous = existing.kind === 'generated' ? existing.lock.surface : undefined;
  options.onProgress?.('plan');
  let start = now();
  const plan = planTools(model, { ...options, ...(previous && !options.regroup ? { previous: namesOf(previous) } : {}) }, diagnostics);
  if (diagnostics.hasErrors)
    return { ok: false, diagnostics: diagnostics.items, model, plan, timings: { ...timings, plan: now() - start } };
  const served = surfaceOfPlan(options, plan, model, diagnostics);
  timings.plan = now() - start;
  const surface = surfaceOf(plan);
  const diff = previous ? diffSurfaces(previous, surface) : undefined;
  options.onProgress?.('emit');
  start = now();
  const prefix = options.prefix ?? model.extension.prefix;
  const files = await emitProject(plan, {
    ...(options.packageName ? { packageName: options.packageName } : {}),
    target: options.target,
    deploy: options.deploy,
    ...(served.search ? { search: served.search } : {}),
    ...(prefix ? { prefix } : {}),
  });
  timings.emit = now() - start;
  options.onProgress?.('write');
  start = now();
  const write = await writeProject(
    files,
    {
      outDir,
      existing,
      check: options.check,
      force: options.force,
      generator: GENERATOR,
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
    model,
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
