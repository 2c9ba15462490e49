import { createRequire } from 'node:module';
import type { Diagnostics } from '../diagnostics/diagnostic.js';
import type { JsonObject } from '../kernel/json.js';

type AjvError = { instancePath?: string; message?: string; params?: Record<string, unknown> };
type SchemaValidator = (api: JsonObject) => void;
/** A validator compiled at build time (scripts/build-validators.mjs): Ajv's standalone output. */
type CompiledValidator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

const require = createRequire(import.meta.url);
let fallback: SchemaValidator | undefined;
const compiled = new Map<string, CompiledValidator | null>();

/** The schema swagger-parser would choose for this document. */
function schemaName(root: JsonObject): string | undefined {
  if (root['swagger']) return 'openapi-2.0';
  const version = root['openapi'];
  // Anything else (a number, say) goes to swagger-parser itself, which reports it its own way.
  if (typeof version !== 'string') return undefined;
  return version.startsWith('3.1') ? 'openapi-3.1' : 'openapi-3.0';
}

function compiledValidator(name: string): CompiledValidator | null {
  if (!compiled.has(name)) {
    try {
      compiled.set(name, require(`./validators/${name}.cjs`) as CompiledValidator);
    } catch {
      compiled.set(name, null);
    }
  }
  return compiled.get(name) ?? null;
}

/**
 * swagger-parser's schema validation: the same schemas and Ajv options, precompiled at build time when the module
 * is there (compiling them costs more than validating most descriptions), else swagger-parser's own validator.
 * Throws as swagger-parser does, with Ajv's errors in `details`.
 */
function validateSchema(root: JsonObject): void {
  const name = schemaName(root);
  const validate = name ? compiledValidator(name) : null;
  if (!validate) {
    fallback ??= require('@apidevtools/swagger-parser/lib/validators/schema.js') as SchemaValidator;
    fallback(root);
    return;
  }
  if (!validate(root)) throw Object.assign(new SyntaxError('Swagger schema validation failed.'), { details: validate.errors ?? [] });
}

/** Reported individually; the rest are summarised so a broken vendor file does not bury the output. */
const MAX_REPORTED = 8;

/**
 * Checks the bundled document against the official OpenAPI JSON Schemas (swagger-parser's validator, run on the
 * document as written, `$ref`s kept, which is faster and points at the right place). Failures are warnings:
 * real descriptions often break the schema in ways that do not stop generation.
 */
export function validateDocument(root: JsonObject, diagnostics: Diagnostics): void {
  try {
    validateSchema(root);
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
