import type { OperationModel, SecuritySchemeModel } from '../../model/api-model.js';
import { countToolTokens } from '../budget/count-tokens.js';
import { perUserAccess } from '../describe/per-user-access.js';
import { siblingMap } from '../describe/siblings.js';
import type { HeaderDecisions, NamedAction, SharedCredentialRules, Siblings, ToolDraft } from '../drafts.js';
import type { JsonObject } from '../../kernel/json.js';
import type { ToolModel } from '../tool-plan.js';

export type PerUserContext = {
  /** The scheme the signed-in user's token stands for (describe/user-auth.ts). */
  userScheme: string;
  schemes: readonly SecuritySchemeModel[];
  shared: SharedCredentialRules;
  /** Builds a draft with the given siblings, its tokens counted. */
  build: (draft: ToolDraft, siblings: Siblings) => ToolModel;
  /** The header markings of a draft's actions. */
  decideHeaders: (tool: string, actions: NamedAction[]) => HeaderDecisions;
};

/**
 * The plan's tools with what the per-user upstream modes serve of each (`ToolModel.perUser`): an operation only the
 * deployment's own credentials authorize is left out there, unless the configuration names it for shared
 * credentials (`sharedCredentials`), and each tool that changes — fewer actions, a sibling tool gone, an action on
 * shared credentials — is built again from its remaining actions, so that its description, its action enum and its
 * schema say only what is offered. Tools the modes serve as they are carry nothing.
 *
 * `drafts` and `tools` are the kept plan, in the same order.
 */
export function withPerUserViews(drafts: readonly ToolDraft[], tools: readonly ToolModel[], context: PerUserContext): ToolModel[] {
  const byKey = new Map(context.schemes.map((scheme) => [scheme.key, scheme]));
  const sharedBy = sharedMatcher(context.shared);
  const decisions = drafts.map((draft) =>
    draft.actions.map((action) => {
      const access = perUserAccess(action.draft.operation, context.userScheme, byKey);
      if (access.kind !== 'operator') return 'offered';
      return sharedBy(action.draft.operation, draft.name) ? 'shared' : 'left out';
    }),
  );
  if (decisions.every((actions) => actions.every((decision) => decision === 'offered'))) return [...tools];
  const kept = drafts.map((draft, index) => ({
    ...draft,
    actions: draft.actions.filter((_, at) => decisions[index]?.[at] !== 'left out'),
  }));
  const siblingsBefore = siblingMap(drafts);
  const siblingsAfter = siblingMap(kept.filter((draft) => draft.actions.length > 0));
  return tools.map((tool, index) => {
    const draft = kept[index] as ToolDraft;
    const original = drafts[index] as ToolDraft;
    const shared = original.actions.filter((_, at) => decisions[index]?.[at] === 'shared').map((action) => action.name);
    const actions =
      shared.length === 0
        ? tool.actions
        : tool.actions.map((action) => (shared.includes(action.name) ? { ...action, sharedCredentials: true as const } : action));
    if (draft.actions.length === 0) return { ...tool, actions, perUser: { actions: [] } };
    const siblings = siblingsAfter.get(draft.name) ?? {};
    const same =
      draft.actions.length === original.actions.length && JSON.stringify(siblings) === JSON.stringify(siblingsBefore.get(draft.name) ?? {});
    if (same && shared.length === 0) return { ...tool, actions };
    const headers = draft.actions.length === original.actions.length ? original.headers : context.decideHeaders(draft.name, draft.actions);
    const built = context.build({ ...draft, headers }, siblings);
    // A grouped tool left with one action keeps its selector: calls have the same shape in every mode.
    const inputSchema =
      original.actions.length > 1 && draft.actions.length === 1
        ? withSelector(built.inputSchema, draft.actions[0]?.name ?? '')
        : built.inputSchema;
    const description = shared.length > 0 ? `${built.description} ${sharedNote(shared, draft.actions.length)}` : built.description;
    const view = { ...built, description, inputSchema };
    return {
      ...tool,
      actions,
      perUser: {
        actions: draft.actions.map((action) => action.name),
        title: built.title,
        description,
        inputSchema,
        tokens: view.description === built.description && inputSchema === built.inputSchema ? built.tokens : countToolTokens(view),
      },
    };
  });
}

/** A one-action schema with the grouped tool's `action` selector, its one value required. */
function withSelector(schema: JsonObject, action: string): JsonObject {
  const properties = (schema['properties'] ?? {}) as JsonObject;
  const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
  return {
    ...schema,
    properties: {
      action: { type: 'string', enum: [action], description: 'The action to perform; the tool description says what it needs.' },
      ...properties,
    },
    required: ['action', ...required],
  };
}

/** What a tool with actions on shared credentials says of them, so that a model (and its user) knows who acts. */
function sharedNote(shared: string[], actions: number): string {
  const which = actions === 1 || shared.length === actions ? 'Its calls' : `Calls of ${shared.join(', ')}`;
  return `${which} use this server's own API credentials, shared by every user, not the signed-in user's.`;
}

/** Whether the configuration names an operation (by operationId or `METHOD /path`, by tag, or by its tool) for shared credentials. */
function sharedMatcher(rules: SharedCredentialRules): (operation: OperationModel, tool: string) => boolean {
  const operations = new Set((rules.operations ?? []).map(normaliseName));
  const tags = new Set((rules.tags ?? []).map((tag) => tag.toLowerCase()));
  const tools = new Set(rules.tools ?? []);
  return (operation, tool) =>
    tools.has(tool) ||
    operations.has(operation.id) ||
    operations.has(normaliseName(operation.key)) ||
    operation.tags.some((tag) => tags.has(tag.toLowerCase()));
}

/** `get /pets` and `GET  /pets` name the same operation; an operationId stays as it is. */
function normaliseName(name: string): string {
  const [method = '', ...rest] = name.trim().split(/\s+/);
  return rest.length === 0 ? name : `${method.toUpperCase()} ${rest.join(' ')}`;
}

/**
 * The names `sharedCredentials` gives that match nothing of the plan (a typo would silently leave an operation out
 * of the per-user modes), each with where it is in the configuration.
 */
export function unmatchedSharedNames(
  rules: SharedCredentialRules,
  drafts: readonly ToolDraft[],
): Array<{ field: 'operations' | 'tags' | 'tools'; index: number; name: string }> {
  const operations = drafts.flatMap((draft) => draft.actions.map((action) => action.draft.operation));
  const known = {
    operations: new Set(operations.flatMap((operation) => [operation.id, normaliseName(operation.key)])),
    tags: new Set(operations.flatMap((operation) => operation.tags.map((tag) => tag.toLowerCase()))),
    tools: new Set(drafts.map((draft) => draft.name)),
  };
  const out: Array<{ field: 'operations' | 'tags' | 'tools'; index: number; name: string }> = [];
  for (const field of ['operations', 'tags', 'tools'] as const)
    (rules[field] ?? []).forEach((name, index) => {
      const key = field === 'operations' ? normaliseName(name) : field === 'tags' ? name.toLowerCase() : name;
      if (!known[field].has(key)) out.push({ field, index, name });
    });
  return out;
}
