import type { OperationModel } from '../model/api-model.js';
import { capLength, cleanText, firstSentence } from './sanitize-text.js';
import type { Intent, PaginationModel } from './tool-plan.js';

export type ActionSummary = {
  name: string;
  operation: OperationModel;
  /** One short line: what the action does. */
  summary: string;
  /** Arguments the action cannot do without. */
  needs: string[];
  returns: string;
  pagination?: PaginationModel;
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
const SUMMARY_LENGTH = [120, 90, 60, 40, 0];

/**
 * A tool description written for a model, deterministic and at least three sentences: what the tool does, when to
 * use it and which sibling to use instead, its actions and what each needs, what it returns (and how it pages),
 * and its side effects.
 */
export function describeTool(input: ToolDescriptionInput): string {
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
  if (distinct.length === 1) return `Each action returns ${distinct[0]}.`;
  return `It returns the API’s JSON response, for example ${described[0]?.name}: ${described[0]?.returns}.`;
}

function pagingSentence(actions: ActionSummary[]): string {
  const paged = actions.filter((action) => action.pagination);
  if (paged.length === 0) return '';
  const argumentsUsed = [...new Set(paged.flatMap((action) => action.pagination?.arguments ?? []))].slice(0, 4);
  const subject = actions.length === 1 ? 'Results come in pages' : `Lists (${paged.map((action) => action.name).join(', ')}) come in pages`;
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
