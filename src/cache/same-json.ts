/**
 * Whether `JSON.stringify(a) === JSON.stringify(b)`, decided by walking both values side by side instead of printing
 * them: a watch compares this run's description and operations with the run before's, where most of it is equal and
 * much of the model is the very same objects (replayed path items), so a walk that stops at shared objects and at the
 * first difference costs a fraction of printing and hashing both.
 *
 * It answers true only where the texts are equal. Where JSON.stringify does something a walk would have to imitate
 * (`toJSON`, numbers that print as `null`, values it leaves out of arrays) it answers false, and the caller does the
 * full work.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== 'bigint' && (typeof a !== 'number' || Number.isFinite(a));
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (hasToJson(a) || hasToJson(b)) return false;
  if (Array.isArray(a)) return Array.isArray(b) && sameArray(a, b);
  return !Array.isArray(b) && sameObject(a as Record<string, unknown>, b as Record<string, unknown>);
}

function sameArray(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) {
    const value = a[index];
    // JSON.stringify prints these as `null` in an array: equal texts, different values.
    if (!printable(value)) return false;
    if (!sameJson(value, b[index])) return false;
  }
  return true;
}

/** Own enumerable string keys in order, as JSON.stringify prints them, leaving out the values it leaves out. */
function sameObject(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  let bIndex = 0;
  for (const key of aKeys) {
    const value = a[key];
    if (!printable(value)) continue;
    while (bIndex < bKeys.length && !printable(b[bKeys[bIndex] as string])) bIndex++;
    if (bKeys[bIndex] !== key) return false;
    if (!sameJson(value, b[key])) return false;
    bIndex++;
  }
  while (bIndex < bKeys.length && !printable(b[bKeys[bIndex] as string])) bIndex++;
  return bIndex === bKeys.length;
}

/** Whether JSON.stringify prints a property with this value (it leaves out undefined, functions and symbols). */
function printable(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
