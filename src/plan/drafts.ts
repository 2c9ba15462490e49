import type { Diagnostics } from '../diagnostics/diagnostic.js';
import type { HttpMethod, JsonValue, MediaTypeModel, OperationModel, SchemaModel } from '../model/api-model.js';
import type { Intent } from '../surface/surface.js';
import type { ArgumentRoute, ConciseModel, HeaderDecision, OutputSchemaMode, PaginationModel, RouteModel, ToolModel } from './tool-plan.js';

/**
 * The planner's in-between values, in the order the sub-stages hand them on: the options it is given, the rules that
 * select operations (select/), each action's arguments (arguments/), the units grouping works on and the groups it
 * forms (group/), the names pinned by the lock file and the named drafts (name/), the header decisions (headers/),
 * the summaries descriptions are written from (describe/), the tools built from the drafts (build/), and the budget
 * they are fitted to with the rounds of its search (budget/). The output, ToolPlan, is in tool-plan.ts.
 */

/**
 * What the planner is given, every default already applied (config/resolve-options.ts applies them, from the
 * configuration schema's CONFIG_DEFAULTS).
 */
export type PlannerOptions = {
  strategy: Strategy;
  maxTools: number;
  /** Longest tool name, prefix included (see name/name-tools.ts, DEFAULT_NAME_LENGTH). */
  maxNameLength: number;
  budget: BudgetOptions;
  /** `outputSchema` of the tools: `none` or `loose`; see output-schema.ts for why. */
  outputSchema: OutputSchemaMode;
  /** Namespace for tool names (`github` → `github_issues_read`). */
  prefix?: string;
  /** Prefix of environment variables; defaults to the API's slug in upper snake case. */
  envPrefix?: string;
  select?: SelectionRules;
  /** Which properties carry `x-mcp-header` (SEP-2243): derived from the description unless disabled, plus overrides. */
  headers?: HeaderOptions;
  /**
   * Tool and action names per operation from an earlier generation (the lock file): kept, so that a model and its
   * users keep the names they rely on when operations are added, reordered or renamed.
   */
  previous?: PreviousNames;
  /** The prefix the names in `previous` carry (the lock file's `prefix`); a different `prefix` now renames them. */
  previousPrefix?: string;
  /** Deliberate renames of pinned tools: `{ old_name: 'new_name' }`. */
  renameTools?: Record<string, string>;
  /**
   * Operations the per-user upstream modes may still send with the server's own credentials (see
   * describe/per-user-access.ts); by default such operations are not offered in those modes.
   */
  sharedCredentials?: SharedCredentialRules;
  /** Builds and counts kept from an earlier run (the regeneration cache); the plan is the same without. */
  memo?: PlanMemo;
  /**
   * Set when another surface is served should the static tools miss their budget (`--surface auto` or `search`): when
   * the grouping already shows that they must (more resource families than tools allowed), the budget search is
   * skipped, and each tool of the coarsest grouping is built once at the leanest detail; they only route calls.
   */
  unlistedWhenOverBudget?: boolean;
};

/** The description's schemas as arguments see them, and each selected operation's arguments by operation key. */
export type PlannedArguments = { defs: Record<string, SchemaModel>; drafts: ReadonlyMap<string, ActionDraft> };

/** The token budget of `tools/list`: per tool, and for the whole list per operation up to a cap. */
export type BudgetOptions = { maxToolTokens: number; tokensPerOperation: number; maxTotalTokens: number };

/** Tool → action → operation key, as the lock file stores them. */
export type PreviousNames = Record<string, { actions: Record<string, string> }>;

export type SelectionRules = {
  includeTags?: string[];
  excludeTags?: string[];
  includeOperations?: string[];
  excludeOperations?: string[];
  /** Glob patterns on the path key: `*` matches within a segment, `**` across segments. */
  includePaths?: string[];
  excludePaths?: string[];
  includeMethods?: HttpMethod[];
  excludeMethods?: HttpMethod[];
  /** Leave out operations the description marks deprecated. */
  excludeDeprecated?: boolean;
};

/** Operations named for shared credentials: by operationId or `METHOD /path`, by tag, or every action of a tool. */
export type SharedCredentialRules = { operations?: string[]; tags?: string[]; tools?: string[] };

