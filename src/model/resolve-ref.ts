import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { resolvePointer } from '../diagnostics/json-pointer.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../kernel/json.js';

export type Resolved = { node: JsonObject; pointer: string };

/**
 * Follows `$ref`s of non-schema objects (parameters, request bodies, responses, path items) to the object they
 * name. Reports dangling and looping chains at the referring place and returns undefined for them.
 */
export function resolveObject(
  root: JsonObject,
  node: JsonValue | undefined,
  pointer: string,
  diagnostics: Diagnostics,
): Resolved | undefined {
  let seen: Set<string> | undefined;
  let current: JsonValue | undefined = node;
  let currentPointer = pointer;
  while (isJsonObject(current) && typeof current['$ref'] === 'string') {
    const ref: string = current['$ref'];
    if (!ref.startsWith('#')) {
      diagnostics.error('OTM_REF_UNRESOLVED', `The $ref ${ref} points outside the bundled description.`, { pointer: currentPointer });
      return undefined;
    }
    seen ??= new Set();
    if (seen.has(ref)) {
      diagnostics.error('OTM_REF_LOOP', `The $ref chain from ${pointer} loops back to ${ref}.`, {
        pointer,
        hint: 'Point one of the references at the object itself.',
      });
      return undefined;
    }
    seen.add(ref);
    const target = targetOf(root, ref);
    if (target === undefined) {
      diagnostics.error('OTM_REF_UNRESOLVED', `The $ref ${ref} points at nothing.`, {
        pointer: currentPointer,
        hint: 'Add the missing component or correct the reference.',
      });
      return undefined;
    }
    current = target;
    currentPointer = ref;
  }
  if (!isJsonObject(current)) {
    diagnostics.warn('OTM_INVALID_OBJECT', 'Expected an object here; it was skipped.', { pointer: currentPointer });
    return undefined;
  }
  return { node: current, pointer: currentPointer };
}

/**
 * What a `$ref` points at, once per reference: the operations of a large description refer to the same few components
 * again and again (Microsoft Graph: 22,844 responses refer to `#/components/responses/error`). The document is not
 * changed while the model is built from it.
 */
function targetOf(root: JsonObject, ref: string): JsonValue | undefined {
  let byRef = targets.get(root);
  if (!byRef) targets.set(root, (byRef = new Map()));
  if (byRef.has(ref)) return byRef.get(ref);
  const target = resolvePointer(root, ref) as JsonValue | undefined;
  byRef.set(ref, target);
  return target;
}

const targets = new WeakMap<JsonObject, Map<string, JsonValue | undefined>>();

export function stringOf(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
