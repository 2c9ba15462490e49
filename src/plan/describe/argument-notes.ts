import type { JsonValue } from '../../kernel/json.js';
import type { ActionSummary, ConditionalRequirement } from '../drafts.js';

/**
 * Phrases for an action's line in its tool's description: what the tool's merged input schema cannot say about the
 * action's own arguments. Pure functions of the actions' summaries (describe/action-summary.ts fills their
 * `argumentTypes` and `conditions`).
 */

/**
 * The types of the action's arguments that another action of the tool types differently, in argument order:
 * `help_center_id: integer` where the merged property reads `anyOf [integer, null, string]`. Empty when the action's
 * types are the tool's (a single action, or actions that agree). `action` is one of `actions`.
 */
export function typeNotes(
  action: Pick<ActionSummary, 'argumentTypes'>,
  actions: ReadonlyArray<Pick<ActionSummary, 'argumentTypes'>>,
): string[] {
  const own = action.argumentTypes ?? [];
  if (own.length === 0 || actions.length < 2) return [];
  // Another action types an argument otherwise exactly when the actions give it more than one type.
  const mixed = mixedTypes(actions);
  return own.flatMap(([argument, type]) => (mixed.has(argument) ? [`${argument}: ${type}`] : []));
}

/**
 * The arguments the actions give different types, made once per list of actions: every action of a tool asks of
 * all the others (Graph's tools have up to about ninety actions, built at several detail levels).
 */
function mixedTypes(actions: ReadonlyArray<Pick<ActionSummary, 'argumentTypes'>>): ReadonlySet<string> {
  let mixed = mixedByActions.get(actions);
  if (!mixed) {
    const first = new Map<string, string>();
    mixed = new Set();
    for (const action of actions)
      for (const [argument, type] of action.argumentTypes ?? []) {
        const seen = first.get(argument);
        if (seen === undefined) first.set(argument, type);
        else if (seen !== type) mixed.add(argument);
      }
    mixedByActions.set(actions, mixed);
  }
  return mixed;
}

const mixedByActions = new WeakMap<ReadonlyArray<Pick<ActionSummary, 'argumentTypes'>>, Set<string>>();

/** The phrase of `typeNotes`, its entries joined: `help_center_id: integer, id: string`; empty when there are none. */
export function typeNote(
  action: Pick<ActionSummary, 'argumentTypes'>,
  actions: ReadonlyArray<Pick<ActionSummary, 'argumentTypes'>>,
): string {
  return typeNotes(action, actions).join(', ');
}

/**
 * One phrase per requirement that holds only in some calls, in the words the server's refusal uses:
 * `title is required when state is sent`, `reason is required when state is "closed"`, `needs file_ids or files`,
 * `name is required once any body field is sent`.
 */
export function conditionNotes(action: Pick<ActionSummary, 'conditions'>): string[] {
  return (action.conditions ?? []).map(conditionPhrase);
}

export function conditionPhrase(condition: ConditionalRequirement): string {
  switch (condition.kind) {
    case 'with':
      return `${requiredWords(condition.required)} when ${condition.when} is sent`;
    case 'value':
      return `${requiredWords(condition.required)} when ${condition.when} is ${orList(condition.values.map(valueText))}`;
    case 'alternatives':
      return `needs ${orList(condition.alternatives.map((keys) => andList(keys)))}`;
    case 'body':
      return `${requiredWords(condition.required)} once any body field is sent`;
  }
}

function requiredWords(keys: readonly string[]): string {
  return `${andList(keys)} ${keys.length > 1 ? 'are' : 'is'} required`;
}

function valueText(value: JsonValue): string {
  return JSON.stringify(value);
}

function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] as string}`;
}

/** `a or b`; alternatives that are lists themselves keep their `and`s: `a and b, or c`. */
function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  const separator = items.some((item) => item.includes(' and ')) ? ', or ' : ' or ';
  return items.length === 2 ? items.join(separator) : `${items.slice(0, -1).join(', ')}${separator}${items[items.length - 1] as string}`;
}
