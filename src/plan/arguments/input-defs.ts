import type { ApiModel, SchemaModel } from '../../model/api-model.js';
import { inputView } from './schema-views.js';

/**
 * The description's schemas as arguments see them, as own properties whatever their names (`__proto__`). Each view
 * is made on first read: a regeneration that takes most summaries and tools from its cache reads a few of GitHub's
 * nine hundred schemas, and making them all was a tenth of its planning.
 */
export function inputDefs(model: ApiModel): Record<string, SchemaModel> {
  const defs: Record<string, SchemaModel> = {};
  for (const [name, schema] of Object.entries(model.schemas))
    Object.defineProperty(defs, name, {
      get() {
        const value = inputView(schema);
        Object.defineProperty(defs, name, { value, enumerable: true });
        return value;
      },
      enumerable: true,
      configurable: true,
    });
  return defs;
}
