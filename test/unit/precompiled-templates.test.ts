import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_DEFAULTS } from '../../src/config/config-schema.js';
import { TEMPLATE_OPTIONS, templateHash } from '../../src/emit/templates.js';
import { REPO_ROOT } from '../helpers/paths.js';

const require = createRequire(import.meta.url);
type HandlebarsApi = typeof import('handlebars');
type Built = Record<string, { hash: string; spec: TemplateSpecification }>;
const file = path.join(REPO_ROOT, 'dist/emit/templates.compiled.cjs');

/** The scaffold templates compiled at build time (scripts/precompile-templates.mjs), which the bin renders with. */
describe('precompiled scaffold templates', () => {
  it('hold every template, compiled from its current text', () => {
    expect(existsSync(file), `${file} is built by npm run build`).toBe(true);
    const built = require(file) as Built;
    for (const [name, { hash }] of Object.entries(built)) {
      expect(hash, `${name} changed since the build`).toBe(templateHash(readFileSync(path.join(REPO_ROOT, 'templates', name), 'utf8')));
    }
    expect(Object.keys(built)).toContain('project/README.md.hbs');
  });

  it("render through Handlebars' runtime what compiling the text renders", () => {
    const built = require(file) as Built;
    const name = 'config/openapi-to-mcp.config.yaml.hbs';
    const text = readFileSync(path.join(REPO_ROOT, 'templates', name), 'utf8');
    const helpers = (instance: HandlebarsApi) => {
      instance.registerHelper('json', (value: unknown) => JSON.stringify(value));
      return instance;
    };
    const runtime = helpers((require('handlebars/runtime') as HandlebarsApi).create());
    const compiler = helpers((require('handlebars') as HandlebarsApi).create());
    const view = { spec: 'openapi.yaml', out: 'server', defaults: CONFIG_DEFAULTS, generatorPackage: 'pkg' };
    const compiled = compiler.compile(text, TEMPLATE_OPTIONS);
    expect(runtime.template(built[name]!.spec)(view)).toBe(compiled(view));
  });
});
