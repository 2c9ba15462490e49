import { createRequire } from 'node:module';
import type { JsonValue } from '../load/openapi-document.js';
import { CHECKED_FORMATS } from '../plan/validation-view.js';
import type { ToolPlan } from '../plan/tool-plan.js';
import { GENERATED_HEADER } from './source-files.js';

type AjvModule = typeof import('ajv/dist/2020.js');
type StandaloneCode = typeof import('ajv/dist/standalone/index.js').default;

const require = createRequire(import.meta.url);

/** Same name and options as the generated server's compile-arguments.ts, so both validate alike. */
const ARGUMENTS_DOCUMENT = 'urn:openapi-to-mcp:arguments';

/**
 * `src/argument-validators.js` for `--target workers`: every action's argument checks as Ajv standalone code. A
 * Worker may generate code only while it starts, and must start within a second; compiling the checks there took
 * 0.9 s (Box) to 2.2 s (GitHub) of CPU, loading this module takes a tenth of that. The module is built from the same
 * document as the server compiles in Node (the named schemas as `$defs`, the actions' rules in `actions`, numbered
 * as `actionRoutes()` numbers them: tool by tool in file order, action by action), with the same options, and its
 * formats come from the server's runtime/formats.ts. Ajv writes every value from the description into the code as
 * an escaped literal. Machine-written and long, it is not laid out for reading.
 */
export function argumentValidatorsSource(plan: ToolPlan): {
  path: string;
  content: string;
  declaration: { path: string; content: string };
} {
  const { Ajv2020, _ } = require('ajv/dist/2020.js') as AjvModule;
  const standaloneCode = require('ajv/dist/standalone/index.js') as StandaloneCode;
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    verbose: true,
    validateSchema: false,
    multipleOfPrecision: 9,
    code: { source: true, esm: true, formats: _`FORMATS` },
  });
  for (const [name, type] of CHECKED_FORMATS) ajv.addFormat(name, { type, validate: () => true } as never);
  const rules = plan.tools.flatMap((tool) => tool.actions.map((action) => action.argumentsSchema));
  ajv.addSchema({
    $id: ARGUMENTS_DOCUMENT,
    $defs: plan.argumentDefs as Record<string, JsonValue>,
    actions: rules.map((rule) => rule ?? true),
  });
  const exported: Record<string, string> = {};
  rules.forEach((rule, position) => {
    if (rule) exported[`validate_action_${position}`] = `${ARGUMENTS_DOCUMENT}#/actions/${position}`;
  });
  const names = Object.keys(exported);
  for (const name of names) ajv.getSchema(exported[name] as string);
  const code = names.length > 0 ? standaloneCode(ajv, exported) : '';
  // Ajv's ESM output still `require`s its runtime helpers (string length, deep equality): imported instead.
  const helpers = new Map<string, string>();
  const body = code.replace(/^"use strict";/, '').replace(/require\("ajv\/dist\/runtime\/([a-z0-9_]+)"\)/g, (_match, helper: string) => {
    const local = `ajv_${helper}`;
    helpers.set(local, `ajv/dist/runtime/${helper}.js`);
    return local;
  });
  const list = rules.map((rule, position) => (rule ? `validate_action_${position}` : 'undefined'));
  const content = [
    GENERATED_HEADER,
    '// The argument checks of every action, compiled by Ajv when the project was generated (see runtime/check-arguments.ts).',
    '',
    ...[...helpers].sort().map(([local, module]) => `import * as ${local}_module from '${module}';`),
    "import { FORMATS } from './runtime/formats.js';",
    '',
    // `.default` twice under Node's CommonJS interop (module.exports, then Ajv's export), once under a bundler's.
    ...[...helpers].sort().map(([local]) => `const ${local} = { default: ${local}_module.default?.default ?? ${local}_module.default };`),
    body,
    '',
    `export const argumentValidators = [${list.join(', ')}];`,
    '',
  ].join('\n');
  const declaration = [
    GENERATED_HEADER,
    '',
    "import type { ValidateFunction } from 'ajv/dist/2020.js';",
    '',
    '/** Each action’s argument checks by position (see runtime/check-arguments.ts); undefined where it has none. */',
    'export declare const argumentValidators: ReadonlyArray<ValidateFunction | undefined>;',
    '',
  ].join('\n');
  return { path: 'src/argument-validators.js', content, declaration: { path: 'src/argument-validators.d.ts', content: declaration } };
}
