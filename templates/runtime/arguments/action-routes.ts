// Numbers the actions for their argument checks: a validator is found by its action's position, whether compiled on
// demand (compile-arguments.ts) or built with the project (scripts/argument-validators.mjs, for Workers). Kept out of
// check-arguments.ts, which loads the compiler on a first call: the compiler reads the numbering here instead of
// importing check-arguments.ts back.

import type { ValidateFunction } from 'ajv/dist/2020.js';
import { routedTools } from '../../tools/routed.js';
import type { ActionRoute } from '../core/types.js';

/** The validator of the action at a position of `actionRoutes()`, if it has rules to check. */
export type ArgumentValidators = (position: number) => ValidateFunction | undefined;

/**
 * Every action's route, tool by tool in the order of src/tools/routed.ts and action by action in each tool's order:
 * a validator's position. The generator numbers src/argument-validators.js the same way.
 */
export function actionRoutes(): ActionRoute[] {
  return routedTools.flatMap((tool) => Object.values(tool.actions));
}
