/** JSON values as every stage handles them, and the few safe ways to read and write them. */

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A whole number from zero up, as stored JSON (a cache file) holds counts, lengths and offsets. */
export function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

export function isTextList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * Sets `object[key]` as an own data property. Plain assignment with a key such as `__proto__` taken from a
 * description would replace the object's prototype instead of adding a property. `__proto__` is the only accessor
 * on Object.prototype, so every other key is assigned: the same property, and an order of magnitude faster than
 * defineProperty (which also leaves V8 objects in slow dictionary mode).
 */
export function setOwn<T>(object: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

/**
 * A JSON value as text, for messages and for values that must be strings. `String(value)` would call an object's own
 * `toString`, which a description can set to anything (`{"toString": "x"}` makes `String` throw).
 */
export function textOf(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
