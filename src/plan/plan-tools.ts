import { Diagnostics } from '../diagnostics/diagnostic.js';
import type { ApiModel, OperationModel, SchemaModel } from '../model/api-model.js';
import { withArgumentSchemas } from './argument-schemas.js';
import { buildArguments, type ActionDraft } from './build-arguments.js';
import { classifyIntent } from './classify-intent.js';
import { planCredentials } from './credentials.js';
import { planUserAuth } from './user-auth.js';
import { fitBudget, reportBudget, totalTokens, type Budget } from './fit-budget.js';
import { groupOperations, type GroupingUnit, type OperationGroup, type Strategy } from './group-operations.js';
import { decideHeaders, reportUnusedHeaderOptions, type HeaderOptions } from './headers.js';
import { isUsableName, nameActions, nameTools } from './name-tools.js';
import { countToolTokens, TokenEstimate } from './count-tokens.js';
import type { ActionSummary } from './describe-tool.js';
import { actionSummary, renderTool, type ToolDraft } from './render-tool.js';
import { resourcePaths } from './resource-path.js';
import { cleanText } from './sanitize-text.js';
import { inputView } from './schema-views.js';
import { selectOperations, type SelectionRules } from './select-operations.js';
import type { ConciseModel, Intent, OutputSchemaMode, ToolModel, ToolPlan } from './tool-plan.js';
import { headerViolations } from './validate-headers.js';
import { compareStrings, envCase } from './words.js';

export type PlanOptions = {
  strategy?: Strategy;
  maxTools?: number;
  /** Namespace for tool names (`github` → `github_issues_read`). */
  prefix?: string;
  /** Prefix of environment variables; defaults to the API's slug in upper snake case. */
  envPrefix?: string;
  select?: SelectionRules;
  budget?: { maxToolTokens?: number; tokensPerOperation?: number; minTotalTokens?: number; maxTotalTokens?: number };
  /** Which properties carry `x-mcp-header` (SEP-2243): derived from the description unless disabled, plus overrides. */
  headers?: HeaderOptions;
  /**
   * Tool and action names per operation from an earlier generation (the lock file): kept, so that a model and its
   * users keep the names they rely on when operations are added, reordered or renamed.
   */
  previous?: PreviousNames;
  /** Deliberate renames of pinned tools: `{ old_name: 'new_name' }`. */
  renameTools?: Record<string, string>;
  /** `outputSchema` of the tools: `none` (default) or `loose`; see output-schema.ts for why. */
  outputSchema?: OutputSchemaMode;
};

/** Tool → action → operation key, as the lock file stores them. */
export type PreviousNames = Record<string, { actions: Record<string, string> }>;

export const PLAN_DEFAULTS = {
  strategy: 'auto' as Strategy,
  maxTools: 128,
  maxActions: 20,
  maxArguments: 90,
  maxToolTokens: 3000,
  tokensPerOperation: 60,
  minTotalTokens: 4000,
  maxTotalTokens: 48_000,
};

/** Rounds of group → render → compare with the budget → group tighter (or looser). */
const GROUPING_ROUNDS = 6;

type Round = {
  groupingBudget: number;
  drafts: ToolDraft[];
  /** Renders a draft of this round at its detail level, with estimated tokens. */
  render: (draft: ToolDraft) => ToolModel;
  tools: ToolModel[];
  headerDiagnostics: Diagnostics;
  total: number;
};

/**
 * The grouping estimates tokens before rendering, so its budget is searched: the first round groups with the real
 * budget; while the rendered list is over it, the next round groups with a budget scaled down by the overshoot; once
 * one fits, the rounds left halve the gap between the loosest grouping that fits and the tightest that does not —
 * every merge less keeps a tool more specific.
 */
function searchGrouping(planRound: (groupingBudget: number) => Round, maxTotalTokens: number): Round {
  let fitting: Round | undefined;
  let over: Round | undefined;
  let next = maxTotalTokens;
  for (let round = 0; round < GROUPING_ROUNDS; round++) {
    const result = planRound(next);
    if (result.total <= maxTotalTokens) {
      if (!fitting || result.groupingBudget > fitting.groupingBudget) fitting = result;
      if (!over) break;
    } else if (!over || result.groupingBudget < over.groupingBudget) over = result;
    if (fitting && over) {
      if (over.groupingBudget - fitting.groupingBudget < maxTotalTokens * 0.01) break;
      next = Math.floor((fitting.groupingBudget + over.groupingBudget) / 2);
    } else if (over) {
      // Scale by the overshoot, and a little more, so that a near miss still changes the grouping.
      next = Math.floor(((over.groupingBudget * maxTotalTokens) / over.total) * 0.97);
    }
  }
  return (fitting ?? over) as Round;
}

