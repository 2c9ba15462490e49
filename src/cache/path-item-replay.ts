import type { JsonObject, JsonValue } from '../kernel/json.js';
import type { SecuritySchemeModel } from '../model/api-model.js';
import type { ReachedSchema } from '../model/build-schema.js';
import type { ModelState, ModelStateMark, PathItemBuild, PathItemMemo } from '../model/path-item-memo.js';
import { sameJson } from './same-json.js';

type Recorded = { item: JsonObject; before: ModelStateMark; build: PathItemBuild };

/**
 * A watch session's memo of path item builds (model/path-item-memo.ts). An item is replayed only when the description
 * outside `paths` is what it was (equal JSON: the same components, servers, security, version), the item's own JSON is
 * what it was, and what the items before it made is what they made the last time (the same named schemas reached
 * and credential schemes made, in the same order), so that the model comes out as a fresh build makes it. Items that
 * `$ref` into `paths`, or a description whose other parts do, read other items: they are always built.
 */
export class PathItemReplay implements PathItemMemo {
  private root: JsonObject | undefined;
  private replayable = false;
  private items = new Map<string, Recorded>();
  private next = new Map<string, Recorded>();
  private reached = new SamePrefix<ReachedSchema>((a, b) => a.name === b.name && a.pointer === b.pointer);
  // Whole schemes, not keys: two spellings of a parameter (`api-key`, `api_key`) make the same key with another name,
  // which decides what later items' parameters match.
  private schemes = new SamePrefix<SecuritySchemeModel>(sameJson);

  begin(root: JsonObject): boolean {
    const outsideAsBefore = this.root !== undefined && sameJson({ ...this.root, paths: undefined }, { ...root, paths: undefined });
    if (!outsideAsBefore) {
      this.items = new Map();
      this.replayable = !refersToPaths({ ...root, paths: null });
    }
    this.root = root;
    this.next = new Map();
    this.reached.restart();
    this.schemes.restart();
    return this.replayable;
  }

  recorded(pathKey: string, item: JsonObject, state: ModelState): PathItemBuild | undefined {
    const last = this.items.get(pathKey);
    if (
      !last ||
      !this.reached.asBefore(state.reached, last.before.reached) ||
      !this.schemes.asBefore(state.schemes, last.before.schemes) ||
      !sameJson(last.item, item)
    )
      return undefined;
    this.next.set(pathKey, { ...last, item });
    return last.build;
  }

  record(pathKey: string, item: JsonObject, before: ModelStateMark, build: PathItemBuild): void {
    if (!refersToPaths(item)) this.next.set(pathKey, { item, before, build });
  }

  end(state: ModelState): void {
    this.items = this.next;
    this.next = new Map();
    this.reached.ended(state.reached);
    this.schemes.ended(state.schemes);
  }
}

/** Whether a list that only grows is, so far, what the last model's was at the same length: each position checked once. */
class SamePrefix<T> {
  private last: readonly T[] = [];
  private verified = 0;

  constructor(private readonly same: (a: T, b: T) => boolean) {}

  restart(): void {
    this.verified = 0;
  }

  ended(list: readonly T[]): void {
    this.last = list;
  }

  /** Whether `list` has `length` entries, each the last model's. */
  asBefore(list: readonly T[], length: number): boolean {
    if (list.length !== length || length > this.last.length) return false;
    for (; this.verified < length; this.verified++) if (!this.same(list[this.verified] as T, this.last[this.verified] as T)) return false;
    return true;
  }
}

/**
 * Whether a `$ref` in `value` may point into `paths`: any that names `paths` or escapes a character (a pointer can
 * spell `paths` as `%70aths`). Cautious by design: a false alarm only means building the item again.
 */
function refersToPaths(value: JsonValue | undefined): boolean {
  if (Array.isArray(value)) return value.some(refersToPaths);
  if (value === null || typeof value !== 'object') return false;
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$ref' && typeof inner === 'string' && (inner.includes('paths') || inner.includes('%'))) return true;
    if (typeof inner === 'object' && refersToPaths(inner)) return true;
  }
  return false;
}
