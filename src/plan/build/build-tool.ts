import type { SchemaModel } from '../../model/api-model.js';
import type { BuiltTool, Siblings, ToolDraft } from '../drafts.js';
import { isIdempotentMethod } from '../select/classify-intent.js';
import { withResponseFormat } from '../describe/concise-view.js';
import { withOperationStatus } from '../describe/operation-status.js';
import { describeTool, descriptionDetail } from '../describe/describe-tool.js';
import { applyHeaders } from '../headers/apply-headers.js';
import { looseOutputSchema } from '../describe/output-schema.js';
import { cleanText, wholePhrase } from '../text/sanitize-text.js';
import type { ConciseModel, OutputSchemaMode, RouteModel, ToolAnnotations } from '../tool-plan.js';
import { buildToolSchema } from '../arguments/tool-schema.js';
import type { ArgumentPhrases } from '../arguments/argument-phrases.js';

export type BuildToolContext = {
  apiTitle: string;
  defs: Record<string, SchemaModel>;
  /** The description's schemas as written (responses need their readOnly fields, which `defs` drops). */
  schemas: Record<string, SchemaModel>;
  outputSchema: OutputSchemaMode;
  siblings: Siblings;
  /** Routes of the operations by key (see PlanInputs). */
  routes: ReadonlyMap<string, RouteModel>;
  /** The arguments' phrases, shared by every build of the plan. */
  phrases: ArgumentPhrases;
  /** Concise views of read operations by key (see PlanInputs): they do not depend on the detail level. */
  conciseViews: ReadonlyMap<string, ConciseModel | undefined>;
};

/** A draft at its detail level → the tool a model sees and its routes; its tokens are counted by the caller. */
export function buildTool(draft: ToolDraft, context: BuildToolContext): BuiltTool {
  // Marked properties stay typed at every detail level: an untyped argument cannot carry x-mcp-header.
  const marked = new Set(draft.headers.marked.map((decision) => decision.property));
  const built = buildToolSchema(draft.actions, context.defs, draft.detail, marked, context.phrases);
  const operations = draft.actions.map((action) => action.draft.operation);
  const concise = operations.map((operation) => (draft.intent === 'read' ? context.conciseViews.get(operation.key) : undefined));
  const { schema: formatted, offered } = withResponseFormat(
    applyHeaders(built.schema, draft.headers.marked, context.defs),
    draft.actions.filter((_, index) => concise[index]).map((action) => action.name),
    draft.actions.length,
    draft.detail,
  );
  const { schema: inputSchema } = withOperationStatus(
    formatted,
    draft.actions.filter((action) => action.draft.operation.longRunning).map((action) => action.name),
    draft.actions.length,
    draft.detail,
  );
  const outputSchema = context.outputSchema === 'loose' ? looseOutputSchema(operations, context.schemas) : undefined;
  const { mentioned } = built;
  const description = described(draft, context, () =>
    describeTool({
      apiTitle: context.apiTitle,
      resourceLabel: draft.resourceLabel,
      contents: draft.contents,
      intent: draft.intent,
      actions: draft.actions.map((action) => ({ ...action.summary, optional: mentioned.get(action.name) ?? [] })),
      siblings: context.siblings,
      detail: draft.detail,
    }),
  );
  return {
    name: draft.name,
    title: titleOf(draft),
    description,
    intent: draft.intent,
    annotations: annotate(draft),
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    actions: actionsOf(draft, context, offered ? concise : []),
    headers: draft.headers,
    detail: draft.detail,
  };
}

/**
 * The tool's actions as the plan lists them, with the concise views it offers (none when it offers none). They do not
 * depend on the detail level otherwise: the levels of one draft share them.
 */
const actionLists = new WeakMap<ToolDraft['actions'], Map<boolean, BuiltTool['actions']>>();

function actionsOf(draft: ToolDraft, context: BuildToolContext, concise: ReadonlyArray<ConciseModel | undefined>): BuiltTool['actions'] {
  let byOffer = actionLists.get(draft.actions);
  if (!byOffer) {
    byOffer = new Map();
    actionLists.set(draft.actions, byOffer);
  }
  const offered = concise.length > 0;
  let actions = byOffer.get(offered);
  if (!actions) {
    actions = draft.actions.map((action, index) => ({
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
      route: context.routes.get(action.draft.operation.key) as RouteModel,
      ...(action.summary.pagination ? { pagination: action.summary.pagination } : {}),
      ...(concise[index] ? { concise: concise[index] } : {}),
      ...(action.draft.operation.longRunning ? { longRunning: true as const } : {}),
    }));
    byOffer.set(offered, actions);
  }
  return actions;
}

/**
 * Descriptions by the actions they describe: the fitting builds a tool at up to every detail level from the same
 * actions, and levels that differ only in their schemas share one description (descriptionDetail).
 */
const descriptions = new WeakMap<ToolDraft['actions'], Map<string, string>>();

function described(draft: ToolDraft, context: BuildToolContext, describe: () => string): string {
  let byInput = descriptions.get(draft.actions);
  if (!byInput) {
    byInput = new Map();
    descriptions.set(draft.actions, byInput);
  }
  // Everything describeTool reads besides the actions (and the optional arguments, which follow from the actions).
  const key = JSON.stringify([
    context.apiTitle,
    draft.resourceLabel,
    draft.contents,
    draft.intent,
    context.siblings,
    descriptionDetail(draft.detail, draft.actions.length),
  ]);
  let description = byInput.get(key);
  if (description === undefined) {
    description = describe();
    byInput.set(key, description);
  }
  return description;
}

/** Characters of a one-action tool's title (its summary). */
const TITLE_LENGTH = 80;

/** Sub-resources a title lists before it says how many more there are. */
const TITLE_CONTENTS = 5;

/**
 * `Repos issues: read`, and what the actions act on besides the resource itself: `Repos issues, including comments,
 * events and 3 more: read` — "including", so that a reader knows the issues themselves are there too.
 */
function titleOf(draft: ToolDraft): string {
  // One action: its summary, cut at a whole phrase; unless it has none (`DELETE /projects/{id}`).
  const [single] = draft.actions.length === 1 ? draft.actions : [];
  const phrase =
    single && !/^[A-Z]+ \//.test(single.summary.summary) ? wholePhrase(cleanText(single.summary.summary, 200).text, TITLE_LENGTH) : '';
  if (phrase) return phrase.replace(/[.]$/, '');
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
