import { isJsonObject, type JsonObject } from '../../kernel/json.js';

/** The argument a tool with long-running actions takes to check how one of their operations goes. */
export const OPERATION_STATUS = 'operation_status';

/**
 * Adds the optional `operation_status` argument to a tool whose actions (some of them) may answer before their work
 * is done (`202 Accepted` with a `Location`, `x-ms-long-running-operation`). The generated server answers such a call with a status
 * handle (the API's `Location`, signed so that it is the only place it can lead) and, given the handle back with
 * the same action (and arguments, which a single action's schema may require), reads the status there. Unchanged, offering nothing, when the API has an argument of that name.
 */
export function withOperationStatus(
  schema: JsonObject,
  longRunningActions: string[],
  allActions: number,
  detail = 0,
): { schema: JsonObject; offered: boolean } {
  const properties = isJsonObject(schema['properties'] ?? null) ? (schema['properties'] as JsonObject) : {};
  if (longRunningActions.length === 0 || Object.hasOwn(properties, OPERATION_STATUS)) return { schema, offered: false };
  const scope = longRunningActions.length < allActions ? ` For ${longRunningActions.join(', ')}.` : '';
  // The lean detail levels the planner falls back to under a tight budget get a shorter description.
  const description =
    detail <= 3
      ? `The status handle an accepted (still running) call returned: call again with it and the same action and arguments to see how the operation goes; only the status is read.${scope}`
      : 'Status handle of an accepted call.';
  const property: JsonObject = { type: 'string', description };
  return { schema: { ...schema, properties: { ...properties, [OPERATION_STATUS]: property } }, offered: true };
}
