import type { SchemaModel } from '../../model/api-model.js';
import { inputView } from './schema-views.js';

/** The description's schemas as arguments see them, as own properties whatever their names (`__proto__`). */
export function inputDefs(schemas: Record<string, SchemaModel>): Record<string, SchemaModel> {
  const defs: Record<string, SchemaModel> = {};
  for (const [name, schema] of Object.entries(schemas)) Object.defineProperty(defs, name, { value: inputView(schema), enumerable: true });
  return defs;
}
