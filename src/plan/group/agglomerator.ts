import { compareStrings } from '../text/words.js';
import {
  combine,
  estimatedTokens,
  INTENT_CODE,
  mergedBranchCount,
  nameKeyOf,
  affinity,
  ranked,
  sameFamily,
  type Cluster,
} from './cluster.js';
import { contains, intersectionSize, unionSize } from './id-lists.js';
import { MAX_BRANCHES, MAX_RELAXED_ACTIONS, MAX_RELAXED_ARGUMENTS, NATURAL_BRANCHES, type GroupingLimits } from './limits.js';
import { MergeHistory } from './merge-history.js';
import { PairTable } from './pair-table.js';
import type { WordTable } from './word-table.js';

/**
 * Which merges a round allows. `family`: only a resource with its own sub-resources (the merged tool keeps the
 * name of one of the two); `named`: any merge that leaves a word every action's path shares. Resources with no word in
 * common never merge: a tool of unrelated resources has no honest name, and a model looking for either does not find
 * it. A description too large for its resources to keep tools of their own goes over its budget and says so.
 */
type MergeKind = 'family' | 'named';
type Rule = { maxActions: number; maxArguments: number; maxBranches: number; kind: MergeKind };

/** Below any real score: a pair that may never merge (other intent, pinned, both locked). */
const NEVER = -Infinity;
/** A score or name key not computed yet (see `scorePair`). */
const PENDING = NaN;

