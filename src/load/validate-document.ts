import { createRequire } from 'node:module';
import { Diagnostics, type Diagnostic } from '../diagnostics/diagnostic.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../kernel/json.js';

/** One of Ajv's errors, as much of it as a diagnostic tells. */
export type SchemaError = { instancePath: string; message?: string; params?: Record<string, unknown> };

/**
 * What checking a document against its OpenAPI schema found: Ajv's errors in Ajv's order, or, rarely, a failure
 * that came without any (swagger-parser's own validator refusing a document for its own reasons).
 */
export type SchemaCheck = { errors: SchemaError[]; failure?: string };

type SchemaValidator = (api: JsonObject) => void;
type Validate = ((data: unknown, context?: { instancePath: string }) => boolean) & { errors?: SchemaError[] | null };
/** The validators compiled at build time (scripts/build-validators.mjs): Ajv's standalone output. */
type CompiledValidators = { document: Validate; pathItem: Validate };

const require = createRequire(import.meta.url);
let fallback: SchemaValidator | undefined;
const compiled = new Map<string, CompiledValidators | null>();

/** The schema swagger-parser would choose for this document. */
function schemaName(root: JsonObject): string | undefined {
  if (root['swagger']) return 'openapi-2.0';
  const version = root['openapi'];
  // Anything else (a number, say) goes to swagger-parser itself, which reports it its own way.
  if (typeof version !== 'string') return undefined;
  return version.startsWith('3.1') ? 'openapi-3.1' : 'openapi-3.0';
}

function compiledValidators(root: JsonObject): CompiledValidators | null {
  const name = schemaName(root);
  if (!name) return null;
  if (!compiled.has(name)) {
    try {
      compiled.set(name, require(`./validators/${name}.cjs`) as CompiledValidators);
    } catch {
      compiled.set(name, null);
    }
  }
  return compiled.get(name) ?? null;
}

/** Only what a diagnostic tells: what the check keeps (a watch, from save to save) and posts across threads. */
function kept(errors: readonly SchemaError[]): SchemaError[] {
  return errors.map(({ instancePath, message, params }) => ({
    instancePath,
    ...(message === undefined ? {} : { message }),
    ...(params === undefined ? {} : { params }),
  }));
}

/**
 * swagger-parser's schema validation: the same schemas and Ajv options, precompiled at build time when the module
 * is there (compiling them costs more than validating most descriptions), else swagger-parser's own validator.
 * Run on the document as written, `$ref`s kept, which is faster and points at the right place.
 */
export function checkDocument(root: JsonObject): SchemaCheck {
  const validators = compiledValidators(root);
  try {
    if (validators) return { errors: validators.document(root) ? [] : kept(validators.document.errors ?? []) };
    fallback ??= require('@apidevtools/swagger-parser/lib/validators/schema.js') as SchemaValidator;
    fallback(root);
    return { errors: [] };
  } catch (error) {
    // Ajv's own code can throw on odd data: its deep equality (uniqueItems) calls an object's `toString` key.
    const details = (error as { details?: SchemaError[] }).details ?? [];
    return details.length > 0 ? { errors: kept(details) } : { errors: [], failure: (error as Error).message };
  }
}

/**
 * Ajv's errors for one value of `paths` in `root`, as the whole document's validation reports them (their instance
 * paths start at the root), or undefined without a compiled validator or when it throws. A key that is not a path
 * (an extension, a mistake) gets none: the document's schema does not check its value, and the key itself is
 * `paths`' error.
 */
export function checkPathItem(root: JsonObject, key: string): SchemaError[] | undefined {
  const validators = compiledValidators(root);
  const paths = root['paths'];
  if (!validators || !isJsonObject(paths)) return undefined;
  if (!key.startsWith('/')) return [];
  const item: JsonValue | undefined = paths[key];
  const instancePath = `/paths/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  try {
    return validators.pathItem(item, { instancePath }) ? [] : kept(validators.pathItem.errors ?? []);
  } catch {
    // The whole document's check reports what made the validator throw.
    return undefined;
  }
}

/** Reported individually; the rest are summarised so a broken vendor file does not bury the output. */
const MAX_REPORTED = 8;

/**
 * Reports a check's errors as warnings: real descriptions often break the schema in ways that do not stop
 * generation.
 */
export function reportSchemaCheck(check: SchemaCheck, diagnostics: Diagnostics): void {
  if (check.failure !== undefined) {
    // The validator says where only through its errors; a failure without any stands for the whole document.
    diagnostics.warn('OTM_VALIDATION', `Schema validation failed: ${check.failure}`, {
      pointer: '#',
      hint: 'Generation went on without the schema check; run a linter such as `npx @redocly/cli lint` to check the description.',
    });
    return;
  }
  const seen = new Set<string>();
  const unique = check.errors.filter((error) => {
    const key = `${error.instancePath} ${error.message ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  for (const error of unique.slice(0, MAX_REPORTED)) {
    diagnostics.warn('OTM_VALIDATION', `Schema validation: ${describe(error)}.`, { pointer: `#${error.instancePath}` });
  }
  if (unique.length > MAX_REPORTED) {
    diagnostics.warn('OTM_VALIDATION', `Schema validation found ${unique.length - MAX_REPORTED} more problems of the same kind.`, {
      hint: 'Run a linter such as `npx @redocly/cli lint` for the full list.',
    });
  }
}

/** The warnings a check reports, on their own (for a check that answers later). */
export function schemaCheckDiagnostics(check: SchemaCheck): Diagnostic[] {
  const local = new Diagnostics();
  reportSchemaCheck(check, local);
  return local.items;
}

/** Checks the document against the official OpenAPI JSON Schemas and reports what it found. */
export function validateDocument(root: JsonObject, diagnostics: Diagnostics): void {
  reportSchemaCheck(checkDocument(root), diagnostics);
}

function describe(error: SchemaError): string {
  const params = error.params ?? {};
  const extra = params['additionalProperty'] ?? params['unevaluatedProperty'];
  return extra ? `${error.message} (${String(extra)})` : (error.message ?? 'invalid value');
}
