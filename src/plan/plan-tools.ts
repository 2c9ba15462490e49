import { Diagnostics } from '../diagnostics/diagnostic.js';
import { pointerOf } from '../diagnostics/json-pointer.js';
import type { ApiModel, OperationModel, SchemaModel } from '../model/api-model.js';
import { ArgumentPhrases } from './arguments/argument-phrases.js';
import { buildArguments } from './arguments/build-arguments.js';
import { buildRoute } from './arguments/build-route.js';
import { inputDefs } from './arguments/input-defs.js';
import { assemblePlan } from './assemble/assemble-plan.js';
import { budgetOf, reportBudget } from './budget/budget.js';
import { fitPlan } from './budget/fit-plan.js';
import { unmatchedSharedNames, withPerUserViews } from './build/per-user-tools.js';
import { ToolBuilder } from './build/tool-builder.js';
import { summarizeOperations } from './describe/action-summary.js';
import { conciseView } from './describe/concise-view.js';
import { displayName } from './describe/display-name.js';
import { planUserAuth } from './describe/user-auth.js';
import type { PlanInputs, PlanMemo, PlannedArguments, PlannerOptions } from './drafts.js';
import { groupOperations } from './group/group-operations.js';
import { groupingUnits } from './group/grouping-units.js';
import { classifyIntent } from './select/classify-intent.js';
import { reportUnusedHeaderOptions } from './headers/header-options.js';
import { HeaderDecider } from './headers/header-decider.js';
import { checkHeaderMarkings } from './headers/validate-headers.js';
import { toolPrefixOf } from './name/name-tools.js';
import { pinnedNames } from './name/pinned-names.js';
import { RoundPlanner, type RoundContext } from './plan-round.js';
import { selectOperations } from './select/select-operations.js';
import type { ToolPlan } from './tool-plan.js';

/** The planner's own limits, not options: a tool formed by natural merging has at most this many actions and arguments. */
const GROUPING_LIMITS = { maxActions: 20, maxArguments: 90 };

/**
 * Stage 3: ApiModel → ToolPlan. Selects operations, groups them into tools, names tools and actions, writes the
 * descriptions and input schemas, and keeps the surface inside its token budget by merging related tools and
 * trimming schema detail (never by dropping an operation). The sub-stages, in order: select → arguments → group →
 * name → headers → describe → build → budget (rounds of plan-round.ts) → assemble.
 */
export function planTools(model: ApiModel, options: PlannerOptions, diagnostics: Diagnostics): ToolPlan {
  return planToolsWithArguments(model, options, diagnostics).plan;
}

/** A plan, and the arguments of every selected operation it was planned from (the search surface reads them again). */
export type PlannedTools = { plan: ToolPlan; arguments: PlannedArguments };

