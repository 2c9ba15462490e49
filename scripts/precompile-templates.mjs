#!/usr/bin/env node
// Part of `npm run build`: compiles the scaffold templates (templates/**/*.hbs) into dist/emit/templates.compiled.cjs,
// so that a generation loads Handlebars' runtime only, not its parser and compiler, and compiles no template. Same
// Handlebars, same options as src/emit/templates.ts (imported from tsc's output, which this step follows); each
// template's spec is stored with the hash of the text it was compiled from, and a template whose text no longer
// matches is compiled at run time as before.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEMPLATE_OPTIONS, templateHash } from '../dist/emit/templates.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const templates = path.join(root, 'templates');
const out = path.join(root, 'dist/emit/templates.compiled.cjs');
const handlebars = createRequire(import.meta.url)('handlebars');

/** Template paths relative to templates/, with forward slashes, as src/emit/templates.ts names them. */
function templateFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return templateFiles(full);
    return entry.name.endsWith('.hbs') ? [path.relative(templates, full).split(path.sep).join('/')] : [];
  });
}

const names = templateFiles(templates).sort();
const entries = names.map((name) => {
  const text = readFileSync(path.join(templates, name), 'utf8');
  const spec = handlebars.precompile(text, TEMPLATE_OPTIONS);
  return `  ${JSON.stringify(name)}: {\n    hash: ${JSON.stringify(templateHash(text))},\n    spec: ${spec},\n  },\n`;
});
writeFileSync(
  out,
  `"use strict";\n// Written by scripts/precompile-templates.mjs (npm run build).\nmodule.exports = {\n${entries.join('')}};\n`,
);
console.log(`templates: ${names.length} precompiled → ${path.relative(root, out)}`);
