import type { OperationModel } from '../model/api-model.js';
import type { Intent } from './tool-plan.js';
import { compareStrings } from './words.js';

export type Strategy = 'auto' | 'per-operation' | 'by-tag';

/** What grouping needs to know about an operation. */
export type GroupingUnit = {
  operation: OperationModel;
  intent: Intent;
  resource: string[];
  /** Path parameters and required query parameters: what identifies the thing acted on. */
  identity: string[];
  /** Every argument name the action takes, to keep a tool's parameter count in bounds. */
  argumentNames: string[];
};

/**
 * A group of operations becoming one tool. `fixedName` comes from `x-mcp.tool`; `lockedName` from the lock file of
 * an earlier generation: the tool keeps that name and its operations, and may take in new ones.
 */
export type OperationGroup = { units: GroupingUnit[]; fixedName?: string; lockedName?: string };

export type GroupingLimits = {
  maxTools: number;
  /** Actions in a tool formed by natural merging; relaxed step by step only to meet the budgets. */
  maxActions: number;
  maxArguments: number;
  /** Tokens the whole tool list may take; small tools are merged while the estimate is over it. */
  tokenBudget: number;
};

/** Affinity at or above which two groups belong in one tool whatever the budget (same resource, shared parameters). */
const NATURAL_AFFINITY = 0.6;
/** Tags are the vendor's own grouping: crossing them needs near-identical resources and parameters. */
const CROSS_TAG_AFFINITY = 0.9;
/** Caps of the relaxed limits: a tool larger than this is harder to use than two tools. */
const MAX_RELAXED_ACTIONS = 40;
const MAX_RELAXED_ARGUMENTS = 90;

/**
 * Stage 3a: groups operations into tools by the chosen strategy. Tools never mix reads, writes and deletions
 * (unless `x-mcp.tool` puts operations together explicitly), so every annotation stays true for every action.
 */
export function groupOperations(
  units: GroupingUnit[],
  strategy: Strategy,
  limits: GroupingLimits,
  locked = new Map<string, string>(),
): OperationGroup[] {
  const fixed = new Map<string, GroupingUnit[]>();
  const free: GroupingUnit[] = [];
  for (const unit of units) {
    const name = unit.operation.extension.tool;
    if (name) fixed.set(name, [...(fixed.get(name) ?? []), unit]);
    else free.push(unit);
  }
  const groups: OperationGroup[] = [...fixed].map(([fixedName, members]) => ({ units: members, fixedName }));
  if (strategy === 'per-operation') return [...groups, ...free.map((unit) => ({ units: [unit] }))];
  if (locked.size > 0 && strategy === 'auto') {
    const pinned = byKey(
      free.filter((unit) => locked.has(unit.operation.key)),
      (unit) => locked.get(unit.operation.key) ?? '',
    );
    const rest = free.filter((unit) => !locked.has(unit.operation.key));
    const useTags = tagsAreInformative(free);
    const initial = [
      ...pinned.map((members) => ({ ...toCluster(members, useTags), locked: locked.get(members[0]!.operation.key) })),
      ...initialGroups(rest, useTags).map((members) => toCluster(members, useTags)),
    ];
    const merged = new Agglomerator(initial).run(limits, Math.max(1, limits.maxTools - groups.length));
    return [...groups, ...merged.map((cluster) => ({ units: cluster.units, ...(cluster.locked ? { lockedName: cluster.locked } : {}) }))];
  }
  if (strategy === 'by-tag')
    return [...groups, ...byKey(free, (unit) => `${unit.intent} ${unit.operation.tags[0] ?? ''}`).map((members) => ({ units: members }))];
  const useTags = tagsAreInformative(free);
  const initial = initialGroups(free, useTags).map((members) => toCluster(members, useTags));
  const merged = new Agglomerator(initial).run(limits, Math.max(1, limits.maxTools - groups.length));
  return [...groups, ...merged.map((cluster) => ({ units: cluster.units }))];
}

/**
 * Tags are a grouping signal only when they partition the API into several groups; one tag for everything (Plaid,
 * Xero) says nothing, and then the path skeleton decides alone.
 */
function tagsAreInformative(units: GroupingUnit[]): boolean {
  const tags = new Set(units.map((unit) => unit.operation.tags[0] ?? ''));
  return tags.size >= 3 || (tags.size >= 2 && units.length <= 24);
}

