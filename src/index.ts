/**
 * The programmatic API of openapi-to-mcp: the same pipeline as the CLI, returning values instead of printing.
 *
 * ```ts
 * import { generate, plan } from 'openapi-mcp-planner';
 * const result = await generate({ spec: 'openapi.yaml', out: 'my-server' });
 * if (!result.ok) console.error(result.diagnostics);
 * ```
 */

import { readConfig } from './config/load-config.js';
import { toRunOptions } from './config/resolve-config.js';
import { Diagnostics, type Diagnostic } from './diagnostics/diagnostic.js';
import {
  runDiff,
  runGenerate,
  runPlan,
  type DiffRunResult,
  type GenerateRunOptions,
  type GenerateRunResult,
  type PlanRunOptions,
  type PlanRunResult,
} from './pipeline.js';

/** Generates (or, with `check: true`, checks) an MCP server project from an OpenAPI description. */
export function generate(options: GenerateOptions): Promise<GenerateResult> {
  return runGenerate(options);
}

/** Plans the tools of a description without writing anything. */
export function plan(options: PlanOptions): Promise<PlanResult> {
  return runPlan(options);
}

/** The change to the tool surface between two versions of a description. */
export function diff(options: DiffOptions): Promise<DiffResult> {
  return runDiff(options);
}

/**
 * Reads `openapi-to-mcp.config.{json,yaml}` (from `cwd`, or the `file` given) into options for `generate` and
 * `plan`, the way the CLI does; paths in the file are relative to it. `options` is absent when there is no file
 * or it is invalid (then `diagnostics` says why), and has no `spec` when the file names none.
 *
 * ```ts
 * const { options } = await loadConfig();
 * if (options) await generate({ ...options, spec: options.spec ?? 'openapi.yaml' });
 * ```
 */
export async function loadConfig(
  options: { cwd?: string; file?: string } = {},
): Promise<{ options?: Omit<GenerateOptions, 'spec'> & { spec?: string }; file?: string; diagnostics: Diagnostic[] }> {
  const diagnostics = new Diagnostics();
  const found = await readConfig(options, diagnostics);
  if (!found) return { diagnostics: diagnostics.items };
  const { spec, ...rest } = toRunOptions({ ...found.config, spec: found.config.spec ?? '' });
  return {
    options: { ...rest, ...(found.config.spec !== undefined ? { spec } : {}) },
    file: found.file,
    diagnostics: diagnostics.items,
  };
}

export type GenerateOptions = GenerateRunOptions;
export type GenerateResult = GenerateRunResult;
export type PlanOptions = PlanRunOptions;
export type PlanResult = PlanRunResult;
export type DiffOptions = { old: string; new: string } & Omit<PlanRunOptions, 'spec'>;
export type DiffResult = DiffRunResult;

export type { Diagnostic, Severity } from './diagnostics/diagnostic.js';
export type { UserConfig, OperationOverride } from './config/config-schema.js';
export { CONFIG_SCHEMA } from './config/config-schema.js';
export type { Target } from './emit/emit-project.js';
export type { PipelineStage } from './pipeline.js';
export type { OperationExtension } from './model/api-model.js';
export type { AddedCredential } from './model/add-credentials.js';
export type { DiagnosticCode } from './diagnostics/codes.js';
export { DIAGNOSTIC_CATALOG } from './diagnostics/codes.js';
export type { ApiModel, OperationModel } from './model/api-model.js';
export type { ToolPlan, ToolModel, ActionModel, ToolAnnotations, CredentialModel } from './plan/tool-plan.js';
export type { SurfaceChange, SurfaceDiff } from './plan/diff-surface.js';
export type { Strategy } from './plan/group-operations.js';
export type { SelectionRules } from './plan/select-operations.js';
