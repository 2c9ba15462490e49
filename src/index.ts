/**
 * The programmatic API of openapi-to-mcp: the same pipeline as the CLI, returning values instead of printing.
 *
 * ```ts
 * import { generate, plan } from 'openapi-to-mcp';
 * const result = await generate({ spec: 'openapi.yaml', out: 'my-server' });
 * if (!result.ok) console.error(result.diagnostics);
 * ```
 */

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

export type GenerateOptions = GenerateRunOptions;
export type GenerateResult = GenerateRunResult;
export type PlanOptions = PlanRunOptions;
export type PlanResult = PlanRunResult;
export type DiffOptions = { old: string; new: string } & Omit<PlanRunOptions, 'spec'>;
export type DiffResult = DiffRunResult;

export type { Diagnostic, Severity } from './diagnostics/diagnostic.js';
export type { DiagnosticCode } from './diagnostics/codes.js';
export { DIAGNOSTIC_CATALOG } from './diagnostics/codes.js';
export type { ApiModel, OperationModel } from './model/api-model.js';
export type { ToolPlan, ToolModel, ActionModel, ToolAnnotations, CredentialModel } from './plan/tool-plan.js';
export type { SurfaceChange, SurfaceDiff } from './plan/diff-surface.js';
export type { Strategy } from './plan/group-operations.js';
export type { SelectionRules } from './plan/select-operations.js';