function initialKey(unit: GroupingUnit, useTags: boolean): string {
  const group = unit.operation.extension.group;
  if (group !== undefined) return `${unit.intent} group:${group}`;
  return `${unit.intent} ${useTags ? (unit.operation.tags[0] ?? '') : ''} ${unit.resource.join('/')}`;
}

/**
 * Operations on the same resource with the same intent start as one group, split where it would exceed the caps
 * no merge may pass: a path skeleton can put a hundred operations on one resource (every call of an RPC API on
 * one URL), and one tool with a hundred actions is harder to use than several.
 */
function initialGroups(units: GroupingUnit[], useTags: boolean): GroupingUnit[][] {
  return coarsen(byKey(units, (unit) => initialKey(unit, useTags)).flatMap(splitOversized), useTags);
}

/**
 * Most initial groups the clustering starts from. It keeps a score for every pair, so its memory and time grow with
 * the square of the groups: Microsoft Graph's 11,422 operations start as 8,887 groups (a 630 MB score table and
 * minutes of work). GitHub's 1,223 operations start as about 1,000.
 */
const MAX_INITIAL_GROUPS = 2_000;

/**
 * Above the limit, groups of one intent (and tag) whose resources share their first segments are joined, the
 * longest shared prefix first, until few enough remain: the same groups the clustering would join first anyway,
 * since a shared resource prefix is most of their affinity. The caps still hold for every joined group.
 */
function coarsen(groups: GroupingUnit[][], useTags: boolean): GroupingUnit[][] {
  const deepest = Math.max(0, ...groups.map((members) => members[0]?.resource.length ?? 0));
  let current = groups;
  for (let depth = deepest - 1; depth >= 0 && current.length > MAX_INITIAL_GROUPS; depth--) {
    const keyOf = (members: GroupingUnit[]) => {
      const first = members[0] as GroupingUnit;
      const pinned = first.operation.extension.group;
      if (pinned !== undefined) return `${first.intent} group:${pinned}`;
      const prefix = commonPrefix(members.map((unit) => unit.resource)).slice(0, depth);
      return `${first.intent} ${useTags ? (first.operation.tags[0] ?? '') : ''} ${prefix.join('/')}`;
    };
    const joined = new Map<string, GroupingUnit[]>();
    for (const members of current) {
      const key = keyOf(members);
      const list = joined.get(key);
      if (list) list.push(...members);
      else joined.set(key, [...members]);
    }
    current = [...joined.keys()].sort(compareStrings).flatMap((key) => splitOversized(joined.get(key) ?? []));
  }
  return current;
}

