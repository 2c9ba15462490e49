import type { JsonObject, JsonValue } from '../kernel/json.js';
import type { SecuritySchemeModel } from '../model/api-model.js';
import type { ReachedSchema } from '../model/build-schema.js';
import type { ModelState, ModelStateMark, PathItemBuild, PathItemMemo } from '../model/path-item-memo.js';
import { sameJson } from './same-json.js';

/** An item's build, where the state stood when it started, and the item's JSON (kept by a watch, to compare). */
type Recorded = { item?: JsonObject; before: ModelStateMark; build: PathItemBuild };

/**
 * A model's path item builds as the regeneration cache keeps them (cache/model-store.ts): each item's build in the
 * order they were made, and what the model had made at its end (named schemas reached, credential schemes).
 */
export type StoredReplay = {
  items: Array<[key: string, before: ModelStateMark, build: PathItemBuild]>;
  reached: ReachedSchema[];
  schemes: SecuritySchemeModel[];
};

/**
 * A watch session's memo of path item builds (model/path-item-memo.ts). An item is replayed only when the description
 * outside `paths` is what it was (equal JSON: the same components, servers, security, version), the item's own JSON is
 * what it was, and what the items before it made is what they made the last time (the same named schemas reached
 * and credential schemes made, in the same order), so that the model comes out as a fresh build makes it. Items that
 * `$ref` into `paths`, or a description whose other parts do, read other items: they are always built.
 *
 * The regeneration cache keeps a model's builds too (`stored`), without the items' JSON, and a run whose text differs
 * from the last run's only inside one path item's value (load/text-pieces.ts) resumes them (`resumed`): the other
 * items, and the description outside `paths`, are then known to be as they were without being compared.
 */
export class PathItemReplay implements PathItemMemo {
  private root: JsonObject | undefined;
  private replayable = false;
  private items = new Map<string, Recorded>();
  private next = new Map<string, Recorded>();
  /** Resumed from the cache: the one item whose text changed (null: none did), until the first model begins. */
  private changed: string | null | undefined;
  private reached = new SamePrefix<ReachedSchema>((a, b) => a.name === b.name && a.pointer === b.pointer);
  // Whole schemes, not keys: two spellings of a parameter (`api-key`, `api_key`) make the same key with another name,
  // which decides what later items' parameters match.
  private schemes = new SamePrefix<SecuritySchemeModel>(sameJson);

  /**
   * `keepItems`: keep each item's JSON to compare with the next model's (a watch's). Without it (a run that stores its
   * builds for the next process), an item is replayed only when resumed, and the parsed document is not held.
   * `pathsUnreferenced`: the description's text shows no `$ref` that may point into `paths` (load/data-refs.ts), so
   * the document need not be walked for one (GitHub's: about 40 ms for the parts outside `paths`, as much again for
   * the items).
   */
  constructor(
    private readonly keepItems = true,
    private readonly pathsUnreferenced = false,
  ) {}

  /** A replay of the builds a run before stored, for a model of a text that differs from that run's only in `changed`. */
  static resumed(stored: StoredReplay, changed: string | undefined, pathsUnreferenced = false): PathItemReplay {
    const replay = new PathItemReplay(false, pathsUnreferenced);
    replay.items = new Map(stored.items.map(([key, before, build]) => [key, { before, build }]));
    replay.reached.ended(stored.reached);
    replay.schemes.ended(stored.schemes);
    replay.changed = changed ?? null;
    return replay;
  }

  /** The last model's builds, for the cache to store (after `end`); undefined when its items could not be replayed. */
  stored(): StoredReplay | undefined {
    if (!this.replayable) return undefined;
    return {
      items: [...this.items].map(([key, { before, build }]) => [key, before, build]),
      reached: [...this.reached.lastList],
      schemes: [...this.schemes.lastList],
    };
  }

  begin(root: JsonObject): boolean {
    // Resumed, the texts say that the description outside `paths` is as it was.
    const outsideAsBefore =
      this.changed !== undefined ||
      (this.root !== undefined && sameJson({ ...this.root, paths: undefined }, { ...root, paths: undefined }));
    if (!outsideAsBefore) this.items = new Map();
    if (!outsideAsBefore || this.changed !== undefined)
      this.replayable = this.pathsUnreferenced || !refersToPaths({ ...root, paths: null });
    if (this.keepItems) this.root = root;
    this.next = new Map();
    this.reached.restart();
    this.schemes.restart();
    return this.replayable;
  }

  recorded(pathKey: string, item: () => JsonObject | undefined, state: ModelState): PathItemBuild | undefined {
    const last = this.items.get(pathKey);
    if (!last || !this.reached.asBefore(state.reached, last.before.reached) || !this.schemes.asBefore(state.schemes, last.before.schemes))
      return undefined;
    // Resumed, an item whose text is as it was is the plain item it was when recorded, and is not read at all (a
    // document parsed as far as it is read leaves it unparsed: load/lazy-document.ts).
    if (this.changed !== undefined) {
      if (pathKey === this.changed) return undefined;
      this.next.set(pathKey, last);
      return last.build;
    }
    const current = item();
    if (!current || last.item === undefined || !sameJson(last.item, current)) return undefined;
    this.next.set(pathKey, this.keepItems ? { ...last, item: current } : last);
    return last.build;
  }

  record(pathKey: string, item: JsonObject, before: ModelStateMark, build: PathItemBuild): void {
    if (this.pathsUnreferenced || !refersToPaths(item))
      this.next.set(pathKey, this.keepItems ? { item, before, build } : { before, build });
  }

  end(state: ModelState): void {
    this.items = this.next;
    this.next = new Map();
    this.changed = undefined;
    this.reached.ended(state.reached);
    this.schemes.ended(state.schemes);
  }
}

/** Whether a list that only grows is, so far, what the last model's was at the same length: each position checked once. */
class SamePrefix<T> {
  private last: readonly T[] = [];

  /** The list of the last model. */
  get lastList(): readonly T[] {
    return this.last;
  }
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
