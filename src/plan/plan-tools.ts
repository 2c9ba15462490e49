import type { Diagnostics } from '../diagnostics/diagnostic.js';
import type { ApiModel, OperationModel, SchemaModel, ServerModel } from '../model/api-model.js';
import { buildArguments, type ActionDraft } from './build-arguments.js';
import { classifyIntent, isIdempotentMethod } from './classify-intent.js';
import { conciseView, withResponseFormat } from './concise-view.js';
import { countToolTokens } from './count-tokens.js';
import { planCredentials } from './credentials.js';
import { describeResponse } from './describe-response.js';
import { describeTool, summarize, type ActionSummary } from './describe-tool.js';
import { groupOperations, type GroupingUnit, type Strategy } from './group-operations.js';
import { looseOutputSchema } from './output-schema.js';
import { nameActions, nameTools } from './name-tools.js';
import { resourcePaths } from './resource-path.js';
import { buildRoute } from './build-route.js';
import { cleanText } from './sanitize-text.js';
import { inputView } from './schema-views.js';
import { selectOperations, type SelectionRules } from './select-operations.js';
import type { Intent, OutputSchemaMode, ToolAnnotations, ToolModel, ToolPlan } from './tool-plan.js';
import { buildToolSchema, MAX_DETAIL, type NamedAction } from './tool-schema.js';
import { compareStrings, envCase } from './words.js';

export type PlanOptions = {
  strategy?: Strategy;
  maxTools?: number;
  /** Namespace for tool names (`github` → `github_issues_read`). */
  prefix?: string;
  /** Prefix of environment variables; defaults to the API's slug in upper snake case. */
  envPrefix?: string;
  select?: SelectionRules;
  budget?: { maxToolTokens?: number; tokensPerOperation?: number; minTotalTokens?: number };
  /** `outputSchema` of the tools: `none` (default) or `loose`; see output-schema.ts for why. */
  outputSchema?: OutputSchemaMode;
};

export const PLAN_DEFAULTS = {
  strategy: 'auto' as Strategy,
  maxTools: 64,
  maxActions: 12,
  maxArguments: 40,
  maxToolTokens: 3000,
  tokensPerOperation: 36,
  minTotalTokens: 4000,
};

type ToolDraft = {
  name: string;
  resourceLabel: string;
  intent: Intent;
  actions: Array<NamedAction & { summary: ActionSummary }>;
  detail: number;
};

/**
 * Stage 3: ApiModel → ToolPlan. Selects operations, groups them into tools, names tools and actions, writes the
 * descriptions and input schemas, and keeps the surface inside its token budget by trimming schema detail (never
 * by dropping an operation).
 */