export type Selection = { selected: OperationModel[]; excluded: Array<{ key: string; reason: string }> };

export type Strategy = 'auto' | 'per-operation' | 'by-tag';

/** What grouping needs to know about an operation. */
export type GroupingUnit = {
  operation: OperationModel;
  intent: Intent;
  resource: string[];
  /** Per resource segment, whether a path parameter follows it: `repos` in `/repos/{owner}/{repo}/labels` is a scope. */
  scopes: boolean[];
  /** Path parameters and required query parameters: what identifies the thing acted on. */
  identity: string[];
  /** Every argument name the action takes, to keep a tool's parameter count in bounds. */
  argumentNames: string[];
};

/**
 * A group of operations becoming one tool. `fixedName` comes from `x-mcp.tool`; `lockedName` from the lock file of
 * an earlier generation: the tool keeps that name and its operations, and may take in new ones.
 */
export type OperationGroup = { units: GroupingUnit[]; fixedName?: string; lockedName?: string };

/** One argument of one action, before the arguments of a tool's actions are merged. */
export type ArgumentDraft = {
  key: string;
  schema: SchemaModel;
  required: boolean;
  description?: string;
  route: ArgumentRoute;
  /** A body taken whole: its first-level fields, which its description names (arguments/body-fields.ts). */
  fields?: BodyFields;
};

/** The first-level fields of a body taken whole (of each item, for a list), required ones marked, in order. */
export type BodyFields = { items: boolean; fields: Array<{ name: string; required: boolean }> };

/**
 * A requirement of an action that holds only in some calls, in the tool's argument keys (see
 * arguments/conditional-requirements.ts): `required` when `when` is sent (`with`), when `when` has one of `values`
 * (`value`), one of the `alternatives` in full (`alternatives`), or `required` once any body field is sent (`body`).
 */
export type ConditionalRequirement =
  | { kind: 'with'; when: string; required: string[] }
  | { kind: 'value'; when: string; values: JsonValue[]; required: string[] }
  | { kind: 'alternatives'; alternatives: string[][] }
  | { kind: 'body'; required: string[] };

export type ActionDraft = {
  operation: OperationModel;
  arguments: ArgumentDraft[];
  body?: { media: MediaTypeModel; required: boolean };
};

export type NamedAction = { name: string; draft: ActionDraft };

/** Names an earlier generation gave (the lock file): the tool each operation stays in, and its action name. */
export type PinnedNames = {
  /** Operation key → tool name. */
  locked: Map<string, string>;
  /** Operation key → action name. */
  preferredActions: Map<string, string>;
};

/** What an operation does, needs and returns: the same in every tool it may land in. */
export type OperationSummary = Omit<ActionSummary, 'name'>;

export type ActionSummary = {
  name: string;
  operation: OperationModel;
  /** One short line: what the action does. */
  summary: string;
  /** The summary's words that may say more than the action's name (describe-tool.ts, summaryWords). */
  summaryWords: string[];
  /** Arguments the action cannot do without. */
  needs: string[];
  returns: string;
  pagination?: PaginationModel;
  /** Optional arguments the lean description names for this action (some are not typed properties). */
  optional?: string[];
  /**
   * Each argument's own type in words (`integer`, `string or null`), for the arguments whose schema gives one, in
   * argument order: what a grouped tool's merged input schema cannot say where its actions type an argument
   * differently (describe/argument-notes.ts, typeNotes).
   */
  argumentTypes?: Array<[argument: string, type: string]>;
  /** Requirements that hold only in some calls (describe/argument-notes.ts, conditionNotes). */
  conditions?: ConditionalRequirement[];
};

/** How markings are chosen; the config file's `headers` section and `--no-headers` end up here. */
export type HeaderOptions = {
  /** Derive markings from the description (routing rules and `x-mcp-header` extensions). Default true. */
  enabled?: boolean;
  /** Mark these properties (of one tool, or of every tool that has them); `header` defaults to a derived name. */
  add?: Array<{ tool?: string; property: string; header?: string }>;
  /** Never mark these properties. */
  remove?: Array<{ tool?: string; property: string }>;
};

export type HeaderDecisions = { marked: HeaderDecision[]; refused: HeaderDecision[] };

