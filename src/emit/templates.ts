import { readFileSync } from 'node:fs';
import { PACKAGE_NAME } from '../version.js';
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

type HandlebarsApi = typeof import('handlebars');

const require = createRequire(import.meta.url);
let instance: HandlebarsApi | undefined;

/** Handlebars with only the escaping helpers, created on the first render (commands that emit nothing skip it). */
function handlebars(): HandlebarsApi {
  if (instance) return instance;
  instance = (require('handlebars') as HandlebarsApi).create();
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

const compiled = new Map<string, HandlebarsTemplateDelegate>();

/**
 * Renders a scaffold template. Strict mode fails on a missing field, nothing is HTML-escaped (these are not HTML
 * files), `generatorPackage` is this package's npm name, and only the helpers above exist: every value from a description goes through `json`, `md`, `comment`
 * or `code`.
 */
export function renderTemplate(relativePath: string, view: object): string {
  let template = compiled.get(relativePath);
  if (!template) {
    template = handlebars().compile(readTemplate(relativePath), {
      strict: true,
      noEscape: true,
      knownHelpersOnly: true,
      knownHelpers: { json: true, md: true, comment: true, code: true },
    });
    compiled.set(relativePath, template);
  }
  // Every template may name the generator's npm package (`npx -p <package> openapi-to-mcp`, links, schema paths).
  return template({ generatorPackage: PACKAGE_NAME, ...view });
}
