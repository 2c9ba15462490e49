import type { JsonValue } from '../kernel/json.js';
import { printJsonDocument } from './print/print-value.js';

/**
 * A scaffold file rendered from a template, as it is written: JSON in prettier's layout (the pinned options; the
 * user's .prettierrc never applies), other text with one final newline.
 *
 * JSON is printed from its parsed value by the printer of generated data (`print/`), which gives what prettier gives
 * the rendered text, because the JSON templates hold nothing prettier keeps from a text's own layout: every object
 * breaks after its `{`, no blank lines, no comments, and every value in them is JSON.stringify's text (the `json`
 * helper). Loading prettier's JSON parser and printer for the two files cost every new project 46–85 ms, and their
 * first formats 15–37 ms more (load 7). `test/unit/emit/json-templates.test.ts` formats each JSON template with
 * prettier.
 */
export function finishFile(path: string, content: string): string {
  if (!path.endsWith('.json')) return `${content.replace(/\s+$/, '')}\n`;
  return printJsonDocument(JSON.parse(content) as JsonValue);
}
