import { isJsonObject } from '../../kernel/json.js';
import type { SchemaModel } from '../../model/api-model.js';

/** A schema with its `$ref` chain followed (bounded), sibling keywords of the referring schema kept. */
export function resolveRefs(schema: SchemaModel, defs: Record<string, SchemaModel>): SchemaModel {
  let current: SchemaModel = schema;
  for (let hops = 0; hops < 8 && isJsonObject(current) && typeof current['$ref'] === 'string'; hops++) {
    const { $ref: ref, ...siblings } = current;
    const target = defs[String(ref).replace('#/$defs/', '')];
    if (!isJsonObject(target)) return target ?? {};
    current = { ...target, ...siblings };
  }
  return current;
}
