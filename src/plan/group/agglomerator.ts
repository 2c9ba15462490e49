import { compareStrings } from '../text/words.js';
import { combine, estimatedTokens, INTENT_CODE, nameKeyOf, affinity, type Cluster } from './cluster.js';
import { contains, intersect, unionSize } from './id-lists.js';
import { MAX_NAMED_ACTIONS, MAX_NAMED_ARGUMENTS, MAX_RELAXED_ACTIONS, MAX_RELAXED_ARGUMENTS, type GroupingLimits } from './limits.js';
import { MergeHistory } from './merge-history.js';
import { PairTable } from './pair-table.js';
import type { WordTable } from './word-table.js';

/**
 * Which merges a round allows. `family`: only a resource with its own sub-resources (the merged tool keeps the
 * name of one of the two); `named`: any merge that leaves a word every action's path shares; `any`: also merges
 * whose actions share no resource word (the last resort, named after the resources they hold).
 */
type MergeKind = 'family' | 'named' | 'any';
type Rule = { maxActions: number; maxArguments: number; kind: MergeKind };

/** Below any real score: a pair that may never merge (other intent, pinned, both locked). */
const NEVER = -Infinity;
/** Merges that leave no shared word score below every merge that keeps one. */
const NAMELESS_PENALTY = 1e9;

/**
 * Agglomerative clustering with cached pair scores and, per cluster, its best allowed partner: merging the closest
 * allowed pair costs O(n) instead of rescanning every pair. A merge costs the specificity its name loses, weighted by
 * the actions that lose it (`repos/releases` into `repos` costs more than `repos/keys`), so sub-resources join their
 * resource first and unrelated resources last. Ties break on cluster ids, so the result never depends on the order
 * of the description.
 */
export class Agglomerator {
  private readonly clusters: Array<Cluster | undefined>;
  private readonly size: number;
  /** Per pair of one intent: its score, and the name key, words and arguments the two would have once merged. */
  private readonly pairs: PairTable;
  /** Live clusters per name key: a merge may not produce a name another live cluster already has. */
  private readonly names = new Map<number, number>();
  /** Estimated tokens and number of the live clusters, and the merges recorded once the natural ones are done. */
  private tokens = 0;
  private count = 0;
  private history: MergeHistory | undefined;
  /** Slot → position in the history's start list (a merged cluster stays in the slot of the one it kept). */
  private readonly startPositions: number[] = [];
  /**
   * The slots of the live clusters, ascending: every scan visits only these. Most slots die in the natural merges,
   * and a dead slot can neither merge nor be anyone's partner.
   */
  private live: number[];
  /** The live slots of each block of the pair table, ascending: the only partners a cluster of that block can have. */
  private readonly liveIn: number[][];

  constructor(
    initial: Cluster[],
    private readonly table: WordTable,
  ) {
    const ranks = new Map(
      [...initial]
        .map((cluster) => cluster.id)
        .sort(compareStrings)
        .map((id, rank) => [id, rank]),
    );
    this.clusters = initial.map((cluster) => ({ ...cluster, rank: ranks.get(cluster.id) ?? 0 }));
    this.size = initial.length;
    this.live = initial.map((_, slot) => slot);
    // Clusters of another intent or of a pinned group never merge: such pairs are kept nowhere and scanned never.
    const blocks = initial.map((cluster) => (cluster.pinnedGroup ? -1 : INTENT_CODE[cluster.intent] - 1));
    const maxWords = Math.max(0, ...initial.map((cluster) => cluster.words.length));
    const argumentNames = initial.reduce((sum, cluster) => sum + cluster.argumentNames.length, 0);
    this.pairs = new PairTable(blocks, maxWords, argumentNames);
    this.liveIn = Object.values(INTENT_CODE).map((code) => this.live.filter((slot) => blocks[slot] === code - 1));
    for (const cluster of initial) this.names.set(cluster.nameKey, (this.names.get(cluster.nameKey) ?? 0) + 1);
    for (const slots of this.liveIn)
      for (let p = 0; p < slots.length; p++)
        for (let q = p + 1; q < slots.length; q++) this.scorePair(slots[p] as number, slots[q] as number);
  }