/**
 * Agglomerative clustering with cached pair scores and, per cluster, its best allowed partner: merging the closest
 * allowed pair costs O(n) instead of rescanning every pair. What the scans read of each cluster (its actions, words,
 * name key and rank) is kept per slot in typed arrays, and each partner's score and ranks next to it, so that a scan
 * compares numbers and allocates nothing. A merge costs the specificity its name loses, weighted by
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
  /** Per slot: its cluster's actions (0 once the slot is dead), words, name key and rank. */
  private readonly actions: Int32Array;
  private readonly wordCounts: Int32Array;
  private readonly nameKeys: Float64Array;
  private readonly ranks: Int32Array;
  /** The ids two clusters share, while a pair is scored (no list per pair). */
  private readonly sharedScratch: Int32Array;
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
  private readonly live: number[];
  /** The live slots of each block of the pair table, ascending: the only partners a cluster of that block can have. */
  private readonly liveIn: number[][];
  /**
   * Per slot, during a round: its best allowed partner (-1: none), and that pair's score and ranks (lower first), so
   * that finding the best pair of all reads three numbers per cluster.
   */
  private readonly partner: Int32Array;
  private readonly partnerScore: Float64Array;
  private readonly partnerLow: Int32Array;
  private readonly partnerHigh: Int32Array;

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
    this.clusters = initial.map((cluster) => ranked(cluster, ranks.get(cluster.id) ?? 0));
    this.size = initial.length;
    this.actions = Int32Array.from(this.clusters, (cluster) => cluster?.units.length ?? 0);
    this.wordCounts = Int32Array.from(this.clusters, (cluster) => cluster?.words.length ?? 0);
    this.nameKeys = Float64Array.from(this.clusters, (cluster) => cluster?.nameKey ?? 0);
    this.ranks = Int32Array.from(this.clusters, (cluster) => cluster?.rank ?? 0);
    this.partner = new Int32Array(this.size).fill(-1);
    this.partnerScore = new Float64Array(this.size);
    this.partnerLow = new Int32Array(this.size);
    this.partnerHigh = new Int32Array(this.size);
    this.live = initial.map((_, slot) => slot);
    // Clusters of another intent or of a pinned group never merge: such pairs are kept nowhere and scanned never.
    const blocks = initial.map((cluster) => (cluster.pinnedGroup ? -1 : INTENT_CODE[cluster.intent] - 1));
    const maxWords = Math.max(0, ...initial.map((cluster) => cluster.words.length));
    this.sharedScratch = new Int32Array(maxWords);
    const argumentNames = initial.reduce((sum, cluster) => sum + cluster.argumentNames.length, 0);
    this.pairs = new PairTable(blocks, maxWords, argumentNames);
    this.liveIn = Object.values(INTENT_CODE).map((code) => this.live.filter((slot) => blocks[slot] === code - 1));
    for (const cluster of initial) this.names.set(cluster.nameKey, (this.names.get(cluster.nameKey) ?? 0) + 1);
    for (const slots of this.liveIn)
      for (let p = 0; p < slots.length; p++)
        for (let q = p + 1; q < slots.length; q++) this.scorePair(slots[p] as number, slots[q] as number);
  }

  /**
   * Merges as far as any budget could ask: natural merges first (a resource and its sub-resources), then — recorded
   * step by step, each with the estimated tokens and the tool count it leaves — related resources under the words
   * they share, in steps of larger tools, never past the caps: a tool spans at most MAX_BRANCHES resources side by
   * side, so that the actions left on a scope (`repos` once its large sub-resources have tools of their own) stay
   * tools of their own families instead of one bucket named after the scope.
   */
  run(limits: GroupingLimits, maxTools: number): MergeHistory {
    this.mergeWhile(
      { maxActions: limits.maxActions, maxArguments: limits.maxArguments, maxBranches: NATURAL_BRANCHES, kind: 'family' },
      () => true,
    );
    this.tokens = this.alive().reduce((sum, cluster) => sum + estimatedTokens(cluster), 0);
    this.count = this.alive().length;
    this.history = new MergeHistory(this.alive(), this.tokens, maxTools);
    let position = 0;
    this.clusters.forEach((cluster, slot) => {
      if (cluster) this.startPositions[slot] = position++;
    });
    // Once the caps are reached, the steps repeat one rule: a rule that found no pair left finds none again.
    let exhausted: Rule | undefined;
    for (let relax = 1; relax <= 4; relax *= 1.25) {
      const rule: Rule = {
        maxActions: Math.min(MAX_RELAXED_ACTIONS, Math.ceil(limits.maxActions * relax)),
        maxArguments: Math.min(MAX_RELAXED_ARGUMENTS, Math.ceil(limits.maxArguments * relax)),
        maxBranches: Math.min(MAX_BRANCHES, Math.ceil(NATURAL_BRANCHES * relax)),
        kind: 'named',
      };
      const same = (other: Rule | undefined) =>
        other?.maxActions === rule.maxActions && other.maxArguments === rule.maxArguments && other.maxBranches === rule.maxBranches;
      if (same(exhausted)) continue;
      exhausted = this.mergeWhile(rule, () => true) ? rule : undefined;
    }
    return this.history;
  }

  private alive(): Cluster[] {
    return this.clusters.filter((cluster): cluster is Cluster => cluster !== undefined);
  }

  /**
   * Scores a pair of one block, in steps. Here, what every rule checks first: how many words the two share. The
   * name they would get, only once a rule asks (`sharedKey`); the rest (argument names together, affinity, score)
   * only once a rule gets that far (`complete`): most pairs fail a rule on their words or sizes, and a pair is scored
   * again whenever one of its two clusters merges.
   */
  private scorePair(i: number, j: number): void {
    const { scores, sharedCounts, sharedKeys } = this.pairs;
    const at = this.pairs.index(i, j);
    const a = this.clusters[i];
    const b = this.clusters[j];
    if (!a || !b || (a.locked && b.locked)) {
      scores[at] = NEVER;
      return;
    }
    sharedCounts[at] = intersectionSize(a.words, b.words);
    sharedKeys[at] = PENDING;
    // Clusters with no word in common never merge, under any rule.
    scores[at] = sharedCounts[at] === 0 ? NEVER : PENDING;
    this.pairs.branchCounts[at] = 0;
    this.pairs.families[at] = 0;
  }

  /** Writes the words two clusters share into the scratch buffer; returns how many. */
  private sharedWords(i: number, j: number): number {
    const a = this.clusters[i] as Cluster;
    const b = this.clusters[j] as Cluster;
    const shared = this.sharedScratch;
    let count = 0;
    for (let p = 0, q = 0; p < a.words.length && q < b.words.length;) {
      const x = a.words[p] as number;
      const y = b.words[q] as number;
      if (x === y) {
        shared[count++] = x;
        p++;
        q++;
      } else if (x < y) p++;
      else q++;
    }
    return count;
  }

  /** The name key of the words a pair of one block shares (see `scorePair`). */
  private sharedKey(at: number, i: number, j: number): number {
    const known = this.pairs.sharedKeys[at] as number;
    if (!Number.isNaN(known)) return known;
    const count = this.sharedWords(i, j);
    // Both clusters are of one block, so of one intent: the key is the same from either side.
    const key = nameKeyOf((this.clusters[i] as Cluster).intent, this.sharedScratch, count);
    this.pairs.sharedKeys[at] = key;
    return key;
  }

  /** How many branches a pair of one block would span once merged (see PairTable.branchCounts). */
  private branchCount(at: number, i: number, j: number): number {
    const known = this.pairs.branchCounts[at] as number;
    if (known > 0) return known - 1;
    const count = mergedBranchCount(this.clusters[i] as Cluster, this.clusters[j] as Cluster, this.table);
    this.pairs.branchCounts[at] = Math.min(count, 254) + 1;
    // No rule lets a tool span more than MAX_BRANCHES.
    if (count > MAX_BRANCHES) this.pairs.scores[at] = NEVER;
    return count;
  }

  /** Whether a pair of one block is one resource family under the words it shares (see PairTable.families). */
  private oneFamily(at: number, i: number, j: number): boolean {
    const known = this.pairs.families[at] as number;
    if (known > 0) return known === 1;
    const family = sameFamily(
      this.clusters[i] as Cluster,
      this.clusters[j] as Cluster,
      this.sharedScratch,
      this.sharedWords(i, j),
      this.table,
    );
    this.pairs.families[at] = family ? 1 : 2;
    // Every rule asks for one family.
    if (!family) this.pairs.scores[at] = NEVER;
    return family;
  }

  /** The rest of a pair's scoring (see `scorePair`): the argument names the two hold together, and its score. */
  private complete(at: number, i: number, j: number): void {
    const a = this.clusters[i] as Cluster;
    const b = this.clusters[j] as Cluster;
    this.pairs.argumentUnions[at] = unionSize(a.argumentNames, b.argumentNames);
    // Parameters shared break ties between merges that lose the same specificity.
    const closeness = affinity(a, b);
    // Each side loses the words it does not share, at the depth they stand in its own paths.
    let keptA = 0;
    let keptB = 0;
    for (let p = 0, q = 0; p < a.words.length && q < b.words.length;) {
      const x = a.words[p] as number;
      const y = b.words[q] as number;
      if (x === y) {
        keptA += a.wordWeights[p++] as number;
        keptB += b.wordWeights[q++] as number;
      } else if (x < y) p++;
      else q++;
    }
    this.pairs.scores[at] = -(a.units.length * (a.weight - keptA) + b.units.length * (b.weight - keptB)) + 0.01 * closeness;
  }

  /**
   * Whether a rule allows a pair. The checks are pure and cached per pair, so their order changes no answer: the
   * ones every rule asks alike come first, and a pair they rule out is marked NEVER until one of the two merges —
   * every rule scans every pair again, and most pairs of a large description share a word but no family.
   */
  private allowed(i: number, j: number, rule: Rule): boolean {
    const actionsA = this.actions[i] as number;
    const actionsB = this.actions[j] as number;
    if (actionsA === 0 || actionsB === 0) return false;
    const at = this.pairs.index(i, j);
    if (at < 0 || this.pairs.scores[at] === NEVER) return false;
    if (actionsA + actionsB > rule.maxActions) return false;
    const sharedCount = this.pairs.sharedCounts[at] as number;
    if (rule.kind === 'family' && sharedCount !== this.wordCounts[i] && sharedCount !== this.wordCounts[j]) return false;
    if (this.branchCount(at, i, j) > rule.maxBranches) return false;
    if (!this.oneFamily(at, i, j)) return false;
    // The merged tool's name must stay its own: a merge may not give a name that another live cluster has (two
    // tools, one name), unless one of the two has it already (then the merge leaves fewer alike, not more).
    const key = this.sharedKey(at, i, j);
    if (this.nameKeys[i] !== key && this.nameKeys[j] !== key && this.names.has(key)) return false;
    // Every rule checks the arguments last: a pair gets this far once in a while, and then needs its score too.
    if (Number.isNaN(this.pairs.scores[at])) this.complete(at, i, j);
    return (this.pairs.argumentUnions[at] as number) <= rule.maxArguments;
  }

  /**
   * Whether a pair of this score and ranks (lower, higher) beats the best so far: higher score, then the pair of
   * smaller ranks. Ranks are unique among live clusters, so two distinct pairs never tie.
   */
  private static beats(score: number, low: number, high: number, bestScore: number, bestLow: number, bestHigh: number): boolean {
    if (score !== bestScore) return score > bestScore;
    return low !== bestLow ? low < bestLow : high < bestHigh;
  }

  /** Sets the partner of `i` for this round, with the pair's score and ranks. */
  private setPartner(i: number, j: number): void {
    this.partner[i] = j;
    if (j < 0) return;
    const rankI = this.ranks[i] as number;
    const rankJ = this.ranks[j] as number;
    this.partnerScore[i] = this.pairs.scores[this.pairs.index(i, j)] as number;
    this.partnerLow[i] = rankI < rankJ ? rankI : rankJ;
    this.partnerHigh[i] = rankI < rankJ ? rankJ : rankI;
  }

  /** Whether `j` beats the partner `i` has now. */
  private beatsPartner(i: number, j: number): boolean {
    if (this.partner[i] === -1) return true;
    const rankI = this.ranks[i] as number;
    const rankJ = this.ranks[j] as number;
    return Agglomerator.beats(
      this.pairs.scores[this.pairs.index(i, j)] as number,
      rankI < rankJ ? rankI : rankJ,
      rankI < rankJ ? rankJ : rankI,
      this.partnerScore[i] as number,
      this.partnerLow[i] as number,
      this.partnerHigh[i] as number,
    );
  }

  private bestPartner(i: number, rule: Rule): number {
    const block = this.pairs.blockOf(i);
    if (block < 0) return -1;
    const { scores } = this.pairs;
    const rankI = this.ranks[i] as number;
    let best = -1;
    let bestScore = 0;
    let bestLow = 0;
    let bestHigh = 0;
    const kin = this.liveIn[block] as number[];
    // Indexed: this scan runs millions of times, from before V8 optimizes it, and an unoptimized for-of allocates a
    // result per step.
    for (let index = 0; index < kin.length; index++) {
      const j = kin[index] as number;
      if (j === i || !this.allowed(i, j, rule)) continue;
      const score = scores[this.pairs.index(i, j)] as number;
      const rankJ = this.ranks[j] as number;
      const low = rankI < rankJ ? rankI : rankJ;
      const high = rankI < rankJ ? rankJ : rankI;
      if (best < 0 || Agglomerator.beats(score, low, high, bestScore, bestLow, bestHigh)) {
        best = j;
        bestScore = score;
        bestLow = low;
        bestHigh = high;
      }
    }
    return best;
  }

  private countName(key: number, change: number): void {
    const next = (this.names.get(key) ?? 0) + change;
    if (next > 0) this.names.set(key, next);
    else this.names.delete(key);
  }

  /** The live slot whose partner makes the best pair of all, or -1 when no cluster has an allowed partner. */
  private bestOfAll(): number {
    let bestI = -1;
    const { live } = this;
    for (let index = 0; index < live.length; index++) {
      const i = live[index] as number;
      if (this.partner[i] === -1) continue;
      if (
        bestI < 0 ||
        Agglomerator.beats(
          this.partnerScore[i] as number,
          this.partnerLow[i] as number,
          this.partnerHigh[i] as number,
          this.partnerScore[bestI] as number,
          this.partnerLow[bestI] as number,
          this.partnerHigh[bestI] as number,
        )
      )
        bestI = i;
    }
    return bestI;
  }

  /** Merges the closest allowed pair while `keepGoing` says so; true when it stopped because no allowed pair is left. */
  private mergeWhile(rule: Rule, keepGoing: () => boolean): boolean {
    this.partner.fill(-1);
    for (const i of this.live) this.setPartner(i, this.bestPartner(i, rule));
    while (keepGoing()) {
      const bestI = this.bestOfAll();
      if (bestI < 0) return true;
      const bestJ = this.partner[bestI] as number;
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
      this.actions[keep] = merged.units.length;
      this.wordCounts[keep] = merged.words.length;
      this.nameKeys[keep] = merged.nameKey;
      this.ranks[keep] = merged.rank;
      this.actions[drop] = 0;
      removeSlot(this.live, drop);
      const block = this.pairs.blockOf(keep);
      const kin = this.liveIn[block] as number[];
      removeSlot(kin, drop);
      this.partner[drop] = -1;
      for (let index = 0; index < kin.length; index++) if (kin[index] !== keep) this.scorePair(keep, kin[index] as number);
      this.setPartner(keep, this.bestPartner(keep, rule));
      // A name no live cluster holds any more frees the merges that would produce it: merges of clusters whose
      // words include all of its words. Only partners of this intent can change: the merge changed no cluster of
      // another, and a name key holds its intent, so no pair of another intent would produce the names it changed.
      const freed = before.filter((cluster) => !this.names.has(cluster.nameKey) && cluster.words.length > 0);
      for (let index = 0; index < kin.length; index++) {
        const k = kin[index] as number;
        const cluster = this.clusters[k] as Cluster;
        if (k === keep) continue;
        const current = this.partner[k] as number;
        const mayProduceFreed = freed.length > 0 && freed.some((gone) => contains(cluster.words, gone.words));
        if ((current === keep || current === drop) && !mayProduceFreed && this.allowed(k, keep, rule) && this.beatsPartner(k, keep))
          // The partner it had beat every other allowed pair, and the merged cluster beats that pair: no scan needed.
          this.setPartner(k, keep);
        else if (current === keep || current === drop || (current >= 0 && !this.allowed(k, current, rule)) || mayProduceFreed)
          this.setPartner(k, this.bestPartner(k, rule));
        else if (this.allowed(k, keep, rule) && this.beatsPartner(k, keep)) this.setPartner(k, keep);
      }
    }
    return false;
  }
}

/** Removes a slot from an ascending list of slots, in place. */
function removeSlot(slots: number[], slot: number): void {
  let low = 0;
  let high = slots.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const value = slots[middle] as number;
    if (value === slot) {
      slots.splice(middle, 1);
      return;
    }
    if (value < slot) low = middle + 1;
    else high = middle - 1;
  }
}
