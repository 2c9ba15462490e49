import type { Intent } from '../../surface/surface.js';
import { resourceWords, singular, WordWeights, type ResourceWords } from '../text/resource-words.js';
import { compareStrings } from '../text/words.js';
import type { Strategy, GroupingUnit, OperationGroup } from '../drafts.js';
import { PairTable } from './pair-table.js';

export type GroupingLimits = {
  maxTools: number;
  /** Actions in a tool formed by natural merging; relaxed step by step only to meet the budgets. */
  maxActions: number;
  maxArguments: number;
};

/** Caps of the relaxed limits: a tool larger than this is harder to use than two tools. */
const MAX_RELAXED_ACTIONS = 40;
const MAX_RELAXED_ARGUMENTS = 90;
/**
 * Caps for the actions left over on one resource (`repos` once its large sub-resources have tools of their own):
 * one larger tool named after what its actions share reads better than two tools of unrelated resources.
 */
const MAX_NAMED_ACTIONS = 80;
const MAX_NAMED_ARGUMENTS = 160;

/**
 * The grouping of a description for any token budget: merging is one fixed sequence (the closest allowed pair first,
 * whatever the budget), and a budget only says where it stops — so the sequence is computed once and a budget picks
 * a state of it, the first that fits. States are numbered along the sequence: two budgets at the same state give the
 * same groups, and a lower budget never stops at an earlier state.
 */
export type Grouping = {
  /** The state a token budget stops at. */
  stateAt(tokenBudget: number): number;
  /** The groups of a state. */
  groupsAt(state: number): OperationGroup[];
  /** The last state: a budget that stops there can get no coarser grouping by going lower. */
  lastState: number;
};

/**
 * Stage 3a: groups operations into tools by the chosen strategy. Tools never mix reads, writes and deletions
 * (unless `x-mcp.tool` puts operations together explicitly), so every annotation stays true for every action.
 */
export function groupOperations(
  units: GroupingUnit[],
  strategy: Strategy,
  limits: GroupingLimits,
  locked = new Map<string, string>(),
): Grouping {
  const fixed = new Map<string, GroupingUnit[]>();
  const free: GroupingUnit[] = [];
  for (const unit of units) {
    const name = unit.operation.extension.tool;
    if (name) fixed.set(name, [...(fixed.get(name) ?? []), unit]);
    else free.push(unit);
  }
  const groups: OperationGroup[] = [...fixed].map(([fixedName, members]) => ({ units: members, fixedName }));
  if (strategy === 'per-operation') return constant([...groups, ...free.map((unit) => ({ units: [unit] }))]);
  if (strategy === 'by-tag')
    return constant([
      ...groups,
      ...byKey(free, (unit) => `${unit.intent} ${unit.operation.tags[0] ?? ''}`).map((members) => ({ units: members })),
    ]);
  const table = new WordTable(free);
  const pinned = byKey(
    free.filter((unit) => locked.has(unit.operation.key)),
    (unit) => locked.get(unit.operation.key) ?? '',
  );
  const initial = [
    ...pinned.map((members) => ({ ...toCluster(members, table), locked: locked.get(members[0]!.operation.key) })),
    ...initialGroups(free.filter((unit) => !locked.has(unit.operation.key))).map((members) => toCluster(members, table)),
  ];
  const history = new Agglomerator(initial, table).run(limits, Math.max(1, limits.maxTools - groups.length));
  const groupsAt = (state: number): OperationGroup[] => [
    ...groups,
    ...history.replay(state).map((cluster) => ({ units: cluster.units, ...(cluster.locked ? { lockedName: cluster.locked } : {}) })),
  ];
  return {
    stateAt: (tokenBudget) => history.stateAt(tokenBudget),
    groupsAt,
    lastState: history.lastState,
  };
}

function constant(groups: OperationGroup[]): Grouping {
  return { stateAt: () => 0, groupsAt: () => groups, lastState: 0 };
}

/** The clusters once the natural merges are done, and every later merge with the state it leaves. */
class MergeHistory {
  private readonly steps: Array<{ keep: number; drop: number; tokens: number; count: number }> = [];

  constructor(
    private readonly start: Cluster[],
    private readonly startTokens: number,
    private readonly maxTools: number,
  ) {}

  record(keep: number, drop: number, tokens: number, count: number): void {
    this.steps.push({ keep, drop, tokens, count });
  }

  /** State n: the clusters after the first n recorded merges. */
  get lastState(): number {
    return this.steps.length;
  }

  /** The first state that fits the budget and the tool limit (the last state when none does). */
  stateAt(tokenBudget: number): number {
    const fits = (tokens: number, count: number) => tokens <= tokenBudget && count <= this.maxTools;
    if (fits(this.startTokens, this.start.length)) return 0;
    const index = this.steps.findIndex((step) => fits(step.tokens, step.count));
    return index < 0 ? this.steps.length : index + 1;
  }

