import type { SchemaError } from './validate-document.js';

const PATHS = '/paths/';

/** The `paths` key an error's instance path lies under, or undefined for an error elsewhere (or on `paths` itself). */
function itemKey(instancePath: string): string | undefined {
  if (!instancePath.startsWith(PATHS)) return undefined;
  const end = instancePath.indexOf('/', PATHS.length);
  const segment = instancePath.slice(PATHS.length, end < 0 ? undefined : end);
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * The schema errors of a document whose path item `key` was replaced, from the errors of the document before it
 * (`before`, in Ajv's order), the new item's own errors, and the order of `paths`' keys (the same keys before and
 * after): the errors the whole document's validation would report, in its order. Undefined when that order cannot
 * be told from `before`, and the document is validated whole.
 *
 * Each OpenAPI schema validates `paths`' values one after the other in the order of their keys, with no schema
 * around them that looks at their result (no `oneOf` above a path item, no `unevaluatedProperties` a failed item
 * changes): an item's errors are a run of their own inside one run of every item's errors, and nothing else in the
 * document depends on an item's content. The new item's errors take the old ones' place; where the old item had
 * none, they go after the errors of the items before it, or before those of the items after it. Where no item had
 * errors but something else did, an item that has errors now is the one case whose place among the other errors
 * (before or after them) is not known here.
 */
export function withPathItemErrors(
  before: readonly SchemaError[],
  keys: readonly string[],
  key: string,
  item: readonly SchemaError[],
): SchemaError[] | undefined {
  const order = new Map(keys.map((name, position) => [name, position]));
  const changed = order.get(key);
  if (changed === undefined) return undefined;
  let lastItemError = -1;
  let lastPosition = -1;
  let from = -1;
  let to = -1;
  for (let index = 0; index < before.length; index++) {
    const owner = itemKey((before[index] as SchemaError).instancePath);
    if (owner === undefined) continue;
    const position = order.get(owner);
    // Another document's items, items out of order, or their run broken by other errors: not the order relied on.
    if (position === undefined || position < lastPosition || (lastItemError >= 0 && lastItemError !== index - 1)) return undefined;
    lastItemError = index;
    lastPosition = position;
    if (from < 0 && position >= changed) from = index;
    if (to < 0 && position > changed) to = index;
  }
  // No item had errors: with none now either, nothing moves; else their place among the others is unknown here.
  if (lastItemError < 0) return item.length === 0 ? [...before] : before.length === 0 ? [...item] : undefined;
  if (from < 0) from = lastItemError + 1;
  if (to < 0) to = lastItemError + 1;
  return [...before.slice(0, from), ...item, ...before.slice(to)];
}
