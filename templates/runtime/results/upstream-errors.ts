// Upstream failures as results a model can act on: what happened, what the API said, which argument it blames,
// and what to do next. Never a stack trace, never a credential.

import type { CallToolResult } from '@modelcontextprotocol/server';
import { api } from '../../api.js';
import { redact } from '../core/redact.js';
import type { ActionRoute } from '../core/types.js';
import { credentialHint } from '../credentials/auth.js';
import type { Caller } from '../credentials/callers.js';
import type { UpstreamFailure, UpstreamResponse } from '../requests/http.js';
import { cut, errorText } from './results.js';

export type ErrorContext = {
  toolName: string;
  actionName: string;
  route: ActionRoute;
  siblings: string[];
  /** The signed-in user (per-user modes): a refused token is theirs, and only signing in again helps. */
  caller?: Caller | undefined;
};

const MESSAGE_FIELDS = [
  'message',
  'error_description',
  'detail',
  'error',
  'title',
  'description',
  'msg',
  'reason',
  'errorMessage',
  'Message',
];
const FIELD_KEYS = [
  'field',
  'param',
  'parameter',
  'name',
  'path',
  'pointer',
  'property',
  'attribute',
  'loc',
  'key',
  'source',
];

export function httpErrorResult(response: UpstreamResponse, context: ErrorContext): CallToolResult {
  const where = `${context.route.method.toUpperCase()} ${context.route.path}`;
  const who = context.actionName ? `${context.toolName}, action ${context.actionName}` : context.toolName;
  const raw = Buffer.from(response.body).toString('utf8');
  const text = redact(raw);
  // Parsed from the raw text, then redacted: an escaped credential only shows once decoded.
  const parsed = safeJson(raw);
  const message = parsed === undefined ? cut(text.replace(/\s+/g, ' ').trim(), 500) : redact(apiMessage(parsed));
  const blamed = blamedArguments(parsed ?? text, context.route);
  const lines = [
    `${api.title} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''} to ${where} (${who}).`,
    message ? `The API says: ${message}` : '',
    blamed.length > 0 ? `It points at: ${blamed.join(', ')}.` : '',
    advice(response, context, blamed),
  ];
  return errorText(lines.filter(Boolean).join(' '));
}

/** Methods a second call of which does no more than the first (RFC 9110 §9.2.2): retried, and safe to try again. */
const IDEMPOTENT = new Set(['get', 'head', 'options', 'put', 'delete', 'trace']);

export function failureResult(failure: UpstreamFailure, context: ErrorContext): CallToolResult {
  const where = `${context.route.method.toUpperCase()} ${context.route.path}`;
  if (failure.kind === 'redirects')
    return errorText(`${api.title} kept redirecting ${where} (${failure.message}); nothing usable came back.`);
  // A write that may have arrived: "try again" could apply it twice (a second message, a second payment).
  if (failure.mayHaveArrived && !IDEMPOTENT.has(context.route.method) && failure.kind !== 'cancelled')
    return errorText(
      `${api.title} gave no complete answer to ${where} (${redact(failure.message)}) after the request was sent: it may have been applied — check before retrying (read or list what it would have created or changed), or a retry may apply it twice.`,
    );
  if (failure.kind === 'timeout') {
    return errorText(
      `${api.title} gave no complete answer to ${where} in time (${failure.message}). Try again later, or ask for less data (filters, smaller pages).`,
    );
  }
  if (failure.kind === 'cancelled') return errorText(`The call to ${where} was cancelled.`);
  return errorText(
    `${api.title} could not be reached for ${where} (${redact(failure.message)}). Check that the API is up and that the base URL (${api.envPrefix}_BASE_URL) is right, then try again.`,
  );
}

/** A redirect the server does not follow: it leaves the API's base URL, where its credentials must not go. */
export function redirectResult(response: UpstreamResponse, context: ErrorContext): CallToolResult {
  const where = `${context.route.method.toUpperCase()} ${context.route.path}`;
  return errorText(
    `${api.title} answered ${response.status} to ${where}, redirecting to ${response.redirectedTo ?? 'another address'}, outside the API's base URL: this server does not follow it (its credentials and the request body would go along). Nothing more was sent.`,
  );
}

/** Argument names that identify something: `id`, `firm_id`, `tenantId`, `slug`, `key`, `code`, `uuid` … */
const IDENTIFIER =
  /(^|_|-)(id|ids|key|slug|code|uuid|guid|sid|number|name)$|[a-z](Id|Ids|Key|Slug|Code|Uuid|Guid|Sid|Number|Name)$/;