  /** The clusters at a state. */
  replay(stop: number): Array<Pick<Cluster, 'units' | 'locked'>> {
    const clusters: Array<Pick<Cluster, 'units' | 'locked'> | undefined> = this.start.map((cluster) => ({
      units: cluster.units,
      ...(cluster.locked ? { locked: cluster.locked } : {}),
    }));
    for (const { keep, drop } of this.steps.slice(0, stop)) {
      const a = clusters[keep] as Pick<Cluster, 'units' | 'locked'>;
      const b = clusters[drop] as Pick<Cluster, 'units' | 'locked'>;
      const locked = a.locked ?? b.locked;
      clusters[keep] = { units: [...a.units, ...b.units], ...(locked ? { locked } : {}) };
      clusters[drop] = undefined;
    }
    return clusters.filter((cluster): cluster is Pick<Cluster, 'units' | 'locked'> => cluster !== undefined);
  }
}

function initialKey(unit: GroupingUnit): string {
  const group = unit.operation.extension.group;
  if (group !== undefined) return `${unit.intent} group:${group}`;
  return `${unit.intent} ${unit.resource.join('/')}`;
}

/**
 * Operations on the same resource with the same intent start as one group, split where it would exceed the caps
 * no merge may pass: a path skeleton can put a hundred operations on one resource (every call of an RPC API on
 * one URL), and one tool with a hundred actions is harder to use than several.
 */
function initialGroups(units: GroupingUnit[]): GroupingUnit[][] {
  return coarsen(byKey(units, initialKey).flatMap(splitOversized));
}

/**
 * Most initial groups the clustering starts from. It keeps a score for every pair of one intent, so its memory and
 * time grow with the square of the groups: Microsoft Graph's 11,422 operations start as 8,887 groups (minutes of work
 * and, when all pairs were kept, a 630 MB score table). GitHub's 1,223 operations start as about 1,000.
 */
const MAX_INITIAL_GROUPS = 2_000;

/**
 * Above the limit, groups of one intent (and tag) whose resources share their first segments are joined, the
 * longest shared prefix first, until few enough remain: the same groups the clustering would join first anyway,
 * since a shared resource prefix is most of their affinity. The caps still hold for every joined group.
 */
function coarsen(groups: GroupingUnit[][]): GroupingUnit[][] {
  if (groups.length <= MAX_INITIAL_GROUPS) return groups;
  const deepest = Math.max(0, ...groups.map((members) => members[0]?.resource.length ?? 0));
  // Each group with the resource prefix its members share, so that a pass compares prefixes, not every member's path.
  let current = groups.map(withPrefix);
  for (let depth = deepest - 1; depth >= 0 && current.length > MAX_INITIAL_GROUPS; depth--) {
    const keyOf = ({ members, prefix }: Prefixed) => {
      const first = members[0] as GroupingUnit;
      const pinned = first.operation.extension.group;
      if (pinned !== undefined) return `${first.intent} group:${pinned}`;
      return `${first.intent} ${prefix.slice(0, depth).join('/')}`;
    };
    const joined = new Map<string, Prefixed[]>();
    for (const group of current) {
      const key = keyOf(group);
      const list = joined.get(key);
      if (list) list.push(group);
      else joined.set(key, [group]);
    }
    current = [...joined.keys()].sort(compareStrings).flatMap((key) => {
      const parts = joined.get(key) ?? [];
      // A group joined with no other stays as it is: splitting what splitOversized made gives it back unchanged.
      if (parts.length === 1) return parts;
      return splitOversized(parts.flatMap((part) => part.members)).map(withPrefix);
    });
  }
  return current.map((group) => group.members);
}

type Prefixed = { members: GroupingUnit[]; prefix: string[] };

function withPrefix(members: GroupingUnit[]): Prefixed {
  return { members, prefix: commonPrefix(members.map((unit) => unit.resource)) };
}

function splitOversized(members: GroupingUnit[]): GroupingUnit[][] {
  if (members.length <= MAX_RELAXED_ACTIONS) {
    // Counted with repeats first: most groups are far below the cap, and then their distinct names are too.
    const withRepeats = members.reduce((sum, unit) => sum + unit.argumentNames.length, 0);
    if (withRepeats <= MAX_RELAXED_ARGUMENTS || new Set(members.flatMap((unit) => unit.argumentNames)).size <= MAX_RELAXED_ARGUMENTS)
      return [members];
  }
  const sorted = [...members].sort((a, b) => compareStrings(a.operation.key, b.operation.key));
  const parts: GroupingUnit[][] = [];
  let part: GroupingUnit[] = [];
  let names = new Set<string>();
  for (const unit of sorted) {
    const fresh = new Set(unit.argumentNames.filter((name) => !names.has(name)));
    if (part.length > 0 && (part.length >= MAX_RELAXED_ACTIONS || names.size + fresh.size > MAX_RELAXED_ARGUMENTS)) {
      parts.push(part);
      part = [];
      names = new Set(unit.argumentNames);
    } else for (const name of fresh) names.add(name);
    part.push(unit);
  }
  parts.push(part);
  return parts;
}

