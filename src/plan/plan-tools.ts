import { Diagnostics } from '../diagnostics/diagnostic.js';
import type { ApiModel, OperationModel, SchemaModel } from '../model/api-model.js';
import { withArgumentSchemas } from './arguments/argument-schemas.js';
import { buildArguments } from './arguments/build-arguments.js';
import {
  type ActionDraft,
  type Budget,
  type GroupingUnit,
  type OperationGroup,
  type Strategy,
  type ActionSummary,
  type PlannerOptions,
  type PreviousNames,
  type ToolDraft,
} from './drafts.js';
import { classifyIntent } from './select/classify-intent.js';
import { planCredentials } from './describe/credentials.js';
import { planUserAuth } from './describe/user-auth.js';
import { fitBudget, reportBudget, totalTokens } from './budget/fit-budget.js';
import { groupOperations } from './group/group-operations.js';
import { decideHeaders, reportUnusedHeaderOptions } from './headers/decide-headers.js';
import { nameActions, nameTools } from './name/name-tools.js';
import { isUsableName } from '../kernel/names.js';
import { countToolTokens, TokenEstimate } from './budget/count-tokens.js';
import { actionSummary, buildTool } from './build-tool.js';
import { resourcePaths } from './group/resource-path.js';
import { cleanText } from './describe/sanitize-text.js';
import { inputView } from './arguments/schema-views.js';
import { selectOperations } from './select/select-operations.js';
import type { ConciseModel, OutputSchemaMode, ToolModel, ToolPlan } from './tool-plan.js';
import type { Intent } from '../surface/surface.js';
import { headerViolations } from './headers/validate-headers.js';
import { compareStrings, envCase } from './words.js';
import type { PlanMemo } from './plan-memo.js';

/** The planner's own limits, not options: a tool's actions and arguments, and the floor of the list's budget. */
const PLANNER_LIMITS = { maxActions: 20, maxArguments: 90, minTotalTokens: 4000 };

/** Rounds of group → render → compare with the budget → group tighter (or looser). */
const GROUPING_ROUNDS = 6;