/**
 * Stage 3: ApiModel → ToolPlan. Selects operations, groups them into tools, names tools and actions, writes the
 * descriptions and input schemas, and keeps the surface inside its token budget by merging related tools and
 * trimming schema detail (never by dropping an operation).
 */
export function planTools(model: ApiModel, options: PlanOptions, diagnostics: Diagnostics): ToolPlan {
  const strategy = options.strategy ?? PLAN_DEFAULTS.strategy;
  const { selected, excluded } = selectOperations(model.operations, options.select ?? {});
  if (selected.length === 0 && model.operations.length > 0) {
    diagnostics.warn('OTM_NO_OPERATIONS_SELECTED', `The include/exclude rules leave none of the ${model.operations.length} operations.`);
  }
  const defs: Record<string, SchemaModel> = {};
  for (const [name, schema] of Object.entries(model.schemas))
    Object.defineProperty(defs, name, { value: inputView(schema), enumerable: true });
  const drafts = new Map<string, ActionDraft>(selected.map((operation) => [operation.key, buildArguments(operation, defs, diagnostics)]));
  const resources = resourcePaths(selected);
  const units = selected.map((operation) =>
    unitOf(operation, drafts.get(operation.key) as ActionDraft, resources.get(operation.key) ?? ['root']),
  );
  const budget: Budget = {
    maxTools: options.maxTools ?? PLAN_DEFAULTS.maxTools,
    maxToolTokens: options.budget?.maxToolTokens ?? PLAN_DEFAULTS.maxToolTokens,
    // Per operation, so that an API pays for what it offers; capped, because a list past about 50,000 tokens crowds
    // out the conversation whatever the API's size (`--surface search` serves such APIs).
    maxTotalTokens: Math.max(
      options.budget?.minTotalTokens ?? PLAN_DEFAULTS.minTotalTokens,
      Math.min(
        options.budget?.maxTotalTokens ?? PLAN_DEFAULTS.maxTotalTokens,
        (options.budget?.tokensPerOperation ?? PLAN_DEFAULTS.tokensPerOperation) * selected.length,
      ),
    ),
  };
  const { locked, preferredActions } = pinnedNames(options.previous, options.renameTools, strategy);
  const context = {
    model,
    defs,
    drafts,
    preferredActions,
    prefix: options.prefix ?? model.extension.prefix,
    apiTitle: displayName(model.title),
    strategy,
    summaries: new Map<string, ActionSummary>(),
  };

  const headerOptions = options.headers ?? {};
  // Rendered tools with the characters their tokens are estimated from: a recalibration needs no new render.
  const renders = new Map<string, { tool: ToolModel; characters: number }>();
  const conciseViews = new Map<OperationModel, ConciseModel | undefined>();
  const estimate = new TokenEstimate();
  const grouping = groupOperations(
    units,
    strategy,
    { maxTools: budget.maxTools, maxActions: PLAN_DEFAULTS.maxActions, maxArguments: PLAN_DEFAULTS.maxArguments },
    locked,
  );
  /** Groups up to a budget, names, decides headers, renders and fits the schemas to the budget (estimated tokens). */
  const planRound = (groupingBudget: number): Round => {
    const draftList = toolDrafts(grouping.at(groupingBudget), context);
    // Header decisions depend on the grouping; only the kept round's diagnostics describe the plan.
    const headerDiagnostics = new Diagnostics();
    for (const draft of draftList) {
      draft.headers = decideHeaders({
        tool: draft.name,
        actions: draft.actions,
        defs,
        securitySchemes: model.securitySchemes,
        options: headerOptions,
        diagnostics: headerDiagnostics,
      });
    }
    const siblings = siblingMap(draftList);
    const render = (draft: ToolDraft): ToolModel => {
      const toolSiblings = siblings.get(draft.name) ?? {};
      // Later rounds re-form many of the same tools: a render is a pure function of what the key lists and of
      // the plan-wide context (title, servers, schemas, options).
      const key = renderKey(draft, toolSiblings);
      let rendered = renders.get(key);
      if (!rendered) {
        const tool = renderTool(draft, {
          apiTitle: context.apiTitle,
          apiServers: model.servers,
          defs,
          schemas: model.schemas,
          outputSchema: options.outputSchema ?? 'none',
          siblings: toolSiblings,
          conciseViews,
          count: () => 0,
        });
        rendered = { tool, characters: TokenEstimate.characters(tool) };
        renders.set(key, rendered);
      }
      return { ...rendered.tool, tokens: estimate.fromCharacters(rendered.characters) };
    };
    const tools = fitBudget(draftList, render, budget);
    return { groupingBudget, drafts: draftList, render, tools, headerDiagnostics, total: totalTokens(tools) };
  };
  const search = () => (strategy === 'auto' ? searchGrouping(planRound, budget.maxTotalTokens) : planRound(budget.maxTotalTokens));
  const countExactly = (tools: ToolModel[]) => tools.map((tool) => ({ ...tool, tokens: countToolTokens(tool) }));
  const fits = (tools: ToolModel[]) =>
    totalTokens(tools) <= budget.maxTotalTokens && tools.every((tool) => tool.tokens <= budget.maxToolTokens);
  // The search counts estimates; the plan keeps exact counts. Estimates off by more than the margin the budget
  // leaves are calibrated on the chosen tools' exact counts, and the search runs once more.
  let chosen = search();
  let counted = countExactly(chosen.tools);
  if (!fits(counted)) {
    estimate.calibrate(counted.map((tool) => ({ characters: TokenEstimate.characters(tool), tokens: tool.tokens })));
    chosen = search();
    counted = countExactly(chosen.tools);
  }
  const tools = fits(counted) ? counted : fitBudget(chosen.drafts, (draft) => countExactly([chosen.render(draft)])[0] as ToolModel, budget);
  const { headerDiagnostics } = chosen;
  reportBudget(tools, budget, diagnostics);
  for (const item of headerDiagnostics.items) diagnostics.add(item);
  reportUnusedHeaderOptions(headerOptions, tools, diagnostics);
  checkHeaderMarkings(tools, diagnostics);

  const envPrefix = options.envPrefix ?? envCase(model.slug);
  const total = totalTokens(tools);
  const userAuth = planUserAuth(model.securitySchemes, selected);
  const checked = withArgumentSchemas(tools, model);
  return {
    api: {
      title: model.title,
      version: model.version,
      ...(model.description ? { description: model.description } : {}),
      slug: model.slug,
      envPrefix,
      servers: model.servers,
      credentials: planCredentials(model.securitySchemes, selected, envPrefix),
      ...(userAuth ? { userAuth } : {}),
    },
    tools: [...checked.tools].sort((a, b) => compareStrings(a.name, b.name)),
    argumentDefs: checked.defs,
    excluded,
    totals: {
      tools: tools.length,
      actions: tools.reduce((sum, tool) => sum + tool.actions.length, 0),
      operations: selected.length,
      excluded: excluded.length,
      tokens: total,
      budget,
      withinBudget:
        total <= budget.maxTotalTokens && tools.length <= budget.maxTools && tools.every((tool) => tool.tokens <= budget.maxToolTokens),
    },
  };
}