function byKey(units: GroupingUnit[], keyOf: (unit: GroupingUnit) => string): GroupingUnit[][] {
  const map = new Map<string, GroupingUnit[]>();
  for (const unit of units) {
    const key = keyOf(unit);
    const list = map.get(key);
    if (list) list.push(unit);
    else map.set(key, [unit]);
  }
  return [...map.keys()].sort(compareStrings).map((key) => map.get(key) ?? []);
}

type Cluster = {
  id: string;
  /** Position of `id` among all initial ids: ties between pairs break on it without comparing strings. */
  rank: number;
  intent: Intent;
  pinnedGroup: boolean;
  /** Tool name from the lock file: such clusters never merge with each other. */
  locked?: string;
  units: GroupingUnit[];
  /** The resource words every member's path holds, as ascending word ids: what the tool may be named after. */
  words: number[];
  /** How deep each of those words stands in the members' paths, on average (parallel to `words`). */
  depths: number[];
  /** How specific those words are together. */
  weight: number;
  /** Intent and words: two live clusters never share it, so no two tools share a name. */
  nameKey: number;
  resource: string[];
  /** Identifying parameters, tag words and argument names as ascending ids (WordTable.idsOf): compared by merging. */
  identity: number[];
  tagWords: number[];
  argumentNames: number[];
};

/** One operation's resource words as ascending ids, and how deep in its path each first appears (0 = first segment). */
type UnitWords = { ids: number[]; depths: number[] };

/**
 * Resource words as small integers, with their weights: pair checks compare sorted id lists, not strings. A word
 * weighs by how rare it is and how high in the path it stands: in `/teams/{id}/users/{user_id}` the operation is
 * about a team's users, so losing `teams` costs more than losing `users`.
 */
class WordTable {
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

  /** Weight of `ids` at the given depths (parallel), or of the ids of `words` that `keep` holds. */
  weight(words: UnitWords, keep?: readonly number[]): number {
    let sum = 0;
    words.ids.forEach((id, index) => {
      if (keep && !keep.includes(id)) return;
      sum += (this.rarity[id] ?? 0) / (1 + (words.depths[index] ?? 0));
    });
    return sum;
  }
}

/** The words both hold, each at the size-weighted mean of its two depths. */
function intersectWords(a: UnitWords, sizeA: number, b: UnitWords, sizeB: number): UnitWords {
  const ids: number[] = [];
  const depths: number[] = [];
  forShared(a.ids, b.ids, (i, j) => {
    ids.push(a.ids[i] as number);
    depths.push(((a.depths[i] as number) * sizeA + (b.depths[j] as number) * sizeB) / (sizeA + sizeB));
  });
  return { ids, depths };
}

const INTENT_CODE: Record<Intent, number> = { read: 1, write: 2, delete: 3 };

/** A number for intent + words, unique in practice (two independent 26-bit hashes). */
function nameKeyOf(intent: Intent, words: readonly number[]): number {
  let high = INTENT_CODE[intent];
  let low = INTENT_CODE[intent] * 7919;
  for (const id of words) {
    high = (Math.imul(high, 31) + id + 1) & 0x3ffffff;
    low = (Math.imul(low, 131) + id + 17) & 0x3ffffff;
  }
  return high * 0x4000000 + low;
}

/** Calls `both` with the positions in `a` and in `b` of every id the two ascending lists both hold, in order. */
function forShared(a: readonly number[], b: readonly number[], both: (i: number, j: number) => void): void {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      both(i, j);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
}

/** Ids both ascending lists hold. */
function intersect(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  forShared(a, b, (i) => out.push(a[i] as number));
  return out;
}

/** Whether the ascending list `outer` holds every id of the ascending list `inner`. */
function contains(outer: readonly number[], inner: readonly number[]): boolean {
  let i = 0;
  for (const id of inner) {
    while (i < outer.length && (outer[i] as number) < id) i++;
    if (outer[i] !== id) return false;
  }
  return true;
}

