import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ToolPlan } from '../plan/tool-plan.js';

/** The documented JSON shape of `openapi-to-mcp plan --json`. */
export function planToJson(plan: ToolPlan, diagnostics: Diagnostic[]) {
  return {
    api: { title: plan.api.title, version: plan.api.version, slug: plan.api.slug, envPrefix: plan.api.envPrefix },
    tools: plan.tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      annotations: tool.annotations,
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      operations: tool.actions.map((action) => ({
        action: action.name,
        method: action.operation.method.toUpperCase(),
        path: action.operation.path,
        operationId: action.operation.id,
      })),
      headers: tool.headers,
      tokens: tool.tokens,
      detail: tool.detail,
    })),
    excluded: plan.excluded,
    totals: plan.totals,
    credentials: plan.api.credentials.map(({ scheme, kind, env }) => ({ scheme, kind, env })),
    warnings: diagnostics.filter((diagnostic) => diagnostic.severity !== 'info'),
  };
}
