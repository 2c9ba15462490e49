import type { OperationModel, SchemaModel, ServerModel } from '../model/api-model.js';
import type { ActionDraft } from './build-arguments.js';
import { buildRoute } from './build-route.js';
import { isIdempotentMethod } from './classify-intent.js';
import { conciseView, withResponseFormat } from './concise-view.js';
import { describeResponse } from './describe-response.js';
import { describeTool, summarize, type ActionSummary } from './describe-tool.js';
import { applyHeaders, type HeaderDecisions } from './headers.js';
import { looseOutputSchema } from './output-schema.js';
import { cleanText } from './sanitize-text.js';
import type { ConciseModel, Intent, OutputSchemaMode, ToolAnnotations, ToolModel } from './tool-plan.js';
import { buildToolSchema, type NamedAction } from './tool-schema.js';

/** A tool before rendering: its name, members and the schema detail it is rendered at. */
export type ToolDraft = {
  name: string;
  resourceLabel: string;
  /** Sub-resources the actions act on (`comments`, `events`), most actions first; listed in the title. */
  contents: string[];
  intent: Intent;
  actions: Array<NamedAction & { summary: ActionSummary }>;
  detail: number;
  /** Decided once per draft (diagnostics too); every render at any detail level applies the same markings. */
  headers: HeaderDecisions;
};

export type RenderContext = {
  apiTitle: string;
  apiServers: ServerModel[];
  defs: Record<string, SchemaModel>;
  /** The description's schemas as written (responses need their readOnly fields, which `defs` drops). */
  schemas: Record<string, SchemaModel>;
  outputSchema: OutputSchemaMode;
  siblings: Partial<Record<Intent, string>>;
  /** Concise views by operation, shared by every render of a plan: they do not depend on the detail level. */
  conciseViews: Map<OperationModel, ConciseModel | undefined>;
  /** Tokens of the rendered tool: an estimate while the budget is searched, exact for the plan. */
  count: (tool: Omit<ToolModel, 'tokens'>) => number;
};

export function actionSummary(
  name: string,
  operation: OperationModel,
  draft: ActionDraft,
  defs: Record<string, SchemaModel>,
): ActionSummary {
  const response = describeResponse(operation, draft.arguments, defs);
  return {
    name,
    operation,
    summary: operation.extension.description
      ? cleanText(operation.extension.description, 200).text || summarize(operation)
      : summarize(operation),
    needs: draft.arguments.filter((arg) => arg.required).map((arg) => arg.key),
    returns: response.text,
    ...(response.pagination ? { pagination: response.pagination } : {}),
  };
}

/** A draft at its detail level → the tool a model sees, its routes, and its token count. */
export function renderTool(draft: ToolDraft, context: RenderContext): ToolModel {
  // Marked properties stay typed at every detail level: an untyped argument cannot carry x-mcp-header.
  const marked = new Set(draft.headers.marked.map((decision) => decision.property));
  const built = buildToolSchema(draft.actions, context.defs, draft.detail, marked);
  const operations = draft.actions.map((action) => action.draft.operation);
  const concise = operations.map((operation) => (draft.intent === 'read' ? conciseViewOf(operation, context) : undefined));
  const { schema: inputSchema, offered } = withResponseFormat(
    applyHeaders(built.schema, draft.headers.marked, context.defs),
    draft.actions.filter((_, index) => concise[index]).map((action) => action.name),
    draft.actions.length,
    draft.detail,
  );
  const outputSchema = context.outputSchema === 'loose' ? looseOutputSchema(operations, context.schemas) : undefined;
  const { mentioned } = built;
  const description = describeTool({
    apiTitle: context.apiTitle,
    resourceLabel: draft.resourceLabel,
    intent: draft.intent,
    actions: draft.actions.map((action) => ({ ...action.summary, optional: mentioned.get(action.name) ?? [] })),
    siblings: context.siblings,
    detail: draft.detail,
  });
  const tool: Omit<ToolModel, 'tokens'> = {
    name: draft.name,
    title: draft.actions.length === 1 ? cleanText(draft.actions[0]?.summary.summary, 80).text : titleOf(draft),
    description,
    intent: draft.intent,
    annotations: annotate(draft),
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    actions: draft.actions.map((action, index) => ({
      name: action.name,
      summary: action.summary.summary,
      operation: {
        key: action.draft.operation.key,
        id: action.draft.operation.id,
        method: action.draft.operation.method,
        path: action.draft.operation.path,
        deprecated: action.draft.operation.deprecated,
      },
      required: action.draft.arguments.filter((arg) => arg.required).map((arg) => arg.key),
      route: buildRoute(action.draft, context.apiServers),
      ...(action.summary.pagination ? { pagination: action.summary.pagination } : {}),
      ...(offered && concise[index] ? { concise: concise[index] } : {}),
    })),
    headers: draft.headers,
    detail: draft.detail,
  };
  return { ...tool, tokens: context.count(tool) };
}

function conciseViewOf(operation: OperationModel, context: RenderContext): ConciseModel | undefined {
  if (!context.conciseViews.has(operation)) context.conciseViews.set(operation, conciseView(operation, context.schemas));
  return context.conciseViews.get(operation);
}

/** Sub-resources a title lists before it says how many more there are. */
const TITLE_CONTENTS = 5;

/**
 * `Repos issues: read`, and what the actions act on besides the resource itself: `Repos issues, including comments,
 * events and 3 more: read` — "including", so that a reader knows the issues themselves are there too.
 */
function titleOf(draft: ToolDraft): string {
  const label = draft.resourceLabel.charAt(0).toUpperCase() + draft.resourceLabel.slice(1);
  const intent = { read: 'read', write: 'create and update', delete: 'delete' }[draft.intent];
  const shown = draft.contents.slice(0, TITLE_CONTENTS);
  const more = draft.contents.length - shown.length;
  const listed =
    more > 0
      ? `${shown.join(', ')} and ${more} more`
      : shown.length > 1
        ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`
        : shown.join('');
  return listed ? `${label}, including ${listed}: ${intent}` : `${label}: ${intent}`;
}

/** Hints that hold for every action of the tool; `x-mcp.annotations` on all actions may override them. */
function annotate(draft: ToolDraft): ToolAnnotations {
  const operations = draft.actions.map((action) => action.draft.operation);
  // openWorldHint defaults to true in MCP; it is written only when every operation says otherwise.
  const closedWorld = operations.every((operation) => operation.extension.annotations?.openWorldHint === false);
  const world = closedWorld ? { openWorldHint: false } : {};
  if (draft.intent === 'read') return { readOnlyHint: true, ...world };
  const idempotent = operations.every((operation) => operation.extension.annotations?.idempotentHint ?? isIdempotentMethod(operation));
  return { readOnlyHint: false, destructiveHint: draft.intent === 'delete', ...(idempotent ? { idempotentHint: true } : {}), ...world };
}
