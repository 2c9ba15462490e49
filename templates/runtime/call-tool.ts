// Runs one tool call: picks the action, checks its arguments against the description's rules, builds and sends the
// request, maps the answer.

import type { CallToolResult } from '@modelcontextprotocol/server';
import { hooks } from '../custom/hooks.js';
import { breachMessage } from './argument-errors.js';
import { subjectLabel } from './callers.js';
import { checkArguments, sentArguments } from './check-arguments.js';
import { ArgumentError, ConfigurationError, SignInError } from './errors.js';
import { send, UpstreamFailure, type UpstreamResponse } from './http.js';
import { log } from './log.js';
import { redact } from './redact.js';
import { offersStatus, OPERATION_STATUS, statusCall, statusFollowUp } from './operation-status.js';
import { buildRequest } from './request.js';
import { fullAnswerLink } from './result-link.js';
import { errorText, successResult } from './results.js';
import type { Settings } from './settings.js';
import type { ActionRoute, CallContext, ToolDefinition } from './types.js';
import { failureResult, httpErrorResult, redirectResult } from './upstream-errors.js';

const RESPONSE_FORMAT = 'response_format';

export type CheckedCall =
  | {
      ok: true;
      action: string;
      route: ActionRoute;
      multi: boolean;
      /** The arguments as the request sends them (check-arguments.ts, sentArguments). */
      args: Record<string, unknown>;
    }
  | { ok: false; problem: string };

/**
 * Picks the action and checks its arguments before anything is sent: the action exists, its required arguments are
 * there, no argument belongs to another action, and every argument keeps the description's own rules (which the
 * input schema a model sees may leave out). A problem comes back as text that says what to change.
 */
export async function checkCall(tool: ToolDefinition, args: Record<string, unknown>): Promise<CheckedCall> {
  const actionNames = Object.keys(tool.actions);
  // A single-action tool's action has the empty name; a grouped tool keeps its selector even when the per-user
  // modes leave it one action (per-user-tools.ts).
  const multi = actionNames.length > 1 || (actionNames.length === 1 && actionNames[0] !== '');
  const action = multi ? String(args['action'] ?? '') : (actionNames[0] ?? '');
  const route = Object.hasOwn(tool.actions, action) ? tool.actions[action] : undefined;
  if (!route)
    return {
      ok: false,
      problem: `Unknown action ${JSON.stringify(action)} for ${tool.name}. Choose one of: ${actionNames.join(', ')}.`,
    };
  const subject = multi ? `Action ${action} of ${tool.name}` : tool.name;
  const accepted = new Set(route.arguments.map((argument) => argument.arg));
  // `response_format` shapes the result, not the request; a grouped tool offers it for its list actions and the
  // others ignore it.
  if (tool.inputSchema['properties'] && Object.hasOwn(tool.inputSchema['properties'], RESPONSE_FORMAT))
    accepted.add(RESPONSE_FORMAT);
  const missing = route.required.filter((name) => args[name] === undefined || args[name] === null);
  if (missing.length > 0) {
    return {
      ok: false,
      problem: `${subject} needs ${missing.map((name) => `"${name}"`).join(', ')}. Add ${missing.length > 1 ? 'them' : 'it'} and call again.`,
    };
  }
  const foreign = Object.keys(args).filter(
    (name) => name !== 'action' && !accepted.has(name) && args[name] !== undefined,
  );
  if (foreign.length > 0) {
    return {
      ok: false,
      problem: `${multi ? `Action ${action}` : tool.name} does not take ${foreign.map((name) => `"${name}"`).join(', ')}; it takes ${[...accepted].map((name) => `"${name}"`).join(', ') || 'no arguments'}. Remove the others and call again.`,
    };
  }
  const sent = sentArguments(tool, route, args);
  const breaches = await checkArguments(tool, route, sent);
  if (breaches.length > 0) return { ok: false, problem: breachMessage(tool.name, multi ? action : '', breaches) };
  return { ok: true, action, route, multi, args: sent };
}

/** Turns a successful answer into the result; reading a result link wants the whole answer instead. */
export type AnswerOf = (response: UpstreamResponse, route: ActionRoute) => CallToolResult;

export async function callTool(
  tool: ToolDefinition,
  input: Record<string, unknown>,
  settings: Settings,
  signal?: AbortSignal,
  answerOf?: AnswerOf,
): Promise<CallToolResult> {
  // Only what the client sent: an argument named `constructor` must not read Object's constructor when left out.
  const given = Object.assign(Object.create(null) as Record<string, unknown>, input);
  // `operation_status` follows an accepted call of a long-running action (operation-status.ts).
  const checked =
    given[OPERATION_STATUS] !== undefined && offersStatus(tool)
      ? statusCall(tool, given, settings)
      : await checkCall(tool, given);
  if (!checked.ok) return errorText(checked.problem);
  const { action, route, multi, args } = checked;
  const actionNames = Object.keys(tool.actions);
  const context: CallContext = { tool: tool.name, action, operationId: route.operationId, arguments: args };
  const { caller } = settings;
  const errorContext = { toolName: tool.name, actionName: multi ? action : '', route, siblings: actionNames, caller };
  // Per-user modes: log lines name the user, never a token.
  const who = caller ? `user ${subjectLabel(caller.subject)}: ` : '';
  const started = Date.now();
  try {
    const request = await buildRequest(route, args, settings);
    await hooks.beforeRequest?.(request, context);
    const response = await send(request, settings, signal);
    log(
      'debug',
      `${who}${tool.name}${multi ? `/${action}` : ''} ${request.method} ${request.url.pathname} → ${response.status} in ${Date.now() - started} ms`,
    );
    await hooks.afterResponse?.(response, context);
    if (response.status >= 400) return httpErrorResult(response, errorContext);
    if (response.redirectedTo !== undefined) return redirectResult(response, errorContext);
    if (answerOf) return answerOf(response, route);
    const fullAnswer = fullAnswerLink(tool, multi ? action : '', input);
    const followUp = statusFollowUp(tool, multi ? action : '', route, response, request.baseUrl, settings);
    const result = successResult(response, route, {
      ...(fullAnswer ? { fullAnswer } : {}),
      maxResultTokens: settings.maxResultTokens,
      toolName: tool.name,
      actionName: multi ? action : '',
      responseFormat: args[RESPONSE_FORMAT] === 'detailed' ? 'detailed' : 'concise',
    });
    return followUp ? { ...result, content: [...result.content, { type: 'text', text: followUp }] } : result;
  } catch (error) {
    if (error instanceof SignInError) {
      // The identity provider refused this user: over HTTP the answer becomes a 401 that signs them in again.
      caller?.refused();
      return errorText(error.message);
    }
    if (error instanceof ArgumentError) return errorText(error.message);
    if (error instanceof URIError)
      return errorText(
        'An argument holds text that is not valid Unicode (an unpaired surrogate); send well-formed text and call again.',
      );
    if (error instanceof ConfigurationError)
      return errorText(`The server is not configured for this call: ${error.message}`);
    if (error instanceof UpstreamFailure) return failureResult(error, errorContext);
    log(
      'error',
      `${who}${tool.name}${multi ? `/${action}` : ''} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return errorText(
      `The call failed inside the server: ${redact(error instanceof Error ? error.message : String(error))}. This is not caused by the arguments.`,
    );
  }
}
