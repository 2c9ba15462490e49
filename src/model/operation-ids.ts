import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { childPointer } from '../diagnostics/json-pointer.js';
import type { HttpMethod } from './api-model.js';

/** `get /products/{product_id}/reviews` → `get_products_product_id_reviews`, for operations without an id. */
export function deriveOperationId(method: HttpMethod, path: string): string {
  const words = path
    .split(/[?#]/)[0]!
    .split('/')
    .map((segment) => segment.replace(/[{}]/g, '').replace(/\.[a-z]+$/i, ''))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return [method, ...words].join('_');
}

/**
 * Makes operation ids unique in a stable way: ids are compared case-insensitively (tools and actions are named
 * from them), and the operation that sorts later by path and method gets a numeric suffix.
 */
export function uniqueOperationIds(
  operations: Array<{ id: string; method: HttpMethod; path: string; pointer: string; derivedId: boolean }>,
  diagnostics: Diagnostics,
): void {
  const taken = new Set<string>();
  for (const operation of operations) {
    const base = operation.id;
    let id = base;
    for (let index = 2; taken.has(id.toLowerCase()); index++) id = `${base}_${index}`;
    if (id !== base && !operation.derivedId) {
      diagnostics.warn('OTM_DUPLICATE_OPERATION_ID', `operationId "${base}" is used more than once; this one became "${id}".`, {
        pointer: childPointer(operation.pointer, 'operationId'),
      });
    }
    operation.id = id;
    taken.add(id.toLowerCase());
  }
}