function splitOversized(members: GroupingUnit[]): GroupingUnit[][] {
  const argumentCount = new Set(members.flatMap((unit) => unit.argumentNames)).size;
  if (members.length <= MAX_RELAXED_ACTIONS && argumentCount <= MAX_RELAXED_ARGUMENTS) return [members];
  const sorted = [...members].sort((a, b) => compareStrings(a.operation.key, b.operation.key));
  const parts: GroupingUnit[][] = [];
  let part: GroupingUnit[] = [];
  let names = new Set<string>();
  for (const unit of sorted) {
    const joined = new Set([...names, ...unit.argumentNames]);
    if (part.length > 0 && (part.length >= MAX_RELAXED_ACTIONS || joined.size > MAX_RELAXED_ARGUMENTS)) {
      parts.push(part);
      part = [];
      names = new Set(unit.argumentNames);
    } else names = joined;
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
  intent: Intent;
  /** Primary tag when tags are informative and all members share it; merging stays inside a tag first. */
  tag: string;
  pinnedGroup: boolean;
  /** Tool name from the lock file: such clusters never merge with each other. */
  locked?: string;
  units: GroupingUnit[];
  resource: string[];
  identity: Set<string>;
  tagWords: Set<string>;
  argumentNames: Set<string>;
};

function toCluster(units: GroupingUnit[], useTags: boolean): Cluster {
  const first = units[0] as GroupingUnit;
  const tags = new Set(units.map((unit) => unit.operation.tags[0] ?? ''));
  return {
    id: units.map((unit) => unit.operation.key).sort(compareStrings)[0] ?? '',
    intent: first.intent,
    tag: useTags && tags.size === 1 ? (first.operation.tags[0] ?? '') : '',
    pinnedGroup: first.operation.extension.group !== undefined,
    units,
    resource: commonPrefix(units.map((unit) => unit.resource)),
    identity: new Set(units.flatMap((unit) => unit.identity)),
    tagWords: new Set(
      [...tags].flatMap((tag) =>
        tag
          .toLowerCase()
          .split(/[^a-z0-9]+/)
          .filter(Boolean),
      ),
    ),
    argumentNames: new Set(units.flatMap((unit) => unit.argumentNames)),
  };
}

function combine(a: Cluster, b: Cluster): Cluster {
  const tag = a.tag !== '' && a.tag === b.tag ? a.tag : '';
  const locked = a.locked ?? b.locked;
  return {
    ...(locked ? { locked } : {}),
    id: a.id < b.id ? a.id : b.id,
    intent: a.intent,
    tag,
    pinnedGroup: false,
    units: [...a.units, ...b.units],
    resource: commonPrefix([a.resource, b.resource]),
    identity: new Set([...a.identity, ...b.identity]),
    tagWords: new Set([...a.tagWords, ...b.tagWords]),
    argumentNames: new Set([...a.argumentNames, ...b.argumentNames]),
  };
}

/** Rough tokens of a tool with these members in `tools/list`, to decide how far to merge before rendering. */
function estimatedTokens(cluster: Cluster): number {
  return 90 + 7 * cluster.units.length + 9 * cluster.argumentNames.size;
}

type Rule = { maxActions: number; maxArguments: number; minAffinity: number; sameTag: boolean };

/**
 * Agglomerative clustering with cached pair scores and, per cluster, its best allowed partner: merging the closest
 * allowed pair costs O(n) instead of rescanning every pair. Ties break on cluster ids, so the result never depends
 * on the order of the description.
 */
class Agglomerator {
  private readonly clusters: Array<Cluster | undefined>;
  private readonly scores: Float64Array;
  private readonly size: number;

  constructor(initial: Cluster[]) {
    this.clusters = [...initial];
    this.size = initial.length;
    this.scores = new Float64Array(this.size * this.size).fill(-1);
    for (let i = 0; i < this.size; i++) for (let j = i + 1; j < this.size; j++) this.setScore(i, j, this.pairScore(i, j));
  }

  run(limits: GroupingLimits, maxTools: number): Cluster[] {
    const natural = { maxActions: limits.maxActions, maxArguments: limits.maxArguments };
    this.mergeWhile({ ...natural, minAffinity: 0, sameTag: true }, () => true);
    this.mergeWhile({ ...natural, minAffinity: NATURAL_AFFINITY, sameTag: false }, () => true);
    const overBudget = () => this.alive().reduce((sum, cluster) => sum + estimatedTokens(cluster), 0) > limits.tokenBudget * 0.8;
    const overCount = () => this.alive().length > maxTools;
    for (let relax = 1; relax <= 4 && (overBudget() || overCount()); relax *= 1.25) {
      const rule = {
        maxActions: Math.min(MAX_RELAXED_ACTIONS, Math.ceil(limits.maxActions * relax)),
        maxArguments: Math.min(MAX_RELAXED_ARGUMENTS, Math.ceil(limits.maxArguments * relax)),
        sameTag: false,
      };
      // Over budget, even unrelated groups of one intent merge (closest first): one `delete` tool with twenty
      // actions costs far less than twenty one-action tools and is just as easy to use.
      this.mergeWhile({ ...rule, minAffinity: 0 }, () => overBudget() || overCount());
    }
    for (let relax = 1; overCount() && relax < 1e6; relax *= 2) {
      this.mergeWhile(
        { maxActions: limits.maxActions * 4 * relax, maxArguments: limits.maxArguments * 4 * relax, minAffinity: 0, sameTag: false },
        overCount,
      );
    }
    return this.alive();
  }

  private alive(): Cluster[] {
    return this.clusters.filter((cluster): cluster is Cluster => cluster !== undefined);
  }

  private score(i: number, j: number): number {
    return i < j ? (this.scores[i * this.size + j] as number) : (this.scores[j * this.size + i] as number);
  }

  private setScore(i: number, j: number, value: number): void {
    if (i < j) this.scores[i * this.size + j] = value;
    else this.scores[j * this.size + i] = value;
  }

  private pairScore(i: number, j: number): number {
    const a = this.clusters[i];
    const b = this.clusters[j];
    if (!a || !b || a.intent !== b.intent || a.pinnedGroup || b.pinnedGroup || (a.locked && b.locked)) return -1;
    return affinity(a, b);
  }

  private allowed(i: number, j: number, rule: Rule): boolean {
    const a = this.clusters[i];
    const b = this.clusters[j];
    if (!a || !b) return false;
    const score = this.score(i, j);
    if (score < 0) return false;
    if (rule.sameTag && (a.tag === '' || a.tag !== b.tag)) return false;
    const crossesTags = a.tag !== '' && b.tag !== '' && a.tag !== b.tag;
    if (score < (crossesTags && rule.minAffinity > 0 && rule.minAffinity >= NATURAL_AFFINITY ? CROSS_TAG_AFFINITY : rule.minAffinity))
      return false;
    if (a.units.length + b.units.length > rule.maxActions) return false;
    return unionSize(a.argumentNames, b.argumentNames) <= rule.maxArguments;
  }

  /** True when (i, j) beats (k, l): higher score, then smaller ids. */
  private better(i: number, j: number, k: number, l: number): boolean {
    const difference = this.score(i, j) - this.score(k, l);
    if (difference !== 0) return difference > 0;
    return this.pairKey(i, j) < this.pairKey(k, l);
  }

  private pairKey(i: number, j: number): string {
    const a = this.clusters[i]?.id ?? '';
    const b = this.clusters[j]?.id ?? '';
    return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
  }

  private bestPartner(i: number, rule: Rule): number {
    let best = -1;
    for (let j = 0; j < this.size; j++) {
      if (j === i || !this.allowed(i, j, rule)) continue;
      if (best < 0 || this.better(i, j, i, best)) best = j;
    }
    return best;
  }

  private mergeWhile(rule: Rule, keepGoing: () => boolean): void {
    const partner = new Int32Array(this.size).fill(-1);
    for (let i = 0; i < this.size; i++) if (this.clusters[i]) partner[i] = this.bestPartner(i, rule);
    while (keepGoing()) {
      let bestI = -1;
      for (let i = 0; i < this.size; i++) {
        const j = partner[i] as number;
        if (j < 0) continue;
        if (bestI < 0 || this.better(i, j, bestI, partner[bestI] as number)) bestI = i;
      }
      if (bestI < 0) return;
      const bestJ = partner[bestI] as number;
      const [keep, drop] = bestI < bestJ ? [bestI, bestJ] : [bestJ, bestI];
      this.clusters[keep] = combine(this.clusters[keep] as Cluster, this.clusters[drop] as Cluster);
      this.clusters[drop] = undefined;
      partner[drop] = -1;
      for (let k = 0; k < this.size; k++) {
        if (k !== keep && this.clusters[k]) this.setScore(keep, k, this.pairScore(keep, k));
        else if (k !== keep) this.setScore(keep, k, -1);
      }
      partner[keep] = this.bestPartner(keep, rule);
      for (let k = 0; k < this.size; k++) {
        if (k === keep || !this.clusters[k]) continue;
        const current = partner[k] as number;
        if (current === keep || current === drop || (current >= 0 && !this.allowed(k, current, rule)))
          partner[k] = this.bestPartner(k, rule);
        else if (this.allowed(k, keep, rule) && (current < 0 || this.better(k, keep, k, current))) partner[k] = keep;
      }
    }
  }
}

/** How strongly two groups belong together: resource path, identifying parameters, tag. */
export function affinity(
  a: Pick<Cluster, 'resource' | 'identity' | 'tagWords'>,
  b: Pick<Cluster, 'resource' | 'identity' | 'tagWords'>,
): number {
  const shorter = Math.min(a.resource.length, b.resource.length);
  // The same resource under another scope (`/companies/{id}/webhooks`, `/merchants/{id}/webhooks`) is related too.
  const prefix = shorter === 0 ? 0 : commonPrefix([a.resource, b.resource]).length / shorter;
  const suffix = shorter === 0 ? 0 : (0.8 * commonSuffixLength(a.resource, b.resource)) / shorter;
  const pathScore = Math.max(prefix, suffix);
  const paramScore =
    a.identity.size === 0 || b.identity.size === 0
      ? 0.5
      : intersectionSize(a.identity, b.identity) / Math.min(a.identity.size, b.identity.size);
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

function commonSuffixLength(a: string[], b: string[]): number {
  let length = 0;
  while (length < a.length && length < b.length && a[a.length - 1 - length] === b[b.length - 1 - length]) length++;
  return length;
}

function intersectionSize(a: Set<string>, b: Set<string>): number {
  let count = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const item of small) if (large.has(item)) count++;
  return count;
}

function unionSize(a: Set<string>, b: Set<string>): number {
  return a.size + b.size - intersectionSize(a, b);
}
