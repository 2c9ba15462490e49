// Compiles the argument checks with Ajv, each action's on its first call. All of them form one schema document
// (the shared named schemas and every action's rules), so Ajv compiles each named schema once, however many actions
// reference it. scripts/argument-validators.mjs (with --target workers) builds standalone code from the same
// instance, so both validate alike.

import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import { schemaDefs } from '../../schemas.js';
import { log } from '../core/log.js';
import { actionRoutes, type ArgumentValidators } from './action-routes.js';
import { FORMATS } from './formats.js';

export const ARGUMENTS_DOCUMENT = 'urn:openapi-to-mcp:arguments';

/** The key of the action at a position of `actionRoutes()` in the document. */
export function actionKey(position: number): string {
  return `${ARGUMENTS_DOCUMENT}#/actions/${position}`;
}

/** An Ajv instance holding the document of every action's rules; `code` as Ajv's standalone code needs it. */
export function argumentsAjv(code?: Options['code']): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    // Errors carry the schema that failed: its examples, bounds and properties make the answer to the model.
    verbose: true,
    validateSchema: false,
    // 0.07 is a multiple of 0.01 for the API, not for floating point division.
    multipleOfPrecision: 9,
    ...(code ? { code } : {}),
  });
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  ajv.addSchema({
    $id: ARGUMENTS_DOCUMENT,
    $defs: schemaDefs,
    actions: actionRoutes().map((route) => route.argumentsSchema ?? true),
  });
  return ajv;
}

/**
 * Each action's validator, compiled on its first call. One Ajv cannot compile (a rule it does not support) is
 * skipped with a warning: the call goes to the API, which checks it, rather than never going anywhere.
 */
export function compileOnDemand(): ArgumentValidators {
  const ajv = argumentsAjv();
  const failed = new Set<number>();
  return (position) => {
    if (failed.has(position)) return undefined;
    try {
      return ajv.getSchema(actionKey(position));
    } catch (error) {
      failed.add(position);
      log('warn', `The argument checks of action ${position} could not be compiled and are skipped: ${String(error)}`);
      return undefined;
    }
  };
}
