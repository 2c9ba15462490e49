import { resourceWords, segmentKeys, singular, WordWeights, type ResourceWords } from '../text/resource-words.js';
import { compareStrings } from '../text/words.js';
import type { GroupingUnit } from '../drafts.js';
import { forShared } from './id-lists.js';

/** Family roots by their segments: the roots that go on below a segment, and the ids of those that end with one. */
type RootLevel = { children: Map<string, RootLevel>; ids: Map<string, number> };

/** One operation's resource words as ascending ids, and how deep in its path each first appears (0 = first segment). */
export type UnitWords = { ids: number[]; depths: number[] };

/**
 * Resource words as small integers, with their weights: pair checks compare sorted id lists, not strings. A word
 * weighs by how rare it is and how high in the path it stands: in `/teams/{id}/users/{user_id}` the operation is
 * about a team's users, so losing `teams` costs more than losing `users`.
 */
export class WordTable {
  private readonly ids = new Map<string, number>();
  private readonly rarity: number[] = [];
  /** Other names (parameters, tag words), numbered as they are first seen: only their sets are compared. */
  private readonly nameIds = new Map<string, number>();
  /** Each unit's resource words, split once: the table is built from them and every initial group reads them again. */
  private readonly wordsByUnit = new Map<GroupingUnit, ResourceWords>();

  constructor(units: GroupingUnit[]) {
    const lists = units.map((unit) => resourceWords(unit.resource));
    units.forEach((unit, index) => this.wordsByUnit.set(unit, lists[index] as ResourceWords));
    const weights = new WordWeights(lists);
    const keys = [...new Set(lists.flatMap((list) => list.keys))].sort(compareStrings);
    keys.forEach((key, id) => {
      this.ids.set(key, id);
      this.rarity.push(weights.of([key]));
    });
  }

  wordsOf(unit: GroupingUnit): UnitWords {
    const { segments } = this.wordsByUnit.get(unit) ?? resourceWords(unit.resource);
    const depthOf = new Map<number, number>();
    segments.forEach((segment, depth) => {
      for (const word of segment) {
        const id = this.ids.get(singular(word));
        if (id !== undefined && !depthOf.has(id)) depthOf.set(id, depth);
      }
    });
    const ids = [...depthOf.keys()].sort((a, b) => a - b);
    return { ids, depths: ids.map((id) => depthOf.get(id) as number) };
  }

  /** Names as ascending ids, each once. */
  idsOf(names: readonly string[]): number[] {
    const ids = new Set<number>();
    for (const name of names) {
      let id = this.nameIds.get(name);
      if (id === undefined) {
        id = this.nameIds.size;
        this.nameIds.set(name, id);
      }
      ids.add(id);
    }
    return [...ids].sort((x, y) => x - y);
  }

  /** Family roots (see cluster.ts, familyRoots): id → the ids of the resource words its segments hold, ascending. */
  private readonly rootWordIds: number[][] = [];
  private readonly rootIds: RootLevel = { children: new Map(), ids: new Map() };

  /**
   * The family roots that begin at `start` of a resource (segments in normal form), one for each end after it, as
   * ids added to `roots`; the words of each are kept for rootWords. Roots are kept in a tree of segments, walked once
   * per start: every unit asks for every root its resource holds, which a key joined per root made a string for.
   */
  addRootIds(segments: readonly string[], start: number, roots: Set<number>): void {
    let level = this.rootIds;
    // The root's resource words (resourceWords' keys of the segments so far), as they grow with each segment.
    const words: number[] = [];
    const seen = new Set<string>();
    for (let end = start + 1; end <= segments.length; end++) {
      const segment = segments[end - 1] as string;
      for (const key of segmentKeys(segment, end - 1 === start)) {
        if (seen.has(key)) continue;
        seen.add(key);
        const wordId = this.ids.get(key);
        if (wordId !== undefined) words.push(wordId);
      }
      let id = level.ids.get(segment);
      if (id === undefined) {
        id = this.rootWordIds.length;
        level.ids.set(segment, id);
        this.rootWordIds.push([...new Set(words)].sort((x, y) => x - y));
      }
      roots.add(id);
      if (end === segments.length) break;
      let next = level.children.get(segment);
      if (!next) level.children.set(segment, (next = { children: new Map(), ids: new Map() }));
      level = next;
    }
  }

  /** The resource words of a family root, as ascending ids. */
  rootWords(root: number): readonly number[] {
    return this.rootWordIds[root] ?? [];
  }

  /** A resource segment as an id among the other names (an end mark for none), for counting the branches a tool spans. */
  branchId(segment: string | undefined): number {
    return this.idsOf([`\u0000branch:${segment ?? ''}`])[0] as number;
  }

  /** The weight of each word at its depth (parallel to `words.ids`). */
  wordWeights(words: UnitWords): number[] {
    return words.ids.map((id, index) => (this.rarity[id] ?? 0) / (1 + (words.depths[index] ?? 0)));
  }
}

/** The words both hold, each at the size-weighted mean of its two depths. */
export function intersectWords(a: UnitWords, sizeA: number, b: UnitWords, sizeB: number): UnitWords {
  const ids: number[] = [];
  const depths: number[] = [];
  forShared(a.ids, b.ids, (i, j) => {
    ids.push(a.ids[i] as number);
    depths.push(((a.depths[i] as number) * sizeA + (b.depths[j] as number) * sizeB) / (sizeA + sizeB));
  });
  return { ids, depths };
}