export function planTools(model: ApiModel, options: PlanOptions, diagnostics: Diagnostics): ToolPlan {
  const strategy = options.strategy ?? PLAN_DEFAULTS.strategy;
  const maxTools = options.maxTools ?? PLAN_DEFAULTS.maxTools;
  const { selected, excluded } = selectOperations(model.operations, options.select ?? {});
  if (selected.length === 0 && model.operations.length > 0) {
    diagnostics.warn('OTM_NO_OPERATIONS_SELECTED', `The include/exclude rules leave none of the ${model.operations.length} operations.`);
  }
  const defs: Record<string, SchemaModel> = {};
  for (const [name, schema] of Object.entries(model.schemas))
    Object.defineProperty(defs, name, { value: inputView(schema), enumerable: true });
  const drafts = new Map<string, ActionDraft>(selected.map((operation) => [operation.key, buildArguments(operation, defs, diagnostics)]));
  const resources = resourcePaths(selected);
  const units: GroupingUnit[] = selected.map((operation) =>
    unitOf(operation, drafts.get(operation.key) as ActionDraft, resources.get(operation.key) ?? ['root']),
  );
  const groups = groupOperations(units, strategy, {
    maxTools,
    maxActions: PLAN_DEFAULTS.maxActions,
    maxArguments: PLAN_DEFAULTS.maxArguments,
  });

  const sortedGroups = groups.map((group) => ({
    ...group,
    units: [...group.units].sort((a, b) => compareStrings(a.operation.key, b.operation.key)),
  }));
  const actionNames = sortedGroups.map((group) =>
    group.units.length === 1 ? [''] : nameActions(group.units.map((unit) => unit.operation)),
  );
  const singleNames = sortedGroups.map((group) =>
    group.units.length === 1 ? nameActions(group.units.map((unit) => unit.operation))[0] : undefined,
  );
  const naming = nameTools(
    sortedGroups.map((group, index) => ({
      units: group.units,
      ...(group.fixedName ? { fixedName: group.fixedName } : {}),
      ...(singleNames[index] ? { singleAction: singleNames[index] } : {}),
    })),
    options.prefix ?? model.extension.prefix,
  );

  const apiTitle = cleanText(model.title, 60).text || 'API';
  const toolDrafts: ToolDraft[] = sortedGroups.map((group, index) => ({
    name: naming[index]?.name ?? `tool_${index}`,
    resourceLabel: naming[index]?.resourceLabel ?? 'resources',
    intent: toolIntent(group.units),
    detail: 0,
    actions: group.units
      .map((unit, position) => {
        const draft = drafts.get(unit.operation.key) as ActionDraft;
        const name = actionNames[index]?.[position] ?? '';
        return { name, draft, summary: actionSummary(name, unit.operation, draft, defs) };
      })
      .sort((a, b) => compareStrings(a.name, b.name)),
  }));
  const siblings = siblingMap(toolDrafts);
  const render = (draft: ToolDraft): ToolModel =>
    renderTool(draft, {
      apiTitle,
      apiServers: model.servers,
      defs,
      schemas: model.schemas,
      outputSchema: options.outputSchema ?? 'none',
      siblings: siblings.get(draft.name) ?? {},
    });

  let tools = toolDrafts.map(render);
  const budget = {
    maxTools,
    maxToolTokens: options.budget?.maxToolTokens ?? PLAN_DEFAULTS.maxToolTokens,
    maxTotalTokens: Math.max(
      options.budget?.minTotalTokens ?? PLAN_DEFAULTS.minTotalTokens,
      (options.budget?.tokensPerOperation ?? PLAN_DEFAULTS.tokensPerOperation) * selected.length,
    ),
  };
  tools = fitBudget(tools, toolDrafts, render, budget);
  const total = tools.reduce((sum, tool) => sum + tool.tokens, 0);
  reportBudget(tools, total, budget, diagnostics);

  const envPrefix = options.envPrefix ?? envCase(model.slug);
  return {
    api: {
      title: model.title,
      version: model.version,
      ...(model.description ? { description: model.description } : {}),
      slug: model.slug,
      envPrefix,
      servers: model.servers,
      credentials: planCredentials(model.securitySchemes, selected, envPrefix),
    },
    tools: [...tools].sort((a, b) => compareStrings(a.name, b.name)),
    excluded,
    totals: {
      tools: tools.length,
      actions: tools.reduce((sum, tool) => sum + tool.actions.length, 0),
      operations: selected.length,
      excluded: excluded.length,
      tokens: total,
      budget,
      withinBudget:
        total <= budget.maxTotalTokens && tools.length <= maxTools && tools.every((tool) => tool.tokens <= budget.maxToolTokens),
    },
  };
}

function unitOf(operation: OperationModel, draft: ActionDraft, resource: string[]): GroupingUnit {
  const identity = draft.arguments
    .filter((arg) => arg.route.in === 'path' || (arg.route.in === 'query' && arg.required))
    .map((arg) => arg.key);
  return { operation, intent: classifyIntent(operation), resource, identity, argumentNames: draft.arguments.map((arg) => arg.key) };
}

/** A tool's intent: the strongest effect among its actions (only explicit `x-mcp.tool` groups can mix them). */
function toolIntent(units: GroupingUnit[]): Intent {
  if (units.some((unit) => unit.intent === 'delete')) return 'delete';
  if (units.some((unit) => unit.intent === 'write')) return 'write';
  return 'read';
}

function actionSummary(name: string, operation: OperationModel, draft: ActionDraft, defs: Record<string, SchemaModel>): ActionSummary {
  const response = describeResponse(operation, draft.arguments, defs);
  return {
    name,
    operation,
    summary: summarize(operation),
    needs: draft.arguments.filter((arg) => arg.required).map((arg) => arg.key),
    returns: response.text,
    ...(response.pagination ? { pagination: response.pagination } : {}),
  };
}

/** For each tool, the tools on the same resource with the other intents, so descriptions can point at them. */
function siblingMap(drafts: ToolDraft[]): Map<string, Partial<Record<Intent, string>>> {
  const byLabel = new Map<string, ToolDraft[]>();
  for (const draft of drafts) byLabel.set(draft.resourceLabel, [...(byLabel.get(draft.resourceLabel) ?? []), draft]);
  const out = new Map<string, Partial<Record<Intent, string>>>();
  for (const draft of drafts) {
    const siblings: Partial<Record<Intent, string>> = {};
    for (const other of byLabel.get(draft.resourceLabel) ?? []) {
      if (other.intent !== draft.intent && !siblings[other.intent]) siblings[other.intent] = other.name;
    }
    out.set(draft.name, siblings);
  }
  return out;
}

type RenderContext = {
  apiTitle: string;
  apiServers: ServerModel[];
  defs: Record<string, SchemaModel>;
  /** The description's schemas as written (responses need their readOnly fields, which `defs` drops). */
  schemas: Record<string, SchemaModel>;
  outputSchema: OutputSchemaMode;
  siblings: Partial<Record<Intent, string>>;
};