/** `planTools`, with the arguments it built. */
export function planToolsWithArguments(model: ApiModel, options: PlannerOptions, diagnostics: Diagnostics): PlannedTools {
  const { selected, excluded } = selectOperations(model.operations, options.select ?? {});
  if (selected.length === 0 && model.operations.length > 0) {
    diagnostics.warn('OTM_NO_OPERATIONS_SELECTED', `The include/exclude rules leave none of the ${model.operations.length} operations.`);
  }
  const { defs, phrases } = fromSchemas(model.schemas);
  const { memo } = options;
  const drafts = new Map(selected.map((operation) => [operation.key, argumentsOf(operation, defs, diagnostics, memo)]));
  const units = groupingUnits(selected, drafts, (operation) => derived(memo, 'intent', operation, () => classifyIntent(operation)));
  const inputs: PlanInputs = {
    selected,
    defs,
    drafts,
    summaries: summarizeOperations(selected, drafts, defs, memo),
    routes: new Map(
      [...drafts].map(([key, draft]) => [key, derived(memo, 'route', draft.operation, () => buildRoute(draft, model.servers))]),
    ),
    // Only read tools offer the concise view, and a read tool holds only read operations.
    conciseViews: new Map(
      units
        .filter((unit) => unit.intent === 'read')
        .map((unit) => [unit.operation.key, derived(memo, 'concise', unit.operation, () => conciseView(unit.operation, model.schemas))]),
    ),
  };
  const budget = budgetOf(options.maxTools, options.budget, selected.length);
  const prefix = toolPrefixOf(options.prefix ?? model.extension.prefix);
  const { locked, preferredActions } = pinnedNames(options.previous, options.renameTools, options.strategy, {
    from: options.previousPrefix,
    to: prefix,
  });
  const context: RoundContext = {
    inputs,
    grouping: groupOperations(units, options.strategy, { maxTools: budget.maxTools, ...GROUPING_LIMITS }, locked, memo),
    naming: { preferredActions, prefix, strategy: options.strategy, maxNameLength: options.maxNameLength, ...(memo ? { memo } : {}) },
    headers: new HeaderDecider({ defs, securitySchemes: model.securitySchemes, options: options.headers ?? {} }, memo),
    builder: new ToolBuilder(
      {
        apiTitle: displayName(model.title),
        defs,
        schemas: model.schemas,
        outputSchema: options.outputSchema,
        conciseViews: inputs.conciseViews,
        routes: inputs.routes,
        phrases,
      },
      options.memo,
    ),
    budget,
  };
  const rounds = new RoundPlanner(context);
  // More tools than allowed even at the coarsest grouping: no static plan fits, and the budget search (rounds of
  // builds at every detail level, the most of a Graph-sized plan's time) could only end there.
  const unlisted = options.unlistedWhenOverBudget === true && context.grouping.leastTools > budget.maxTools;
  const fitted = unlisted
    ? rounds.leanest()
    : fitPlan((groupingBudget, estimate) => rounds.round(groupingBudget, estimate), options.strategy, budget);
  const { headerDiagnostics } = fitted;
  reportBudget(fitted.tools, budget, diagnostics);
  for (const { field, index, name } of unmatchedSharedNames(options.sharedCredentials ?? {}, fitted.drafts))
    diagnostics.warn(
      'OTM_CONFIG_INVALID',
      `sharedCredentials.${field} names no ${field.slice(0, -1)} of the plan: ${JSON.stringify(name)}.`,
      {
        pointer: pointerOf('sharedCredentials', field, index),
        hint:
          field === 'operations'
            ? 'Name operations by operationId or by "METHOD /path".'
            : `Use the ${field.slice(0, -1)} names that \`openapi-to-mcp plan\` shows.`,
      },
    );
  // Per-user modes exist only where a user's own token can stand for a scheme of the description (describe/user-auth.ts).
  const userScheme = planUserAuth(model.securitySchemes, selected)?.scheme;
  const tools =
    userScheme === undefined
      ? fitted.tools
      : withPerUserViews(fitted.drafts, fitted.tools, {
          userScheme,
          schemes: model.securitySchemes,
          shared: options.sharedCredentials ?? {},
          build: (draft, siblings) => context.builder.exact(draft, siblings),
          // The full tools' header diagnostics are the plan's; a per-user view only drops actions.
          decideHeaders: (name, actions) => context.headers.decide(name, actions, new Diagnostics()),
        });
  for (const item of headerDiagnostics.items) diagnostics.add(item);
  reportUnusedHeaderOptions(options.headers ?? {}, tools, diagnostics);
  checkHeaderMarkings(tools, diagnostics);
  return {
    plan: assemblePlan(model, { selected, excluded, tools, budget, envPrefix: options.envPrefix, toolPrefix: prefix }),
    arguments: { defs, drafts },
  };
}

/** What a plan derives from the description's named schemas alone. */
type FromSchemas = { defs: Record<string, SchemaModel>; phrases: ArgumentPhrases };

const fromSchemasMemo = new WeakMap<ApiModel['schemas'], FromSchemas>();

/**
 * The schemas as arguments see them, and the phrases of arguments' descriptions. A watch's runs share the model's
 * schemas while the description's components stay as they were (cache/watch-session.ts): these, and every projection
 * and merged property keyed by the `defs` object, are then made once for all of them. Pure in the schemas, which no
 * one changes.
 */
function fromSchemas(schemas: ApiModel['schemas']): FromSchemas {
  let derivedFrom = fromSchemasMemo.get(schemas);
  if (!derivedFrom) {
    derivedFrom = { defs: inputDefs(schemas), phrases: new ArgumentPhrases() };
    fromSchemasMemo.set(schemas, derivedFrom);
  }
  return derivedFrom;
}

/** What `make` derives from one operation, through the memo when there is one (PlanMemo.derived). */
function derived<T>(memo: PlanMemo | undefined, kind: string, operation: OperationModel, make: () => T): T {
  return memo?.derived ? memo.derived(kind, operation, make) : make();
}

/** An operation's arguments, with the diagnostics building them reported, whether built now or in a run before. */
function argumentsOf(operation: OperationModel, defs: PlannedArguments['defs'], diagnostics: Diagnostics, memo: PlanMemo | undefined) {
  const { draft, reported } = derived(memo, 'arguments', operation, () => {
    const own = new Diagnostics();
    return { draft: buildArguments(operation, defs, own), reported: own.items };
  });
  for (const item of reported) diagnostics.add(item);
  return draft;
}
