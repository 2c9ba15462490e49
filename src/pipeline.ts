import path from 'node:path';
import { Diagnostics, type Diagnostic } from './diagnostics/diagnostic.js';
import { emitProject } from './emit/emit-project.js';
import { loadSpec, type LoadOptions } from './load/load-spec.js';
import type { ApiModel } from './model/api-model.js';
import { buildApiModel } from './model/build-api-model.js';
import { planTools, type PlanOptions } from './plan/plan-tools.js';
import type { ToolPlan } from './plan/tool-plan.js';
import { GENERATOR_VERSION } from './version.js';
import type { LockFile } from './write/lock-file.js';
import { writeProject, type WriteResult } from './write/write-project.js';

export type StageTimings = { load: number; model: number; plan: number; emit: number; write: number };

export type PlanRunOptions = LoadOptions & PlanOptions;

export type PlanRunResult = { ok: boolean; diagnostics: Diagnostic[]; model?: ApiModel; plan?: ToolPlan; timings: StageTimings };

export type GenerateRunOptions = PlanRunOptions & {
  /** Output folder; default `./<api-slug>-mcp`. */
  out?: string;
  /** Compare with the output folder instead of writing; `stale` lists what differs. */
  check?: boolean;
  force?: boolean;
  packageName?: string;
};

export type GenerateRunResult = PlanRunResult & { outDir?: string; write?: WriteResult; stale?: string[] };

const now = () => performance.now();

/** load → model → plan, stopping at the first stage that reports an error. */
export async function runPlan(options: PlanRunOptions, diagnostics = new Diagnostics()): Promise<PlanRunResult> {
  const timings: StageTimings = { load: 0, model: 0, plan: 0, emit: 0, write: 0 };
  let start = now();
  const document = await loadSpec(options, diagnostics);
  timings.load = now() - start;
  if (!document || diagnostics.hasErrors) return { ok: false, diagnostics: diagnostics.items, timings };
  start = now();
  const model = buildApiModel(document, diagnostics);
  timings.model = now() - start;
  if (diagnostics.hasErrors) return { ok: false, diagnostics: diagnostics.items, model, timings };
  start = now();
  const plan = planTools(model, options, diagnostics);
  timings.plan = now() - start;
  return { ok: !diagnostics.hasErrors, diagnostics: diagnostics.items, model, plan, timings };
}

/** The whole pipeline: plan, emit the project, write it (or check it with `check`). */
export async function runGenerate(options: GenerateRunOptions): Promise<GenerateRunResult> {
  const diagnostics = new Diagnostics();
  const planned = await runPlan(options, diagnostics);
  if (!planned.ok || !planned.plan) return planned;
  const plan = planned.plan;
  const outDir = options.out ?? `./${plan.api.slug}-mcp`;
  let start = now();
  const files = await emitProject(plan, options.packageName ? { packageName: options.packageName } : {});
  planned.timings.emit = now() - start;
  start = now();
  const write = await writeProject(
    files,
    {
      outDir,
      check: options.check ?? false,
      force: options.force ?? false,
      generator: `openapi-to-mcp@${GENERATOR_VERSION}`,
      tools: lockTools(plan),
    },
    diagnostics,
  );
  planned.timings.write = now() - start;
  const stale = options.check ? write.changes.map((change) => change.path) : undefined;
  if (stale && stale.length > 0) {
    diagnostics.error('OTM_OUTPUT_STALE', `${outDir} differs from what the description generates: ${stale.join(', ')}.`, {
      hint: 'Regenerate without --check and commit the result.',
    });
  }
  return {
    ...planned,
    ok: !diagnostics.hasErrors,
    diagnostics: diagnostics.items,
    outDir: path.resolve(outDir),
    write,
    ...(stale ? { stale } : {}),
  };
}

/** Tool and action names per operation, for the lock file. */
function lockTools(plan: ToolPlan): LockFile['tools'] {
  return Object.fromEntries(
    plan.tools.map((tool) => [
      tool.name,
      { actions: Object.fromEntries(tool.actions.map((action) => [action.name, action.operation.key])) },
    ]),
  );
}
