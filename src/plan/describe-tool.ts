import type { OperationModel } from '../model/api-model.js';
import { capLength, cleanText, firstSentence } from './sanitize-text.js';
import type { Intent, PaginationModel } from './tool-plan.js';
import { mostlyRequired } from './shared-arguments.js';
import { compressNames } from './tool-schema.js';

export type ActionSummary = {
  name: string;
  operation: OperationModel;
  /** One short line: what the action does. */
  summary: string;
  /** Arguments the action cannot do without. */
  needs: string[];
  returns: string;
  pagination?: PaginationModel;
  /** Optional arguments the lean description names for this action (some are not typed properties). */
  optional?: string[];
};

export type ToolDescriptionInput = {
  apiTitle: string;
  resourceLabel: string;
  intent: Intent;
  actions: ActionSummary[];
  /** Sibling tools on the same resource with another intent: `{ write: 'pets_write' }`. */
  siblings: Partial<Record<Intent, string>>;
  detail: number;
};

const INTENT_VERBS: Record<Intent, { what: string; use: string; effect: string }> = {
  read: { what: 'Reads', use: 'look up', effect: 'Read-only: it never changes anything.' },
  write: { what: 'Creates and changes', use: 'create or update', effect: 'It changes data in the API but never deletes it.' },
  delete: {
    what: 'Deletes or removes',
    use: 'delete or remove',
    effect: 'It deletes data and that cannot be undone: confirm with the user first.',
  },
};

/** Short action summaries per detail level (characters); 0 leaves only the action names. */
const SUMMARY_LENGTH = [120, 90, 60, 40];

/**
 * A tool description written for a model, deterministic and at least three sentences: what the tool does, when to
 * use it and which sibling to use instead, its actions and what each needs, what it returns (and how it pages),
 * and its side effects.
 */
export function describeTool(input: ToolDescriptionInput): string {
  return input.detail >= LEAN_DETAIL ? describeLean(input) : describeFull(input);
}

/** From this detail level on, descriptions keep only what a model cannot infer: action names and needs, effects. */
const LEAN_DETAIL = 4;

function describeFull(input: ToolDescriptionInput): string {
  const { actions, intent, detail } = input;
  const verbs = INTENT_VERBS[intent];
  const sentences: string[] = [];
  if (actions.length === 1) {
    const [action] = actions as [ActionSummary];
    sentences.push(`${sentenceCase(action.summary)} in the ${input.apiTitle}.`);
    const details = detail <= 1 ? cleanText(action.operation.description, detail === 0 ? 400 : 200).text : '';
    if (details && !details.toLowerCase().startsWith(action.summary.toLowerCase())) sentences.push(details.replace(/([^.!?…])$/, '$1.'));
    sentences.push(whenToUse(input));
    if (action.needs.length > 0) sentences.push(`It needs ${listText(action.needs)}.`);
  } else {
    sentences.push(`${verbs.what} ${input.resourceLabel} in the ${input.apiTitle}.`);
    sentences.push(whenToUse(input));
    sentences.push(`Actions: ${actions.map((action) => actionLine(action, detail)).join('; ')}.`);
  }
  const returns = returnsSentence(actions, intent);
  if (returns) sentences.push(returns);
  const paging = pagingSentence(actions);
  if (paging) sentences.push(paging);
  const deprecated = actions.filter((action) => action.operation.deprecated).map((action) => action.name || action.operation.id);
  if (deprecated.length > 0)
    sentences.push(actions.length === 1 ? 'The API marks it deprecated.' : `Deprecated by the API: ${deprecated.join(', ')}.`);
  sentences.push(verbs.effect);
  return sentences.join(' ');
}

const LEAN_EFFECTS: Record<Intent, string> = {
  read: 'Read-only.',
  write: 'Changes data; never deletes.',
  delete: 'Deletes data for good: confirm with the user first.',
};

