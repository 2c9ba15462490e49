// Long-running operations: an action that answers `202 Accepted` (or that the description marks with
// `x-ms-long-running-operation`) with a `Location` (`Operation-Location`, `Azure-AsyncOperation`) under the API's
// base URL gets a note saying how to follow it in the same tool: the same action with `operation_status`, a handle
// to that place (operation-handles.ts). Given the handle back, the tool reads the status there with the caller's
// credentials, as a GET of that action. A place outside the base URL is named, never called.

import type { CheckedCall } from './call-tool.js';
import type { UpstreamResponse } from './http.js';
import { makeHandle, openHandle } from './operation-handles.js';
import { redact } from './redact.js';
import type { Settings } from './settings.js';
import type { ActionRoute, ToolDefinition } from './types.js';

export const OPERATION_STATUS = 'operation_status';
const STATUS_HEADERS = ['operation-location', 'azure-asyncoperation', 'location'];

/** Whether the tool takes `operation_status` (the generator offered it for its long-running actions). */
export function offersStatus(tool: ToolDefinition): boolean {
  const properties = tool.inputSchema['properties'];
  return typeof properties === 'object' && properties !== null && Object.hasOwn(properties, OPERATION_STATUS);
}

/** What an accepted call's result says about following the operation; undefined when there is nothing to follow. */
export function statusFollowUp(
  tool: ToolDefinition,
  action: string,
  route: ActionRoute,
  response: UpstreamResponse,
  base: URL | undefined,
  settings: Settings,
): string | undefined {
  if (response.status !== 202 && !route.longRunning) return undefined;
  const header = STATUS_HEADERS.map((name) => response.headers.get(name)).find(Boolean);
  if (!header)
    return response.status === 202
      ? 'The API accepted the request and works on it in the background; it gave no address for its status.'
      : undefined;
  let target: URL;
  try {
    target = new URL(header, response.url);
  } catch {
    return undefined;
  }
  const place = base ? placeUnder(target, base) : undefined;
  const accepted = `The API accepted the request and works on it in the background${response.status === 202 ? ' (202 Accepted)' : ''}`;
  if (place === undefined)
    return `${accepted}; it reports the status at ${redact(`${target.origin}${target.pathname}`)}, outside the API's base URL, which this server does not call.`;
  // A place that carries a credential would show it: such a status is not offered.
  if (redact(place) !== place || !offersStatus(tool) || !offeredAction(tool, action))
    return `${accepted}; it reports the status at ${redact(place)}.`;
  const handle = makeHandle(settings, tool.name, action, place);
  const retry = response.headers.get('retry-after');
  const wait = retry && /^\d{1,5}$/.test(retry.trim()) ? ` in ${retry.trim()} seconds (the API's Retry-After)` : '';
  // No tool name: on the search surface the same action is called through its call tool.
  return `${accepted}. To see how it goes, call again${wait} with the same action and arguments and ${OPERATION_STATUS}=${JSON.stringify(handle)}: only the status is read, nothing is sent again.`;
}

function offeredAction(tool: ToolDefinition, action: string): boolean {
  return Object.hasOwn(tool.actions, action);
}

/** The path and query of `target` below the base URL (the base's own path left off); undefined outside it. */
function placeUnder(target: URL, base: URL): string | undefined {
  const basePath = base.pathname.replace(/\/+$/, '');
  if (target.origin !== base.origin) return undefined;
  if (target.pathname !== basePath && !target.pathname.startsWith(`${basePath}/`)) return undefined;
  const place = `${target.pathname.slice(basePath.length) || '/'}${target.search}`;
  // Braces would read as path parameters when the request is built again.
  return /[{}#]/.test(place) ? undefined : place;
}

/**
 * A call with `operation_status`: the accepted action's status, read where the handle leads, as a GET with that
 * action's credentials and servers. The handle alone says where: the action's other arguments (which its schema may
 * require again) are not sent.
 */
export function statusCall(tool: ToolDefinition, input: Record<string, unknown>, settings: Settings): CheckedCall {
  const names = Object.keys(tool.actions);
  const multi = names.length > 1 || (names.length === 1 && names[0] !== '');
  const action = multi ? String(input['action'] ?? '') : (names[0] ?? '');
  const route = Object.hasOwn(tool.actions, action) ? tool.actions[action] : undefined;
  const subject = multi ? `Action ${action} of ${tool.name}` : tool.name;
  const longRunning = names.filter((name) => tool.actions[name]?.longRunning);
  if (!route?.longRunning)
    return {
      ok: false,
      problem: `${subject} has no operations to follow: ${OPERATION_STATUS} goes with ${longRunning.map((name) => JSON.stringify(name)).join(', ')}, the action whose call was accepted.`,
    };
  const handle = input[OPERATION_STATUS];
  const place = typeof handle === 'string' ? openHandle(settings, tool.name, action, handle) : undefined;
  if (place === undefined)
    return {
      ok: false,
      problem: `That ${OPERATION_STATUS} is not a handle this server gave for ${subject}: pass it exactly as the accepted call's result wrote it.`,
    };
  return { ok: true, action, multi, args: {}, route: statusRoute(route, place) };
}

/** The action's route, turned into a GET of the status place. */
function statusRoute(route: ActionRoute, place: string): ActionRoute {
  const url = new URL(place, 'http://status.invalid');
  return {
    operationId: `${route.operationId} (status)`,
    method: 'get',
    path: url.pathname,
    fixedQuery: [...url.searchParams],
    arguments: [],
    required: [],
    security: route.security,
    ...(route.servers ? { servers: route.servers } : {}),
    ...(route.sharedCredentials ? { sharedCredentials: true } : {}),
    accepts: [],
    longRunning: true,
  };
}
