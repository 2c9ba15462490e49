// The concise view of list results (`response_format: "concise"`, the default where a tool offers it): each item of
// the lists the description names keeps only the fields that identify and summarise it. Lists are where results
// grow; a model usually scans them to pick an item, then reads that item in full.

import type { ConciseView } from '../core/types.js';

export type ConciseResult = { value: unknown; note?: string };

export function conciseValue(value: unknown, view: ConciseView): ConciseResult {
  let dropped = 0;
  const kept = new Set<string>();
  const shrink = (items: unknown[], keep: string[]): unknown[] =>
    items.map((item) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
      const record = item as Record<string, unknown>;
      const present = keep.filter((field) => Object.hasOwn(record, field));
      // An item with none of the fields (the API drifted) is kept whole rather than emptied.
      if (present.length === 0) return item;
      const out: Record<string, unknown> = {};
      for (const field of present) {
        Object.defineProperty(out, field, {
          value: record[field],
          enumerable: true,
          writable: true,
          configurable: true,
        });
        kept.add(field);
      }
      dropped += Object.keys(record).length - present.length;
      return out;
    });
  let result = value;
  for (const list of view.lists) {
    if (list.field === undefined) {
      if (Array.isArray(result)) result = shrink(result, list.keep);
    } else if (result !== null && typeof result === 'object' && !Array.isArray(result)) {
      const record = result as Record<string, unknown>;
      const items = Object.hasOwn(record, list.field) ? record[list.field] : undefined;
      if (Array.isArray(items)) result = { ...record, [list.field]: shrink(items, list.keep) };
    }
  }
  if (dropped === 0) return { value };
  return {
    value: result,
    note: `Concise view: list items show only ${[...kept].join(', ')}. Call again with response_format "detailed" for every field.`,
  };
}
