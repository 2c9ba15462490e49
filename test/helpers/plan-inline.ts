import { runPlan, type PlanRunResult } from '../../src/pipeline.js';
import type { PlanSettings } from '../../src/config/resolve-options.js';
import type { ToolModel } from '../../src/plan/tool-plan.js';

/** Plans a description given as an object, as `openapi-to-mcp plan -` would read it from standard input. */
export function planInline(document: object, options: Partial<PlanSettings> = {}): Promise<PlanRunResult> {
  return runPlan({ spec: '-', readStdin: async () => JSON.stringify(document), validate: false, ...options });
}

/** A tool of a plan by name; throws with the names there are when it is missing. */
export function toolNamed(result: PlanRunResult, name: string): ToolModel {
  const tool = result.plan?.tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}; tools: ${result.plan?.tools.map((candidate) => candidate.name).join(', ')}`);
  return tool;
}

/** An OpenAPI 3.0 document around the given paths (and optional components). */
export function openapi(paths: object, extra: object = {}): object {
  return {
    openapi: '3.0.3',
    info: { title: 'Headers Test', version: '1.0.0' },
    servers: [{ url: 'https://api.example.com' }],
    paths,
    ...extra,
  };
}
