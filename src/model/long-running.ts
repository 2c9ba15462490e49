import type { JsonObject } from '../kernel/json.js';
import type { ResponseModel } from './api-model.js';

/**
 * Whether an operation may answer before its work is done: it describes a `202 Accepted` answer, or Azure's
 * `x-ms-long-running-operation: true` marks it. Such an action's tool offers the status follow-up
 * (`plan/describe/operation-status.ts`).
 */
export function isLongRunning(operation: JsonObject, responses: ResponseModel[]): boolean {
  return operation['x-ms-long-running-operation'] === true || responses.some((response) => response.status === '202');
}