/**
 * What every round of the budget search starts from, computed once per plan: the selected operations, the schemas
 * arguments refer to, and per operation key its arguments, its summary, its route and (read operations) its concise
 * view.
 */
export type PlanInputs = {
  selected: OperationModel[];
  /** The description's schemas as arguments see them (see arguments/input-defs.ts). */
  defs: Record<string, SchemaModel>;
  drafts: Map<string, ActionDraft>;
  summaries: Map<string, OperationSummary>;
  /** How the generated server calls each operation: the same in whichever tool it lands. */
  routes: Map<string, RouteModel>;
  conciseViews: Map<string, ConciseModel | undefined>;
};

/** A named tool before its header decisions. */
export type NamedToolDraft = Omit<ToolDraft, 'headers'>;

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

/** A tool's siblings: the tools on the same resource with the other intents, by intent, for its description. */
export type Siblings = Partial<Record<Intent, string>>;

/** A tool as built from a draft, before its tokens are counted or estimated. */
export type BuiltTool = Omit<ToolModel, 'tokens'>;

export type Budget = { maxTools: number; maxToolTokens: number; maxTotalTokens: number };

/**
 * One round of the budget search: the tools of one grouping budget, fitted to the budget on estimated tokens, and
 * how to build any of its drafts with exact counts.
 */
export type Round = {
  groupingBudget: number;
  /** Whether the grouping is the coarsest there is: no lower grouping budget gives other tools. */
  coarsest: boolean;
  /** The drafts at the detail levels the fitting chose. */
  drafts: ToolDraft[];
  /** Estimated tokens of the whole list. */
  total: number;
  /** Whether the list misses its budget even with every tool at its floor (and every tool is there). */
  overBudget: boolean;
  /** The header decisions' diagnostics: only the kept round's describe the plan. */
  headerDiagnostics: Diagnostics;
  /** Builds a draft of this round with its exact o200k count. */
  buildExactly: (draft: ToolDraft) => ToolModel;
};

/**
 * What the planner may take from an earlier run (the regeneration cache, `src/cache/`): facts about tool builds under
 * keys the memo derives from their inputs' content. Without a memo the planner does all the work, and the plan is
 * the same.
 */
export type PlanMemo = {
  /**
   * The record of one build: `key` is everything the build depends on besides the plan-wide context and the content
   * of its operations (one per action, in order), which the memo hashes itself. It holds what an earlier run learnt
   * of the same build (its characters, its exact count); the builder fills in what it computes, for the next run.
   */
  buildRecord(key: string, operations: OperationModel[]): BuildRecord;
  /**
   * What an operation does, needs and returns, as an earlier run summarised the same operation under the same named
   * schemas (a summary reads nothing else); `make` writes it when there is none.
   */
  operationSummary(operation: OperationModel, make: () => OperationSummary): OperationSummary;
  /**
   * A value derived from one operation and the plan-wide context alone (its arguments, its route, its concise view),
   * as this process derived it in an earlier run for the same operation object under the same context: a watch hands
   * an operation that did not change back as the same object (cache/watch-session.ts). Absent: derived every time.
   */
  derived?<T>(kind: string, operation: OperationModel, make: () => T): T;
  /**
   * A value computed from `key` alone (everything it reads, as text), as this process computed it in its run before
   * for the same key; `make` computes it. Absent: computed every time. The key is asked for only by a memo that keeps
   * work between runs: making it is not free (it spells out all its value reads).
   */
  reused?<T>(kind: string, key: () => string, make: () => T): T;
  /**
   * A value computed from some operations (their content, which the memo hashes), the plan-wide context and `key`
   * (everything else it reads, as text), as this process computed it in its run before; `make` computes it. Absent:
   * computed every time. As for `reused`, the key is asked for only by a memo that keeps work between runs.
   */
  shared?<T>(kind: string, key: () => string, operations: readonly OperationModel[], make: () => T): T;
};

/**
 * What is known of a build without building it: the characters its tokens are estimated from, its exact count, and
 * for a build the plan kept (one its exact count was asked for) the tool itself.
 */
export type BuildRecord = { characters?: number; exactTokens?: number; tool?: BuiltTool };
