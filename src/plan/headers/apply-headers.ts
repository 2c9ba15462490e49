import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../../kernel/json.js';
import type { SchemaModel } from '../../model/api-model.js';
import { canonical } from '../arguments/canonical-schema.js';
import type { HeaderDecision } from '../tool-plan.js';
import { resolveRefs } from './resolve-refs.js';
import { MAX_HEADER_INTEGER } from './validate-headers.js';

/**
 * The input schema with the markings written in: `x-mcp-header` on each marked property, its type stated on the
 * property itself (a `$ref` is inlined, since SEP-2243 wants the type visible there) and integers bounded to
 * ±(2^53 − 1), the range a header can carry exactly.
 */
export function applyHeaders(schema: JsonObject, marked: readonly HeaderDecision[], defs: Record<string, SchemaModel>): JsonObject {
  if (marked.length === 0) return schema;
  const properties = isJsonObject(schema['properties']) ? { ...schema['properties'] } : {};
  for (const decision of marked) {
    const current = properties[decision.property];
    if (!isJsonObject(current) || decision.header === undefined) continue;
    const property = inlineReference(current, defs);
    if (property['type'] === 'integer') {
      property['minimum'] = Math.max(
        typeof property['minimum'] === 'number' ? property['minimum'] : -MAX_HEADER_INTEGER,
        -MAX_HEADER_INTEGER,
      );
      property['maximum'] = Math.min(
        typeof property['maximum'] === 'number' ? property['maximum'] : MAX_HEADER_INTEGER,
        MAX_HEADER_INTEGER,
      );
    }
    property['x-mcp-header'] = decision.header;
    setOwn(properties, decision.property, canonical(property));
  }
  return { ...schema, properties };
}

function inlineReference(property: JsonObject, defs: Record<string, SchemaModel>): JsonObject {
  if (typeof property['$ref'] !== 'string') return { ...property };
  const resolved = resolveRefs(property, defs);
  const out: JsonObject = {};
  for (const [keyword, value] of Object.entries(isJsonObject(resolved) ? resolved : {}))
    if (keyword !== 'title' && keyword !== '$ref') setOwn(out, keyword, value as JsonValue);
  // The referring schema's description is about this parameter; the referenced one is the fallback.
  if (typeof property['description'] === 'string') out['description'] = property['description'];
  return out;
}
