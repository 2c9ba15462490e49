// The words of a confirmation: the question a user reads before a destructive action is sent, and what the model
// reads when it was not sent. Argument values come from the model: they are quoted as JSON and cut, never read as
// anything but text.

import type { ActionRoute } from './types.js';

/** One destructive call as a person reads it. */
export type PendingAction = {
  apiTitle: string;
  toolName: string;
  /** Empty for a single-action tool. */
  action: string;
  route: ActionRoute;
  args: Record<string, unknown>;
};

const MAX_VALUE_CHARACTERS = 200;
const MAX_LISTED_ARGUMENTS = 20;

/** What a call does, as a noun: `deletion`, or what another method does. */
export function kindOf(route: ActionRoute): string {
  if (route.method === 'delete') return 'deletion';
  if (route.method === 'post') return 'action';
  return 'change';
}

/** The request line with the path's arguments filled in: `DELETE /repos/octocat/hello-world`. */
export function targetOf(pending: PendingAction): string {
  const { route, args } = pending;
  let path = route.path;
  for (const argument of route.arguments) {
    if (argument.in !== 'path' || args[argument.arg] === undefined) continue;
    const value = args[argument.arg];
    path = path.split(`{${argument.name}}`).join(shown(Array.isArray(value) ? value.join(',') : value, false));
  }
  return plain(`${route.method.toUpperCase()} ${path}`);
}

/** The elicitation message: what will be done, to what, with which arguments. */
export function questionOf(pending: PendingAction): string {
  const pathArguments = new Set(pending.route.arguments.filter((a) => a.in === 'path').map((a) => a.arg));
  const listed = Object.entries(pending.args).filter(
    ([name, value]) => value !== undefined && !pathArguments.has(name),
  );
  const lines = [
    `Allow this ${kindOf(pending.route)} at ${plain(pending.apiTitle)}?`,
    `Request: ${targetOf(pending)}`,
    `Tool: ${pending.toolName}${pending.action ? `, action ${pending.action}` : ''} (operation ${plain(pending.route.operationId)})`,
  ];
  if (listed.length > 0) {
    lines.push('Arguments:');
    for (const [name, value] of listed.slice(0, MAX_LISTED_ARGUMENTS))
      lines.push(`- ${name}: ${plain(shown(value, true))}`);
    if (listed.length > MAX_LISTED_ARGUMENTS) lines.push(`- and ${listed.length - MAX_LISTED_ARGUMENTS} more`);
  }
  lines.push('Nothing is sent to the API unless you confirm.');
  return lines.join('\n');
}

/** The one field of the form: a box the user ticks. */
export function confirmField(pending: PendingAction): { title: string; description: string } {
  return {
    title: `Yes, allow this ${kindOf(pending.route)}`,
    description: `Tick to send ${targetOf(pending)}; leave it unticked, decline or cancel to send nothing.`,
  };
}

export type Refusal = 'declined' | 'cancelled' | 'unconfirmable';

/**
 * What the model is told when nothing was sent. `unconfirmable`: the deployment requires a confirmation this client
 * cannot ask for; `variable` is the per-tool setting that would change it.
 */
export function refusalText(pending: PendingAction, why: Refusal, variable: string): string {
  const what = targetOf(pending);
  if (why === 'declined')
    return `Not done: the user declined ${what}. Nothing was sent to the API. Do not call this again unless the user asks for it.`;
  if (why === 'cancelled')
    return `Not done: the user closed the confirmation of ${what} without answering. Nothing was sent to the API. Ask the user whether to go ahead before calling this again.`;
  return `Not done: this server requires the user's confirmation of ${what}, and this client cannot ask for it (it does not declare form elicitation). Nothing was sent to the API. Tell the user: use an MCP client that supports elicitation, or have the server's operator set ${variable}=${pending.toolName}=ask (ask where the client can) or ${pending.toolName}=off.`;
}

/** A value as JSON text, cut to a readable length; `quoted` false shows a string as it is (inside a path). */
function shown(value: unknown, quoted: boolean): string {
  const text = typeof value === 'string' && !quoted ? value : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_VALUE_CHARACTERS ? `${text.slice(0, MAX_VALUE_CHARACTERS)}…` : text;
}

/**
 * Text from the model or the description as the question shows it: control characters would break its lines, and
 * direction marks could show a path other than the one sent, so both become escapes.
 */
function plain(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