function toCluster(units: GroupingUnit[], table: WordTable): Cluster {
  const first = units[0] as GroupingUnit;
  const tags = new Set(units.map((unit) => unit.operation.tags[0] ?? ''));
  const shared = units.map((unit) => table.wordsOf(unit)).reduce((acc, next, index) => intersectWords(acc, index, next, 1));
  const words = shared.ids;
  return {
    id: units.map((unit) => unit.operation.key).sort(compareStrings)[0] ?? '',
    rank: 0,
    intent: first.intent,
    pinnedGroup: first.operation.extension.group !== undefined,
    units,
    words,
    depths: shared.depths,
    weight: table.weight(shared),
    nameKey: nameKeyOf(first.intent, words),
    resource: commonPrefix(units.map((unit) => unit.resource)),
    identity: table.idsOf(units.flatMap((unit) => unit.identity)),
    tagWords: table.idsOf(
      [...tags].flatMap((tag) =>
        tag
          .toLowerCase()
          .split(/[^a-z0-9]+/)
          .filter(Boolean),
      ),
    ),
    argumentNames: table.idsOf(units.flatMap((unit) => unit.argumentNames)),
  };
}

function combine(a: Cluster, b: Cluster, table: WordTable): Cluster {
  const locked = a.locked ?? b.locked;
  const shared = intersectWords({ ids: a.words, depths: a.depths }, a.units.length, { ids: b.words, depths: b.depths }, b.units.length);
  const words = shared.ids;
  return {
    ...(locked ? { locked } : {}),
    id: a.id < b.id ? a.id : b.id,
    rank: Math.min(a.rank, b.rank),
    intent: a.intent,
    pinnedGroup: false,
    units: [...a.units, ...b.units],
    words,
    depths: shared.depths,
    weight: table.weight(shared),
    nameKey: nameKeyOf(a.intent, words),
    resource: commonPrefix([a.resource, b.resource]),
    identity: union(a.identity, b.identity),
    tagWords: union(a.tagWords, b.tagWords),
    argumentNames: union(a.argumentNames, b.argumentNames),
  };
}

/**
 * Rough tokens of a tool with these members in `tools/list` at the leanest detail (fitted to rendered tools of the
 * corpus: each action is a line of the description and a value of the `action` enum), to decide how far to merge
 * before rendering; the budget fitting leans schemas afterwards.
 */
function estimatedTokens(cluster: Cluster): number {
  return 70 + 18 * cluster.units.length + 7 * cluster.argumentNames.length;
}

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
class Agglomerator {
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

/** How strongly two groups belong together: resource path, identifying parameters, tag. */
export function affinity(
  a: Pick<Cluster, 'resource' | 'identity' | 'tagWords'>,
  b: Pick<Cluster, 'resource' | 'identity' | 'tagWords'>,
): number {
  const shorter = Math.min(a.resource.length, b.resource.length);
  // The same resource under another scope (`/companies/{id}/webhooks`, `/merchants/{id}/webhooks`) is related too.
  const prefix = shorter === 0 ? 0 : commonPrefixLength(a.resource, b.resource) / shorter;
  const suffix = shorter === 0 ? 0 : (0.8 * commonSuffixLength(a.resource, b.resource)) / shorter;
  const pathScore = Math.max(prefix, suffix);
  const paramScore =
    a.identity.length === 0 || b.identity.length === 0
      ? 0.5
      : intersectionSize(a.identity, b.identity) / Math.min(a.identity.length, b.identity.length);
  const tagUnion = unionSize(a.tagWords, b.tagWords);
  const tagScore = tagUnion === 0 ? 0.5 : intersectionSize(a.tagWords, b.tagWords) / tagUnion;
  return 0.45 * pathScore + 0.35 * paramScore + 0.2 * tagScore;
}

export function commonPrefix(lists: string[][]): string[] {
  const first = lists[0] ?? [];
  let length = 0;
  while (length < first.length && lists.every((list) => list[length] === first[length])) length++;
  return first.slice(0, length);
}

function commonPrefixLength(a: string[], b: string[]): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

function commonSuffixLength(a: string[], b: string[]): number {
  let length = 0;
  while (length < a.length && length < b.length && a[a.length - 1 - length] === b[b.length - 1 - length]) length++;
  return length;
}

/** How many ids both ascending lists hold. */
function intersectionSize(a: readonly number[], b: readonly number[]): number {
  // Walked here rather than through forShared: pair scoring calls it for every pair, and a callback per id costs.
  let count = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      count++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return count;
}

function unionSize(a: readonly number[], b: readonly number[]): number {
  return a.length + b.length - intersectionSize(a, b);
}

/** The ids either ascending list holds, ascending. */
function union(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? (a[i] as number) : Infinity;
    const y = j < b.length ? (b[j] as number) : Infinity;
    out.push(x <= y ? x : y);
    if (x <= y) i++;
    if (y <= x) j++;
  }
  return out;
}
