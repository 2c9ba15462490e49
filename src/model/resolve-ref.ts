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
  const seen = new Set<string>();
  let current: JsonValue | undefined = node;
  let currentPointer = pointer;
  while (isJsonObject(current) && typeof current['$ref'] === 'string') {
    const ref: string = current['$ref'];
    if (!ref.startsWith('#')) {
      diagnostics.error('OTM_REF_UNRESOLVED', `The $ref ${ref} points outside the bundled description.`, { pointer: currentPointer });
      return undefined;
    }
    if (seen.has(ref)) {
      diagnostics.error('OTM_REF_LOOP', `The $ref chain from ${pointer} loops back to ${ref}.`, {
        pointer,
        hint: 'Point one of the references at the object itself.',
      });
      return undefined;
    }
    seen.add(ref);
    const target = resolvePointer(root, ref) as JsonValue | undefined;
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

export function stringOf(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