  /**
   * Merges as far as any budget could ask: natural merges first, then — recorded step by step, each with the
   * estimated tokens and the tool count it leaves — related resources under the words they share, in steps of larger
   * tools; resources with nothing in common only after that; and last whatever brings the count under the limit.
   */
  run(limits: GroupingLimits, maxTools: number): MergeHistory {
    const natural = { maxActions: limits.maxActions, maxArguments: limits.maxArguments };
    this.mergeWhile({ ...natural, kind: 'family' }, () => true);
    this.tokens = this.alive().reduce((sum, cluster) => sum + estimatedTokens(cluster), 0);
    this.count = this.alive().length;
    this.history = new MergeHistory(this.alive(), this.tokens, maxTools);
    let position = 0;
    this.clusters.forEach((cluster, slot) => {
      if (cluster) this.startPositions[slot] = position++;
    });
    const always = () => true;
    for (const kind of ['named', 'any'] as const) {
      // Once the caps are reached, the steps repeat one rule: a rule that found no pair left finds none again.
      let exhausted: Rule | undefined;
      for (let relax = 1; relax <= 4; relax *= 1.25) {
        const rule = {
          maxActions: Math.min(MAX_RELAXED_ACTIONS, Math.ceil(limits.maxActions * relax)),
          maxArguments: Math.min(MAX_RELAXED_ARGUMENTS, Math.ceil(limits.maxArguments * relax)),
          kind,
        };
        if (exhausted && exhausted.maxActions === rule.maxActions && exhausted.maxArguments === rule.maxArguments) continue;
        exhausted = this.mergeWhile(rule, always) ? rule : undefined;
      }
      // Past the caps, a resource's remaining actions join their resource rather than a stranger.
      if (kind === 'named') this.mergeWhile({ maxActions: MAX_NAMED_ACTIONS, maxArguments: MAX_NAMED_ARGUMENTS, kind }, always);
    }
    const overCount = () => this.count > maxTools;
    for (let relax = 1; overCount() && relax < 1e6; relax *= 2) {
      this.mergeWhile({ maxActions: limits.maxActions * 4 * relax, maxArguments: limits.maxArguments * 4 * relax, kind: 'any' }, overCount);
    }
    return this.history;
  }

  private alive(): Cluster[] {
    return this.clusters.filter((cluster): cluster is Cluster => cluster !== undefined);
  }

  /** The score of a pair that may merge (both of one block). */
  private score(i: number, j: number): number {
    return this.pairs.scores[this.pairs.index(i, j)] as number;
  }

  /** Scores a pair of one block. */
  private scorePair(i: number, j: number): void {
    const { scores, sharedCounts, argumentUnions, sharedKeys } = this.pairs;
    const at = this.pairs.index(i, j);
    const a = this.clusters[i];
    const b = this.clusters[j];
    if (!a || !b || (a.locked && b.locked)) {
      scores[at] = NEVER;
      return;
    }
    const shared = intersect(a.words, b.words);
    sharedCounts[at] = shared.length;
    argumentUnions[at] = unionSize(a.argumentNames, b.argumentNames);
    sharedKeys[at] = nameKeyOf(a.intent, shared);
    // Parameters shared break ties between merges that lose the same specificity.
    const closeness = affinity(a, b);
    if (shared.length === 0) {
      scores[at] = -NAMELESS_PENALTY - a.units.length - b.units.length + closeness;
      return;
    }
    // Each side loses the words it does not share, at the depth they stand in its own paths.
    const keptA = this.table.weight({ ids: a.words, depths: a.depths }, shared);
    const keptB = this.table.weight({ ids: b.words, depths: b.depths }, shared);
    scores[at] = -(a.units.length * (a.weight - keptA) + b.units.length * (b.weight - keptB)) + 0.01 * closeness;
  }

  private allowed(i: number, j: number, rule: Rule): boolean {
    const a = this.clusters[i];
    const b = this.clusters[j];
    if (!a || !b) return false;
    const at = this.pairs.index(i, j);
    if (at < 0 || this.pairs.scores[at] === NEVER) return false;
    if (a.units.length + b.units.length > rule.maxActions) return false;
    const sharedCount = this.pairs.sharedCounts[at] as number;
    if (sharedCount === 0 && rule.kind !== 'any') return false;
    if (rule.kind === 'family' && sharedCount !== a.words.length && sharedCount !== b.words.length) return false;
    if (sharedCount > 0) {
      // The merged tool's name must stay its own: a merge may not give a name that another live cluster has (two
      // tools, one name), unless one of the two has it already (then the merge leaves fewer alike, not more).
      const key = this.pairs.sharedKeys[at] as number;
      if (a.nameKey !== key && b.nameKey !== key && this.names.has(key)) return false;
    }
    return (this.pairs.argumentUnions[at] as number) <= rule.maxArguments;
  }