function renderTool(draft: ToolDraft, context: RenderContext): ToolModel {
  const description = describeTool({
    apiTitle: context.apiTitle,
    resourceLabel: draft.resourceLabel,
    intent: draft.intent,
    actions: draft.actions.map((action) => action.summary),
    siblings: context.siblings,
    detail: draft.detail,
  });
  const operations = draft.actions.map((action) => action.draft.operation);
  const concise = operations.map((operation) => (draft.intent === 'read' ? conciseView(operation, context.schemas) : undefined));
  const { schema: inputSchema, offered } = withResponseFormat(
    buildToolSchema(draft.actions, context.defs, draft.detail),
    draft.actions.filter((_, index) => concise[index]).map((action) => action.name),
    draft.actions.length,
  );
  const outputSchema = context.outputSchema === 'loose' ? looseOutputSchema(operations, context.schemas) : undefined;
  const annotations = annotate(draft);
  const title = draft.actions.length === 1 ? cleanText(draft.actions[0]?.summary.summary, 80).text : titleOf(draft);
  const tool: Omit<ToolModel, 'tokens'> = {
    name: draft.name,
    title,
    description,
    intent: draft.intent,
    annotations,
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
    headers: { marked: [], refused: [] },
    detail: draft.detail,
  };
  return { ...tool, tokens: countToolTokens(tool) };
}

function titleOf(draft: ToolDraft): string {
  const label = draft.resourceLabel.charAt(0).toUpperCase() + draft.resourceLabel.slice(1);
  const intent = { read: 'read', write: 'create and update', delete: 'delete' }[draft.intent];
  return `${label}: ${intent}`;
}

/** Hints that hold for every action of the tool; `x-mcp.annotations` on all actions may override them. */
function annotate(draft: ToolDraft): ToolAnnotations {
  const operations = draft.actions.map((action) => action.draft.operation);
  const openWorld = !operations.every((operation) => operation.extension.annotations?.openWorldHint === false);
  if (draft.intent === 'read') return { readOnlyHint: true, openWorldHint: openWorld };
  const idempotent = operations.every((operation) => operation.extension.annotations?.idempotentHint ?? isIdempotentMethod(operation));
  return { readOnlyHint: false, destructiveHint: draft.intent === 'delete', idempotentHint: idempotent, openWorldHint: openWorld };
}

type Budget = { maxTools: number; maxToolTokens: number; maxTotalTokens: number };

/** Trims schema detail, largest tool first, until every tool and the total fit, or nothing is left to trim. */
function fitBudget(tools: ToolModel[], drafts: ToolDraft[], render: (draft: ToolDraft) => ToolModel, budget: Budget): ToolModel[] {
  const current = [...tools];
  for (let index = 0; index < current.length; index++) {
    const draft = drafts[index] as ToolDraft;
    while ((current[index] as ToolModel).tokens > budget.maxToolTokens && draft.detail < MAX_DETAIL) {
      draft.detail++;
      current[index] = render(draft);
    }
  }
  let total = current.reduce((sum, tool) => sum + tool.tokens, 0);
  while (total > budget.maxTotalTokens) {
    let pick = -1;
    for (let index = 0; index < current.length; index++) {
      if ((drafts[index] as ToolDraft).detail >= MAX_DETAIL) continue;
      if (pick < 0 || (current[index] as ToolModel).tokens > (current[pick] as ToolModel).tokens) pick = index;
    }
    if (pick < 0) break;
    const draft = drafts[pick] as ToolDraft;
    draft.detail++;
    const before = (current[pick] as ToolModel).tokens;
    current[pick] = render(draft);
    total += (current[pick] as ToolModel).tokens - before;
  }
  return current;
}

function reportBudget(tools: ToolModel[], total: number, budget: Budget, diagnostics: Diagnostics): void {
  if (tools.length > budget.maxTools) {
    diagnostics.warn('OTM_BUDGET_EXCEEDED', `The plan has ${tools.length} tools, over the limit of ${budget.maxTools}.`, {
      hint: 'Raise --max-tools or exclude operations; explicit x-mcp.tool groups are never merged.',
    });
  }
  for (const tool of tools) {
    if (tool.tokens > budget.maxToolTokens) {
      diagnostics.warn(
        'OTM_BUDGET_EXCEEDED',
        `Tool ${tool.name} takes ${tool.tokens} tokens, over the per-tool budget of ${budget.maxToolTokens}, at the leanest schema detail.`,
        {
          hint: `It has ${tool.actions.length} actions; split it with x-mcp.tool or exclude operations.`,
        },
      );
    }
  }
  if (total > budget.maxTotalTokens) {
    diagnostics.warn(
      'OTM_BUDGET_EXCEEDED',
      `The tool list takes ${total} tokens, over the budget of ${budget.maxTotalTokens}, at the leanest schema detail.`,
      {
        hint: 'Exclude operations (--exclude-tag, x-mcp: false) or raise the budget; no operation was dropped.',
      },
    );
  }
}
