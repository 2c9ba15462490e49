import type { JsonObject } from '../kernel/json.js';
import type { ResponseModel } from './api-model.js';

/** Response headers that say where an accepted operation's status is. */
const STATUS_HEADERS = new Set(['location', 'operation-location', 'azure-asyncoperation']);

/**
 * Whether an operation may answer before its work is done and say where its status is: Azure's
 * `x-ms-long-running-operation: true` marks it, or it describes a `202 Accepted` answer with a `Location` (or
 * `Operation-Location`, `Azure-AsyncOperation`) header. Such an action's tool offers the status follow-up
 * (`plan/describe/operation-status.ts`). A bare `202` is not enough: GitHub's 39 (a fork being made, statistics
 * being computed) point nowhere, and an argument no answer can fill would only cost tokens.
 */
export function isLongRunning(operation: JsonObject, responses: ResponseModel[]): boolean {
  return (
    operation['x-ms-long-running-operation'] === true ||
    responses.some((response) => response.status === '202' && response.headers.some((name) => STATUS_HEADERS.has(name.toLowerCase())))
  );
}