  /** True when (i, j) beats (k, l): higher score, then the pair of smaller ids. */
  private better(i: number, j: number, k: number, l: number): boolean {
    const difference = this.score(i, j) - this.score(k, l);
    if (difference !== 0) return difference > 0;
    const [first, second] = this.ranks(i, j);
    const [otherFirst, otherSecond] = this.ranks(k, l);
    return first !== otherFirst ? first < otherFirst : second < otherSecond;
  }

  private ranks(i: number, j: number): [number, number] {
    const a = this.clusters[i]?.rank ?? 0;
    const b = this.clusters[j]?.rank ?? 0;
    return a < b ? [a, b] : [b, a];
  }

  private bestPartner(i: number, rule: Rule): number {
    const block = this.pairs.blockOf(i);
    if (block < 0) return -1;
    let best = -1;
    for (const j of this.liveIn[block] as number[]) {
      if (j === i || !this.allowed(i, j, rule)) continue;
      if (best < 0 || this.better(i, j, i, best)) best = j;
    }
    return best;
  }

  private countName(key: number, change: number): void {
    const next = (this.names.get(key) ?? 0) + change;
    if (next > 0) this.names.set(key, next);
    else this.names.delete(key);
  }

  /** Merges the closest allowed pair while `keepGoing` says so; true when it stopped because no allowed pair is left. */
  private mergeWhile(rule: Rule, keepGoing: () => boolean): boolean {
    const partner = new Int32Array(this.size).fill(-1);
    for (const i of this.live) partner[i] = this.bestPartner(i, rule);
    while (keepGoing()) {
      let bestI = -1;
      for (const i of this.live) {
        const j = partner[i] as number;
        if (j < 0) continue;
        if (bestI < 0 || this.better(i, j, bestI, partner[bestI] as number)) bestI = i;
      }
      if (bestI < 0) return true;
      const bestJ = partner[bestI] as number;
      const [keep, drop] = bestI < bestJ ? [bestI, bestJ] : [bestJ, bestI];
      const before = [this.clusters[keep] as Cluster, this.clusters[drop] as Cluster];
      const merged = combine(before[0] as Cluster, before[1] as Cluster, this.table);
      for (const cluster of before) this.countName(cluster.nameKey, -1);
      this.countName(merged.nameKey, 1);
      this.tokens += estimatedTokens(merged) - estimatedTokens(before[0] as Cluster) - estimatedTokens(before[1] as Cluster);
      this.count--;
      this.history?.record(this.startPositions[keep] as number, this.startPositions[drop] as number, this.tokens, this.count);
      this.clusters[keep] = merged;
      this.clusters[drop] = undefined;
      this.live = this.live.filter((slot) => slot !== drop);
      const block = this.pairs.blockOf(keep);
      const kin = (this.liveIn[block] as number[]).filter((slot) => slot !== drop);
      this.liveIn[block] = kin;
      partner[drop] = -1;
      for (const k of kin) if (k !== keep) this.scorePair(keep, k);
      partner[keep] = this.bestPartner(keep, rule);
      // A name no live cluster holds any more frees the merges that would produce it: merges of clusters whose
      // words include all of its words. Only partners of this intent can change: the merge changed no cluster of
      // another, and a name key holds its intent, so no pair of another intent would produce the names it changed.
      const freed = before.filter((cluster) => !this.names.has(cluster.nameKey) && cluster.words.length > 0);
      for (const k of kin) {
        const cluster = this.clusters[k] as Cluster;
        if (k === keep) continue;
        const current = partner[k] as number;
        const mayProduceFreed = freed.length > 0 && freed.some((gone) => contains(cluster.words, gone.words));
        if (current === keep || current === drop || (current >= 0 && !this.allowed(k, current, rule)) || mayProduceFreed)
          partner[k] = this.bestPartner(k, rule);
        else if (this.allowed(k, keep, rule) && (current < 0 || this.better(k, keep, k, current))) partner[k] = keep;
      }
    }
    return false;
  }
}