/** The API's name as descriptions use it: the title before any commentary (`Swagger Petstore - OpenAPI 3.0`). */
function displayName(title: string): string {
  const head = title.split(/\s+[-–—|:]\s+|\s*\(/)[0] ?? title;
  return cleanText(head, 60).text || cleanText(title, 60).text || 'API';
}

/** Which operations stay in which tool, and the action names they keep, from an earlier generation. */
function pinnedNames(previous: PreviousNames | undefined, renames: Record<string, string> = {}, strategy: Strategy) {
  const locked = new Map<string, string>();
  const preferredActions = new Map<string, string>();
  if (!previous || strategy !== 'auto') return { locked, preferredActions };
  for (const [tool, entry] of Object.entries(previous)) {
    const name = renames[tool] ?? tool;
    // The lock file lives in the output folder, where anyone may edit it: a name becomes a file name and code.
    if (!isUsableName(name)) continue;
    for (const [action, operation] of Object.entries(entry.actions)) {
      locked.set(operation, name);
      if (action && isUsableName(action)) preferredActions.set(operation, action);
    }
  }
  return { locked, preferredActions };
}

type PlanContext = {
  preferredActions: Map<string, string>;
  model: ApiModel;
  defs: Record<string, SchemaModel>;
  drafts: Map<string, ActionDraft>;
  prefix: string | undefined;
  apiTitle: string;
  strategy: Strategy;
  /**
   * What each operation does, needs and returns: the same in every round of the budget search. The action name is
   * part of it, and a grouping can change it, so it is kept per operation and name.
   */
  summaries: Map<string, ActionSummary>;
};

function unitOf(operation: OperationModel, draft: ActionDraft, resource: string[]): GroupingUnit {
  const identity = draft.arguments
    .filter((arg) => arg.route.in === 'path' || (arg.route.in === 'query' && arg.required))
    .map((arg) => arg.key);
  return { operation, intent: classifyIntent(operation), resource, identity, argumentNames: draft.arguments.map((arg) => arg.key) };
}

/** Names tools and actions and gathers what each tool renders from; operations sorted by key, actions by name. */
function toolDrafts(groups: OperationGroup[], context: PlanContext): ToolDraft[] {
  const sorted = groups.map((group) => ({
    ...group,
    units: [...group.units].sort((a, b) => compareStrings(a.operation.key, b.operation.key)),
  }));
  const actionNames = sorted.map((group) =>
    nameActions(
      group.units.map((unit) => unit.operation),
      context.preferredActions,
    ),
  );
  const naming = nameTools(
    sorted.map((group, index) => ({
      units: group.units,
      ...(group.fixedName ? { fixedName: group.fixedName } : {}),
      ...(group.lockedName ? { lockedName: group.lockedName } : {}),
      ...(group.units.length === 1 ? { actionName: actionNames[index]?.[0] as string } : {}),
    })),
    context.prefix,
    { byAction: context.strategy === 'per-operation' },
  );
  return sorted.map((group, index) => ({
    name: naming[index]?.name ?? `tool_${index}`,
    resourceLabel: naming[index]?.resourceLabel ?? 'resources',
    contents: naming[index]?.contents ?? [],
    intent: toolIntent(group.units),
    detail: 0,
    headers: { marked: [], refused: [] },
    actions: group.units
      .map((unit, position) => {
        const draft = context.drafts.get(unit.operation.key) as ActionDraft;
        const name = group.units.length === 1 ? '' : (actionNames[index]?.[position] ?? '');
        const key = `${name}\u0000${unit.operation.key}`;
        let summary = context.summaries.get(key);
        if (!summary) {
          summary = actionSummary(name, unit.operation, draft, context.defs);
          context.summaries.set(key, summary);
        }
        return { name, draft, summary };
      })
      .sort((a, b) => compareStrings(a.name, b.name)),
  }));
}

/**
 * The last gate before anything is written: every marking of every tool is checked against SEP-2243 as the SDK
 * and conforming clients check it. A violation here is a generator bug or a marking no rule caught; either way a
 * client would silently drop the tool, so generation fails instead.
 */
function checkHeaderMarkings(tools: ToolModel[], diagnostics: Diagnostics): void {
  for (const tool of tools) {
    for (const violation of headerViolations(tool.inputSchema)) {
      diagnostics.error('OTM_HEADER_INVALID', `Tool ${tool.name}, property ${violation.path}: ${violation.message}.`, {
        hint: 'Conforming Streamable HTTP clients drop a tool with an invalid x-mcp-header; remove the marking (configuration headers.remove).',
      });
    }
  }
}

/** A tool's intent: the strongest effect among its actions (only explicit `x-mcp.tool` groups can mix them). */
function toolIntent(units: GroupingUnit[]): Intent {
  if (units.some((unit) => unit.intent === 'delete')) return 'delete';
  if (units.some((unit) => unit.intent === 'write')) return 'write';
  return 'read';
}

/**
 * Everything a render depends on besides the plan-wide context (API title, servers, schemas): the draft's name,
 * label, intent, detail level, header decisions and sibling tools, and its actions (each action's draft and summary
 * follow from its name and operation).
 */
function renderKey(draft: ToolDraft, siblings: Partial<Record<Intent, string>>): string {
  return JSON.stringify([
    draft.name,
    draft.resourceLabel,
    draft.contents,
    draft.intent,
    draft.detail,
    draft.actions.map((action) => [action.name, action.draft.operation.key]),
    siblings,
    draft.headers,
  ]);
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
