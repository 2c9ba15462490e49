// Builds dist/argument-validators.js, every action's argument checks as Ajv standalone code, next to the compiled
// Worker (`npm run build:worker`, which wrangler.toml runs before `wrangler dev` and `wrangler deploy`). A Worker may
// generate code only while it starts, and must start within a second: compiling the checks there took 0.9 s (Box) to
// 2.2 s (GitHub) of CPU, loading this code a tenth of that. Like the rest of dist/, it is built, not checked in.

import { writeFileSync } from 'node:fs';
import { _ } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { actionRoutes } from '../dist/runtime/arguments/action-routes.js';
import { actionKey, argumentsAjv } from '../dist/runtime/arguments/compile-arguments.js';

const ajv = argumentsAjv({ source: true, esm: true, formats: _`FORMATS` });
const exported = {};
actionRoutes().forEach((route, position) => {
  if (route.argumentsSchema) exported[`validate_action_${position}`] = actionKey(position);
});
for (const key of Object.values(exported)) ajv.getSchema(key);
const code = Object.keys(exported).length > 0 ? standaloneCode(ajv, exported) : '';
// Ajv's ESM output still `require`s its runtime helpers (string length, deep equality): imported instead.
const helpers = new Set();
const body = code.replace(/^"use strict";/, '').replace(/require\("ajv\/dist\/runtime\/([a-z0-9_]+)"\)/g, (_match, helper) => {
  helpers.add(helper);
  return `ajv_${helper}`;
});
const list = actionRoutes().map((route, position) => (route.argumentsSchema ? `validate_action_${position}` : 'undefined'));
const lines = [
  '// Built by scripts/argument-validators.mjs: rebuild instead of editing.',
  ...[...helpers].sort().map((helper) => `import * as ajv_${helper}_module from 'ajv/dist/runtime/${helper}.js';`),
  "import { FORMATS } from './runtime/arguments/formats.js';",
  // `.default` twice under Node's CommonJS interop (module.exports, then Ajv's export), once under a bundler's.
  ...[...helpers]
    .sort()
    .map((helper) => `const ajv_${helper} = { default: ajv_${helper}_module.default?.default ?? ajv_${helper}_module.default };`),
  body,
  `export const argumentValidators = [${list.join(', ')}];`,
  '',
];
writeFileSync(new URL('../dist/argument-validators.js', import.meta.url), lines.join('\n'));
console.error(`argument checks of ${Object.keys(exported).length} actions written to dist/argument-validators.js`);
