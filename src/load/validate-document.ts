import { createRequire } from 'node:module';
import type { Diagnostics } from '../diagnostics/diagnostic.js';
import type { JsonObject } from './openapi-document.js';

type AjvError = { instancePath?: string; message?: string; params?: Record<string, unknown> };
type SchemaValidator = (api: JsonObject) => void;

const require = createRequire(import.meta.url);
let validator: SchemaValidator | undefined;

/** Reported individually; the rest are summarised so a broken vendor file does not bury the output. */
const MAX_REPORTED = 8;

/**
 * Checks the bundled document against the official OpenAPI JSON Schemas (swagger-parser's validator, run on the
 * document as written, `$ref`s kept, which is faster and points at the right place). Failures are warnings:
 * real descriptions often break the schema in ways that do not stop generation.
 */
export function validateDocument(root: JsonObject, diagnostics: Diagnostics): void {
  validator ??= require('@apidevtools/swagger-parser/lib/validators/schema.js') as SchemaValidator;
  try {
    validator(root);
  } catch (error) {
    const details = (error as { details?: AjvError[] }).details ?? [];
    const seen = new Set<string>();
    const unique = details.filter((detail) => {
      const key = `${detail.instancePath ?? ''} ${detail.message ?? ''}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    for (const detail of unique.slice(0, MAX_REPORTED)) {
      diagnostics.warn('OTM_VALIDATION', `Schema validation: ${describe(detail)}.`, {
        pointer: `#${detail.instancePath ?? ''}`,
      });
    }
    if (unique.length > MAX_REPORTED) {
      diagnostics.warn('OTM_VALIDATION', `Schema validation found ${unique.length - MAX_REPORTED} more problems of the same kind.`, {
        hint: 'Run a linter such as `npx @redocly/cli lint` for the full list.',
      });
    }
    if (unique.length === 0) diagnostics.warn('OTM_VALIDATION', `Schema validation failed: ${(error as Error).message}`);
  }
}

function describe(detail: AjvError): string {
  const params = detail.params ?? {};
  const extra = params['additionalProperty'] ?? params['unevaluatedProperty'];
  return extra ? `${detail.message} (${String(extra)})` : (detail.message ?? 'invalid value');
}