type Round = {
  groupingBudget: number;
  drafts: ToolDraft[];
  /** Builds a draft of this round at its detail level, with estimated tokens. */
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
export function planTools(model: ApiModel, options: PlannerOptions, diagnostics: Diagnostics): ToolPlan {
  const { selected, excluded } = selectOperations(model.operations, options.select ?? {});
  if (selected.length === 0 && model.operations.length > 0) {
    diagnostics.warn('OTM_NO_OPERATIONS_SELECTED', `The include/exclude rules leave none of the ${model.operations.length} operations.`);
  }
  const defs = inputDefs(model);
  const drafts = new Map<string, ActionDraft>(selected.map((operation) => [operation.key, buildArguments(operation, defs, diagnostics)]));
  const budget = budgetOf(options, selected.length);
  const rounds = planRounds(model, options, { selected, defs, drafts, budget });
  const { tools, headerDiagnostics } = fitPlan(rounds, options.strategy, budget, options.memo);
  reportBudget(tools, budget, diagnostics);
  for (const item of headerDiagnostics.items) diagnostics.add(item);
  reportUnusedHeaderOptions(options.headers ?? {}, tools, diagnostics);
  checkHeaderMarkings(tools, diagnostics);
  return assemblePlan(model, options, { selected, excluded, tools, budget });
}

/** What every round of the budget search starts from. */
type Prepared = {
  selected: OperationModel[];
  defs: Record<string, SchemaModel>;
  /** Each selected operation's arguments, by operation key. */
  drafts: Map<string, ActionDraft>;
  budget: Budget;
};

/** The description's schemas as arguments see them, as own properties whatever their names (`__proto__`). */
function inputDefs(model: ApiModel): Record<string, SchemaModel> {
  const defs: Record<string, SchemaModel> = {};
  for (const [name, schema] of Object.entries(model.schemas))
    Object.defineProperty(defs, name, { value: inputView(schema), enumerable: true });
  return defs;
}

function budgetOf(options: PlannerOptions, operations: number): Budget {
  return {
    maxTools: options.maxTools,
    maxToolTokens: options.budget.maxToolTokens,
    // Per operation, so that an API pays for what it offers; capped, because a list past about 50,000 tokens crowds
    // out the conversation whatever the API's size (`--surface search` serves such APIs).
    maxTotalTokens: Math.max(
      PLANNER_LIMITS.minTotalTokens,
      Math.min(options.budget.maxTotalTokens, options.budget.tokensPerOperation * operations),
    ),
  };
}

/** One round per grouping budget, and the token estimate the rounds share (calibrated between searches). */
type Rounds = { plan: (groupingBudget: number) => Round; estimate: TokenEstimate };

/**
 * A round groups up to a budget, names the groups, decides their headers, builds the tools and fits their schemas
 * to the budget, on estimated tokens.
 */
function planRounds(model: ApiModel, options: PlannerOptions, prepared: Prepared): Rounds {
  const { selected, defs, drafts, budget } = prepared;
  const resources = resourcePaths(selected);
  const units = selected.map((operation) =>
    unitOf(operation, drafts.get(operation.key) as ActionDraft, resources.get(operation.key) ?? ['root']),
  );
  const { locked, preferredActions } = pinnedNames(options.previous, options.renameTools, options.strategy);
  const context: PlanContext = {
    model,
    defs,
    drafts,
    preferredActions,
    prefix: options.prefix ?? model.extension.prefix,
    apiTitle: displayName(model.title),
    strategy: options.strategy,
    summaries: new Map<string, ActionSummary>(),
  };
  const estimate = new TokenEstimate();
  const build = cachedBuilder(model, options, context, estimate);
  const limits = { maxTools: budget.maxTools, maxActions: PLANNER_LIMITS.maxActions, maxArguments: PLANNER_LIMITS.maxArguments };
  const grouping = groupOperations(units, options.strategy, limits, locked);
  const plan = (groupingBudget: number): Round => {
    // Header decisions depend on the grouping; only the kept round's diagnostics describe the plan.
    const headerDiagnostics = new Diagnostics();
    const named = toolDrafts(grouping.at(groupingBudget), context).map((draft): ToolDraft => ({
      ...draft,
      headers: decideHeaders({
        tool: draft.name,
        actions: draft.actions,
        defs,
        securitySchemes: model.securitySchemes,
        options: options.headers ?? {},
        diagnostics: headerDiagnostics,
      }),
    }));
    const siblings = siblingMap(named);
    const render = (draft: ToolDraft): ToolModel => build(draft, siblings.get(draft.name) ?? {});
    const fitted = fitBudget(named, render, budget);
    return { groupingBudget, drafts: fitted.drafts, render, tools: fitted.tools, headerDiagnostics, total: totalTokens(fitted.tools) };
  };
  return { plan, estimate };
}

/**
 * Builds a tool with estimated tokens. Later rounds re-form many of the same tools: a build is a pure function of
 * what buildKey lists and of the plan-wide context (title, servers, schemas, options), so it is cached, with the
 * characters its tokens are estimated from (a recalibration needs no new build).
 */
function cachedBuilder(
  model: ApiModel,
  { outputSchema, memo }: { outputSchema: OutputSchemaMode; memo?: PlanMemo | undefined },
  context: PlanContext,
  estimate: TokenEstimate,
) {
  const built = new Map<string, { tool: ToolModel; characters: number }>();
  const conciseViews = new Map<OperationModel, ConciseModel | undefined>();
  return (draft: ToolDraft, siblings: Partial<Record<Intent, string>>): ToolModel => {
    const key = buildKey(draft, siblings);
    let entry = built.get(key);
    if (!entry) {
      const make = () =>
        buildTool(draft, {
          apiTitle: context.apiTitle,
          apiServers: model.servers,
          defs: context.defs,
          schemas: model.schemas,
          outputSchema,
          siblings,
          conciseViews,
          count: () => 0,
        });
      // The regeneration cache's hook: a build of the same key and content in an earlier run.
      const operations = draft.actions.map((action) => action.draft.operation);
      const tool = memo ? memo.build(key, { name: draft.name, operations }, make) : make();
      entry = { tool, characters: TokenEstimate.characters(tool) };
      built.set(key, entry);
    }
    return { ...entry.tool, tokens: estimate.fromCharacters(entry.characters) };
  };
}

/**
 * The budget loop. The search counts estimated tokens; the plan keeps exact counts. Estimates off by more than the
 * margin the budget leaves are calibrated on the chosen tools' exact counts and the search runs once more; tools
 * still over budget are fitted again on exact counts.
 */
function fitPlan(
  rounds: Rounds,
  strategy: Strategy,
  budget: Budget,
  memo: PlanMemo | undefined,
): { tools: ToolModel[]; headerDiagnostics: Diagnostics } {
  const search = () => (strategy === 'auto' ? searchGrouping(rounds.plan, budget.maxTotalTokens) : rounds.plan(budget.maxTotalTokens));
  const fits = (tools: ToolModel[]) =>
    totalTokens(tools) <= budget.maxTotalTokens && tools.every((tool) => tool.tokens <= budget.maxToolTokens);
  let chosen = search();
  const exactly = (tools: ToolModel[]) => countExactly(tools, memo);
  let counted = exactly(chosen.tools);
  if (!fits(counted)) {
    rounds.estimate.calibrate(counted.map((tool) => ({ characters: TokenEstimate.characters(tool), tokens: tool.tokens })));
    chosen = search();
    counted = exactly(chosen.tools);
  }
  const { drafts, render, headerDiagnostics } = chosen;
  const tools = fits(counted) ? counted : fitBudget(drafts, (draft) => exactly([render(draft)])[0] as ToolModel, budget).tools;
  return { tools, headerDiagnostics };
}

/** Exact o200k counts; the regeneration cache's hook answers the ones an earlier run counted. */
function countExactly(tools: ToolModel[], memo: PlanMemo | undefined): ToolModel[] {
  return tools.map((tool) => ({ ...tool, tokens: memo ? memo.count(tool, () => countToolTokens(tool)) : countToolTokens(tool) }));
}

/** The finished plan: the API's facts and credentials, the tools in name order with their argument schemas, totals. */
function assemblePlan(
  model: ApiModel,
  options: PlannerOptions,
  parts: { selected: OperationModel[]; excluded: ToolPlan['excluded']; tools: ToolModel[]; budget: Budget },
): ToolPlan {
  const { selected, excluded, tools, budget } = parts;
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
function toolDrafts(groups: OperationGroup[], context: PlanContext): Array<Omit<ToolDraft, 'headers'>> {
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
 * Everything a build depends on besides the plan-wide context (API title, servers, schemas): the draft's name,
 * label, intent, detail level, header decisions and sibling tools, and its actions (each action's draft and summary
 * follow from its name and operation).
 */
function buildKey(draft: ToolDraft, siblings: Partial<Record<Intent, string>>): string {
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
