import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ToolPlan } from '../plan/tool-plan.js';
import type { SurfaceChoice } from '../search/search-plan.js';

/**
 * The documented JSON shape of `openapi-to-mcp plan --json`. `tools` are the static plan's (on the search surface they
 * still define the action ids and route the calls); `surface` says what `tools/list` serves.
 */
export function planToJson(plan: ToolPlan, diagnostics: Diagnostic[], surface?: SurfaceChoice) {
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
        ...(action.sharedCredentials ? { sharedCredentials: true } : {}),
      })),
      headers: tool.headers,
      tokens: tool.tokens,
      detail: tool.detail,
      // What the per-user upstream modes serve of the tool, when not the tool as it is.
      ...(tool.perUser ? { perUser: tool.perUser } : {}),
    })),
    excluded: plan.excluded,
    totals: plan.totals,
    ...(surface ? { surface: surfaceJson(surface) } : {}),
    credentials: plan.api.credentials.map(({ scheme, kind, env }) => ({ scheme, kind, env })),
    warnings: diagnostics.filter((diagnostic) => diagnostic.severity !== 'info'),
  };
}

function surfaceJson(surface: SurfaceChoice) {
  const { search } = surface;
  return {
    mode: surface.mode,
    requested: surface.requested,
    ...(surface.reason ? { reason: surface.reason } : {}),
    ...(search
      ? {
          tools: search.tools.map(({ name, title, description, annotations, inputSchema, tokens }) => ({
            name,
            title,
            description,
            annotations,
            inputSchema,
            tokens,
          })),
          tokens: search.tokens,
          actions: search.catalog.length,
          index: { ...search.indexStats, schemaBytes: search.schemaBytes },
        }
      : {}),
  };
}
