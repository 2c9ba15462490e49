import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PACKAGE_NAME } from '../kernel/version.js';
import { createRequire } from 'node:module';
import { commentText, jsonLiteral, markdownText } from './text-safety.js';

/** The templates folder of this package: the generated project's scaffold and its static runtime modules. */
export const TEMPLATES_URL = new URL('../../templates/', import.meta.url);

const cache = new Map<string, string>();

export function readTemplate(relativePath: string): string {
  let text = cache.get(relativePath);
  if (text === undefined) {
    text = readFileSync(new URL(relativePath, TEMPLATES_URL), 'utf8');
    cache.set(relativePath, text);
  }
  return text;
}

/**
 * How every scaffold template is compiled. Strict mode fails on a missing field, nothing is HTML-escaped (these are
 * not HTML files), and only the helpers below exist: every value from a description goes through `json`, `md`,
 * `comment` or `code`. scripts/precompile-templates.mjs compiles the templates at build time with these options.
 */
export const TEMPLATE_OPTIONS = {
  strict: true,
  noEscape: true,
  knownHelpersOnly: true,
  knownHelpers: { json: true, md: true, comment: true, code: true },
} as const;

/** Identifies a template's text: a template compiled at build time is used only for the text it was compiled from. */
export function templateHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

type HandlebarsApi = typeof import('handlebars');
/** What scripts/precompile-templates.mjs writes for each template: its text's hash and Handlebars' compiled spec. */
type PrecompiledTemplate = { hash: string; spec: TemplateSpecification };

const require = createRequire(import.meta.url);
let runtime: HandlebarsApi | undefined;
let compiler: HandlebarsApi | undefined;
let precompiled: Record<string, PrecompiledTemplate> | null | undefined;

/** An isolated Handlebars environment with only the escaping helpers. */
function withHelpers(instance: HandlebarsApi): HandlebarsApi {
  instance.registerHelper('json', (value: unknown) => jsonLiteral(value, 0));
  instance.registerHelper('md', (value: unknown) => markdownText(String(value ?? '')));
  instance.registerHelper('comment', (value: unknown) => commentText(String(value ?? '')));
  instance.registerHelper(
    'code',
    (value: unknown) =>
      `\`${commentText(String(value ?? ''), 200)
        .replace(/`/g, '')
        .replace(/\|/g, '\\|')}\``,
  );
  return instance;
}

/** The templates compiled at build time, when the build wrote them (not beside the sources the unit tests run). */
function precompiledTemplates(): Record<string, PrecompiledTemplate> | null {
  if (precompiled === undefined) {
    try {
      precompiled = require('./templates.compiled.cjs') as Record<string, PrecompiledTemplate>;
    } catch {
      precompiled = null;
    }
  }
  return precompiled;
}

/**
 * A template's render function. Compiled at build time, it needs only Handlebars' runtime: its parser and compiler
 * cost about 20 ms to load and, over the eleven scaffold templates, about 200 ms to compile, on every generation. A
 * template with no compiled spec, or whose text changed since the build, is compiled here with the same options.
 */
function templateFunction(relativePath: string): HandlebarsTemplateDelegate {
  const text = readTemplate(relativePath);
  const built = precompiledTemplates()?.[relativePath];
  if (built && built.hash === templateHash(text)) {
    runtime ??= withHelpers((require('handlebars/runtime') as HandlebarsApi).create());
    return runtime.template(built.spec);
  }
  compiler ??= withHelpers((require('handlebars') as HandlebarsApi).create());
  return compiler.compile(text, TEMPLATE_OPTIONS);
}

const compiled = new Map<string, HandlebarsTemplateDelegate>();

/** Renders a scaffold template; `generatorPackage` is this package's npm name. */
export function renderTemplate(relativePath: string, view: object): string {
  let template = compiled.get(relativePath);
  if (!template) {
    template = templateFunction(relativePath);
    compiled.set(relativePath, template);
  }
  // Every template may name the generator's npm package (the project README, the configuration schema's path).
  return template({ generatorPackage: PACKAGE_NAME, ...view });
}
