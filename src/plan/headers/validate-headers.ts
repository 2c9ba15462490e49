import type { Diagnostics } from '../../diagnostics/diagnostic.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../kernel/json.js';
import { isHttpToken } from '../../kernel/http-token.js';

/** The largest integer a header value can carry exactly (JSON numbers are IEEE doubles): 2^53 − 1. */
export const MAX_HEADER_INTEGER = Number.MAX_SAFE_INTEGER;

const SCALAR_TYPES = new Set(['string', 'integer', 'boolean']);

/**
 * Keywords whose subschemas are not reached by a pure `properties` chain; an `x-mcp-header` anywhere below them
 * makes the whole tool invalid (the same list the SDK's `scanXMcpHeaderDeclarations` sweeps).
 */
const UNREACHABLE_KEYWORDS = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
];
const MAP_KEYWORDS = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

export type HeaderViolation = { path: string; message: string };

/**
 * Every way the `x-mcp-header` markings of an input schema break SEP-2243 (MCP 2026-07-28, Streamable HTTP,
 * "Custom Headers from Tool Parameters"), which would make conforming clients drop the tool: a marking off a pure
 * `properties` chain or on the root, a value that is not an RFC 9110 token, a duplicate (case-insensitive), a
 * property whose `type` is not exactly string, integer or boolean, a `$ref` on the marked property (its type is
 * not visible there), and an integer not bounded to ±(2^53 − 1). Empty when the schema is sound.
 */
export function headerViolations(inputSchema: JsonObject): HeaderViolation[] {
  const violations: HeaderViolation[] = [];
  const seen = new Map<string, string>();
  const visit = (node: JsonValue | undefined, path: string[], reachable: boolean): void => {
    if (!isJsonObject(node)) return;
    const at = path.length === 0 ? '<root>' : path.join('.');
    if ('x-mcp-header' in node) checkMarking(node, at, reachable && path.length > 0, seen, violations);
    const properties = node['properties'];
    if (isJsonObject(properties)) for (const [key, child] of Object.entries(properties)) visit(child, [...path, key], reachable);
    for (const keyword of UNREACHABLE_KEYWORDS) {
      const sub = node[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub) ? sub : MAP_KEYWORDS.has(keyword) && isJsonObject(sub) ? Object.values(sub) : [sub];
      for (const branch of branches) visit(branch, [...path, `<${keyword}>`], false);
    }
  };
  visit(inputSchema, [], true);
  return violations;
}

function checkMarking(node: JsonObject, at: string, reachable: boolean, seen: Map<string, string>, out: HeaderViolation[]): void {
  const add = (message: string) => out.push({ path: at, message });
  if (!reachable) add('x-mcp-header is only allowed on properties reached by a chain of `properties` keys from the root');
  const value = node['x-mcp-header'];
  if (typeof value !== 'string' || value === '') {
    add('x-mcp-header must be a non-empty string');
    return;
  }
  if (!isHttpToken(value)) add(`x-mcp-header ${JSON.stringify(value)} is not an RFC 9110 token`);
  const prior = seen.get(value.toLowerCase());
  if (prior !== undefined) add(`x-mcp-header ${JSON.stringify(value)} repeats ${JSON.stringify(prior)} (header names ignore case)`);
  else seen.set(value.toLowerCase(), value);
  if ('$ref' in node) add('a property with x-mcp-header must not use $ref: its type must be stated on the property');
  const type = node['type'];
  if (typeof type !== 'string' || !SCALAR_TYPES.has(type)) {
    add(`x-mcp-header needs type string, integer or boolean, not ${JSON.stringify(type ?? null)}`);
    return;
  }
  if (type === 'integer') {
    const minimum = lowerBound(node);
    const maximum = upperBound(node);
    if (minimum === undefined || minimum < -MAX_HEADER_INTEGER || maximum === undefined || maximum > MAX_HEADER_INTEGER)
      add('an integer with x-mcp-header must be bounded to ±(2^53 − 1) by minimum and maximum');
  }
}

function lowerBound(node: JsonObject): number | undefined {
  const bounds = [node['minimum'], node['exclusiveMinimum']].filter((value): value is number => typeof value === 'number');
  return bounds.length > 0 ? Math.max(...bounds) : undefined;
}

function upperBound(node: JsonObject): number | undefined {
  const bounds = [node['maximum'], node['exclusiveMaximum']].filter((value): value is number => typeof value === 'number');
  return bounds.length > 0 ? Math.min(...bounds) : undefined;
}

/**
 * The last gate before anything is written: every marking of every tool is checked against SEP-2243 as the SDK
 * and conforming clients check it. A violation here is a generator bug or a marking no rule caught; either way a
 * client would silently drop the tool, so generation fails instead.
 */
export function checkHeaderMarkings(tools: ReadonlyArray<{ name: string; inputSchema: JsonObject }>, diagnostics: Diagnostics): void {
  for (const tool of tools) {
    for (const violation of headerViolations(tool.inputSchema)) {
      diagnostics.error('OTM_HEADER_INVALID', `Tool ${tool.name}, property ${violation.path}: ${violation.message}.`, {
        hint: 'Conforming Streamable HTTP clients drop a tool with an invalid x-mcp-header; remove the marking (configuration headers.remove).',
      });
    }
  }
}