/** The compact form: still three sentences or more, with every action and what it needs. */
function describeLean(input: ToolDescriptionInput): string {
  const { actions, intent } = input;
  const sentences: string[] = [];
  if (actions.length === 1) {
    const [action] = actions as [ActionSummary];
    sentences.push(`${sentenceCase(capLength(action.summary, 80).replace(/[.]$/, ''))}.`);
    if (action.optional && action.optional.length > 0) sentences.push(`Optional: ${compressNames(action.optional).join(', ')}.`);
  } else {
    // Arguments every action needs are in the schema's `required` list; the lines name only the others.
    // Arguments most actions need are stated on their property (or in `required`); the lines name only the others.
    const shared = mostlyRequired(actions.map((action) => action.needs));
    // Optional arguments every action takes (an API's common query parameters) are named once, not per action.
    const common = commonOptional(actions);
    const argumentsOf = (action: ActionSummary) => {
      const needs = action.needs.filter((name) => !shared.has(name));
      const own = (action.optional ?? []).filter((name) => !common.has(name));
      const optional = own.length > 0 ? `optional ${compressNames(own).join(', ')}` : '';
      return [needs.join(', '), optional].filter(Boolean).join('; ');
    };
    sentences.push(`${INTENT_VERBS[intent].what} ${input.resourceLabel}.`);
    // Actions with nothing to add are already named by the schema's `action` enum; actions that take the same
    // arguments (create, update and patch of one resource) share a line.
    const byArguments = new Map<string, string[]>();
    for (const action of actions) {
      const text = argumentsOf(action);
      if (text) byArguments.set(text, [...(byArguments.get(text) ?? []), action.name]);
    }
    const lines = [...byArguments].map(([text, names]) => `${listText(names)} (${text})`);
    if (lines.length > 0) sentences.push(`Actions: ${lines.join('; ')}.`);
    if (common.size > 0) sentences.push(`Every action also takes optional ${compressNames([...common]).join(', ')}.`);
  }
  const pagingArguments = [...new Set(actions.flatMap((action) => action.pagination?.arguments ?? []))].slice(0, 3);
  sentences.push(pagingArguments.length > 0 ? `Returns JSON; lists page with ${pagingArguments.join(', ')}.` : 'Returns JSON.');
  const siblings = (['read', 'write', 'delete'] as const)
    .filter((other) => other !== intent && input.siblings[other])
    .map((other) => input.siblings[other]);
  if (siblings.length > 0) sentences.push(`See also ${siblings.join(', ')}.`);
  const deprecated = actions.filter((action) => action.operation.deprecated).map((action) => action.name || action.operation.id);
  if (deprecated.length > 0) sentences.push(`Deprecated: ${deprecated.join(', ')}.`);
  sentences.push(LEAN_EFFECTS[intent]);
  return sentences.join(' ');
}

/** Optional arguments that every action lists, in the first action's order; none for fewer than two actions. */
function commonOptional(actions: ActionSummary[]): Set<string> {
  if (actions.length < 2) return new Set();
  const [first, ...rest] = actions as [ActionSummary, ...ActionSummary[]];
  const others = rest.map((action) => new Set(action.optional ?? []));
  return new Set((first.optional ?? []).filter((name) => others.every((set) => set.has(name))));
}

function whenToUse(input: ToolDescriptionInput): string {
  const alternatives = (['read', 'write', 'delete'] as const)
    .filter((intent) => intent !== input.intent && input.siblings[intent])
    .map((intent) => `to ${INTENT_VERBS[intent].use} use ${input.siblings[intent]}`);
  const use = `Use it to ${INTENT_VERBS[input.intent].use} ${input.resourceLabel}`;
  return alternatives.length > 0 ? `${use}; ${alternatives.join(', ')}.` : `${use}.`;
}

function actionLine(action: ActionSummary, detail: number): string {
  const length = SUMMARY_LENGTH[Math.min(detail, SUMMARY_LENGTH.length - 1)] ?? 0;
  const summary = length > 0 ? capLength(action.summary, length).replace(/[.]$/, '') : '';
  const needs = action.needs.length > 0 ? `needs ${action.needs.join(', ')}` : '';
  const details = [summary, needs].filter(Boolean).join(', ');
  return details ? `${action.name} (${details})` : action.name;
}

function returnsSentence(actions: ActionSummary[], intent: Intent): string {
  const described = actions.filter((action) => action.returns);
  if (described.length === 0) return intent === 'read' ? 'It returns the API’s JSON response.' : '';
  if (actions.length === 1) return `It returns ${described[0]?.returns}.`;
  const distinct = [...new Set(described.map((action) => action.returns))];
  if (distinct.length === 1 && described.length === actions.length) return `Each action returns ${distinct[0]}.`;
  return `It returns the API’s JSON response, for example ${described[0]?.name}: ${described[0]?.returns}.`;
}

function pagingSentence(actions: ActionSummary[]): string {
  const paged = actions.filter((action) => action.pagination);
  if (paged.length === 0) return '';
  const argumentsUsed = [...new Set(paged.flatMap((action) => action.pagination?.arguments ?? []))].slice(0, 4);
  const names = paged.map((action) => action.name);
  const subject =
    actions.length === 1
      ? 'Results come in pages'
      : names.length <= 4
        ? `Lists (${names.join(', ')}) come in pages`
        : 'Lists come in pages';
  return `${subject}: pass ${listText(argumentsUsed)} for more; the result says when there is a next page.`;
}

/** A one-line summary of an operation: its summary, else the first sentence of its description, else method and path. */
export function summarize(operation: OperationModel): string {
  const fromSummary = cleanText(operation.summary, 200).text;
  const fromDescription = fromSummary ? '' : firstSentence(cleanText(operation.description, 400).text, 160);
  const text = (fromSummary || fromDescription).replace(/[.!?…]+$/, '').trim();
  return text || `${operation.method.toUpperCase()} ${operation.path.split(/[?#]/)[0]}`;
}

function sentenceCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function listText(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
