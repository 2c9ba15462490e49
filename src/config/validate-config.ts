import { closestName } from '../diagnostics/did-you-mean.js';
import type { ConfigSchemaNode } from './config-schema.js';

/** One problem in a configuration value: where (as pointer tokens), what, and what to do. */
export type ConfigIssue = { path: Array<string | number>; message: string; hint?: string };

/**
 * Checks a value against the configuration schema. Only the keywords the schema uses are implemented (types,
 * properties, additionalProperties, required, items, enum, minimum, maximum, exclusiveMinimum, minLength, pattern), so a
 * message can name the key and the fix in plain words instead of echoing a generic validator's wording.
 */
export function validateConfig(value: unknown, schema: ConfigSchemaNode, path: Array<string | number> = []): ConfigIssue[] {
  const typeIssue = checkType(value, schema, path);
  if (typeIssue) return [typeIssue];
  const issues: ConfigIssue[] = [];
  const name = displayPath(path);
  if (typeof value === 'string') {
    if (schema.enum && !schema.enum.includes(value)) {
      // Methods are listed in both cases so that either is accepted; suggest and show the lower-case spelling.
      const close = closestName(
        value,
        schema.enum.filter((item) => item === item.toLowerCase()),
      );
      issues.push({
        path,
        message: `${name} must be one of ${schema.enum.filter((item) => item === item.toLowerCase()).join(', ')}, not ${JSON.stringify(value)}.`,
        ...(close ? { hint: `Did you mean ${JSON.stringify(close)}?` } : {}),
      });
    }
    if (schema.minLength !== undefined && value.length < schema.minLength) issues.push({ path, message: `${name} must not be empty.` });
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value))
      issues.push({ path, message: `${name} must match ${schema.pattern}, not ${JSON.stringify(value)}.` });
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum)
      issues.push({ path, message: `${name} must be at least ${schema.minimum}, not ${value}.` });
    if (schema.maximum !== undefined && value > schema.maximum)
      issues.push({ path, message: `${name} must be at most ${schema.maximum}, not ${value}.` });
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum)
      issues.push({ path, message: `${name} must be more than ${schema.exclusiveMinimum}, not ${value}.` });
  }
  if (Array.isArray(value) && schema.items) {
    const items = schema.items;
    value.forEach((item, index) => issues.push(...validateConfig(item, items, [...path, index])));
  }
  if (isObject(value)) issues.push(...checkObject(value, schema, path));
  return issues;
}

function checkObject(value: Record<string, unknown>, schema: ConfigSchemaNode, path: Array<string | number>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const known = Object.keys(schema.properties ?? {});
  for (const key of schema.required ?? [])
    if (!(key in value)) issues.push({ path, message: `${displayPath(path)} needs ${JSON.stringify(key)}.` });
  for (const [key, child] of Object.entries(value)) {
    const property = schema.properties?.[key];
    if (property) issues.push(...validateConfig(child, property, [...path, key]));
    else if (typeof schema.additionalProperties === 'object')
      issues.push(...validateConfig(child, schema.additionalProperties, [...path, key]));
    else if (schema.additionalProperties === false) {
      const close = closestName(key, known);
      issues.push({
        path: [...path, key],
        message: `${displayPath([...path, key])} is not a configuration option.`,
        hint: close ? `Did you mean ${JSON.stringify(close)}?` : `Known here: ${known.join(', ')}.`,
      });
    }
  }
  return issues;
}

function checkType(value: unknown, schema: ConfigSchemaNode, path: Array<string | number>): ConfigIssue | undefined {
  if (schema.type === undefined) return undefined;
  const ok =
    schema.type === 'object'
      ? isObject(value)
      : schema.type === 'array'
        ? Array.isArray(value)
        : schema.type === 'integer'
          ? Number.isInteger(value)
          : schema.type === 'number'
            ? typeof value === 'number' && Number.isFinite(value)
            : typeof value === schema.type;
  if (ok) return undefined;
  const wanted = {
    object: 'an object',
    array: 'a list',
    string: 'a string',
    number: 'a number',
    integer: 'a whole number',
    boolean: 'true or false',
  }[schema.type];
  // yargs turns `--max-tools abc` into NaN: there is no original text to quote.
  if (typeof value === 'number' && Number.isNaN(value)) return { path, message: `${displayPath(path)} must be ${wanted}.` };
  return { path, message: `${displayPath(path)} must be ${wanted}, not ${describe(value)}.` };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return JSON.stringify(value) ?? String(value);
}

/** `include.tags[2]`, or `the configuration` for the root. */
export function displayPath(path: Array<string | number>): string {
  if (path.length === 0) return 'The configuration';
  return path.map((token, index) => (typeof token === 'number' ? `[${token}]` : index === 0 ? token : `.${token}`)).join('');
}
