// JSON Schema nodes as the argument checks read them: any object is a schema, and `$ref`s point into the action's
// shared `$defs`.

export type Schema = { [keyword: string]: unknown };
export type Defs = Record<string, unknown>;

export const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Follows `#/$defs/<name>` references into the shared schemas (a bounded number of hops: a loop ends unresolved). */
export function resolve(schema: unknown, defs: Defs): unknown {
  let current = schema;
  for (let hops = 0; hops < 16 && isSchema(current) && typeof current['$ref'] === 'string'; hops++) {
    const name = current['$ref'].replace('#/$defs/', '');
    current = Object.hasOwn(defs, name) ? defs[name] : undefined;
  }
  return current;
}
