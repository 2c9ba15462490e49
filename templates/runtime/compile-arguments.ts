// Compiles the argument checks with Ajv, each action's on its first call. All of them form one schema document
// (the shared named schemas and every action's rules), so Ajv compiles each named schema once, however many actions
// reference it. The generator builds src/argument-validators.js for Cloudflare Workers from the same document with
// the same options (src/emit/argument-validators.ts): keep the two in step.

import { Ajv2020 } from 'ajv/dist/2020.js';
import { schemaDefs } from '../schemas.js';
import type { ArgumentValidators } from './check-arguments.js';
import { actionRoutes } from './check-arguments.js';
import { FORMATS } from './formats.js';

export const ARGUMENTS_DOCUMENT = 'urn:openapi-to-mcp:arguments';

export function compileOnDemand(): ArgumentValidators {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    // Errors carry the schema that failed: its examples, bounds and properties make the answer to the model.
    verbose: true,
    validateSchema: false,
    // 0.07 is a multiple of 0.01 for the API, not for floating point division.
    multipleOfPrecision: 9,
  });
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  ajv.addSchema({
    $id: ARGUMENTS_DOCUMENT,
    $defs: schemaDefs,
    actions: actionRoutes().map((route) => route.argumentsSchema ?? true),
  });
  return (position) => ajv.getSchema(`${ARGUMENTS_DOCUMENT}#/actions/${position}`);
}