/** Which arguments a 404 may be about: the ones the API's answer names first, else every identifier of the call. */
function notFoundSuspects(identifiers: string[], blamed: string[]): string {
  const named = blamed.filter((name) => identifiers.includes(name));
  if (named.length > 0) return `the API points at ${named.join(', ')}; check its value`;
  if (identifiers.length === 0) return 'check the identifiers the call sends';
  if (identifiers.length === 1) return `check ${identifiers[0] as string}`;
  return `one of ${identifiers.join(', ')} names nothing the API knows (or nothing these credentials may see); check each`;
}

function advice(response: UpstreamResponse, context: ErrorContext, blamed: string[]): string {
  // What names the thing acted on: every path argument, and the query or header arguments named like an identifier
  // (a firm or tenant sent as a header is as likely to be wrong as an id in the path).
  const identifiers = context.route.arguments
    .filter(
      (argument) =>
        argument.in === 'path' ||
        ((argument.in === 'query' || argument.in === 'header') && IDENTIFIER.test(argument.arg)),
    )
    .map((argument) => argument.arg);
  const lister = context.siblings.find((name) => /(^|_)(list|search|find|get_all|query)/.test(name));
  switch (response.status) {
    case 400:
    case 422:
      return blamed.length > 0
        ? 'Fix those arguments and call again.'
        : 'Check the arguments against the tool schema and call again.';
    case 401:
      if (context.caller && sentUserToken(context.route)) {
        context.caller.refused();
        return context.caller.signInAgain;
      }
      return `The API did not accept the server's credentials. ${credentialHint(context.route)}`;
    case 403:
      return 'The credentials lack permission for this action or this resource; do not retry the same call.';
    case 404:
      return `Nothing exists there: ${notFoundSuspects(identifiers, blamed)}${lister ? `; find the right value by listing with action ${lister} first` : ''}.`;
    case 405:
      return 'The API does not allow this action on that resource.';
    case 409:
      return 'The resource changed or already exists: read its current state, then retry with matching values.';
    case 412:
      return 'A precondition failed: read the resource again and retry with its current version.';
    case 413:
      return 'The request is too large for the API: send less data.';
    case 415:
      return 'The API refused the request body format.';
    case 429: {
      const retry = response.headers.get('retry-after');
      return `The API is rate limiting: wait ${retry ? `${retry} seconds` : 'a while'} before calling again.`;
    }
    default:
      return response.status >= 500
        ? 'The API failed on its side: try again later.'
        : 'Check the arguments and try again.';
  }
}

/** Whether a per-user call of this route carried the user's token (see applyCredentials). */
function sentUserToken(route: ActionRoute): boolean {
  if (route.sharedCredentials) return false;
  const scheme = api.userAuth?.scheme;
  return scheme === undefined || route.security.some((requirement) => requirement.includes(scheme));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The API's own message from common error shapes (RFC 9457 problem details, `{error: {message}}`, arrays). */
function apiMessage(value: unknown, depth = 0): string {
  if (depth > 3 || value === null || value === undefined) return '';
  if (typeof value === 'string') return cut(value, 500);
  if (Array.isArray(value))
    return value
      .slice(0, 3)
      .map((item) => apiMessage(item, depth + 1))
      .filter(Boolean)
      .join('; ');
  if (typeof value !== 'object') return String(value);
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const field of MESSAGE_FIELDS) {
    const item = record[field];
    if (typeof item === 'string' && item.trim()) parts.push(item.trim());
    else if (item && typeof item === 'object') parts.push(apiMessage(item, depth + 1));
    if (parts.join(' ').length > 300) break;
  }
  for (const list of ['errors', 'invalid_params', 'violations', 'details']) {
    if (Array.isArray(record[list])) parts.push(apiMessage(record[list], depth + 1));
  }
  return cut([...new Set(parts.filter(Boolean))].join(' — '), 600);
}

/** Tool arguments the error body names, by their API name or their tool key. */
function blamedArguments(body: unknown, route: ActionRoute): string[] {
  const names = new Set<string>();
  const visit = (value: unknown, depth: number) => {
    if (depth > 5 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.slice(0, 50).forEach((item) => visit(item, depth + 1));
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (FIELD_KEYS.includes(key) && (typeof item === 'string' || Array.isArray(item))) {
        for (const part of (Array.isArray(item) ? item : [item]).map(String)) {
          // Whole (a name can hold a dot: AEM's `json.maximumresults`) and split into a path's parts (`pets.0.name`).
          names.add(part.trim().replace(/^[/#]+/, ''));
          for (const token of part.split(/[/.[\]\s'"]+/)) if (token) names.add(token);
        }
      }
      visit(item, depth + 1);
    }
  };
  visit(body, 0);
  if (typeof body === 'string') for (const token of body.split(/[^A-Za-z0-9_.-]+/)) if (token) names.add(token);
  return route.arguments
    .filter((argument) => names.has(argument.arg) || ('name' in argument && names.has(argument.name)))
    .map((argument) => argument.arg);
}
