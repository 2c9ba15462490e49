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

export type OperationGroup = { units: GroupingUnit[]; fixedName?: string };

export type GroupingLimits = {
  maxTools: number;
  /** Actions in a tool formed by natural merging; relaxed only to meet `maxTools`. */
  maxActions: number;
  maxArguments: number;
};

/** Affinity at or above which two groups of the same intent belong in one tool even when the tool count is low. */
const NATURAL_AFFINITY = 0.6;
const CROSS_TAG_AFFINITY = 0.9;
const TARGET_ACTIONS = 8;

/** Stage 3a: groups operations into tools by the chosen strategy. Groups never mix intents unless the description asks. */
export function groupOperations(units: GroupingUnit[], strategy: Strategy, limits: GroupingLimits): OperationGroup[] {
  const fixed = new Map<string, GroupingUnit[]>();
  const free: GroupingUnit[] = [];
  for (const unit of units) {
    const name = unit.operation.extension.tool;
    if (name) fixed.set(name, [...(fixed.get(name) ?? []), unit]);
    else free.push(unit);
  }
  const groups: OperationGroup[] = [...fixed].map(([fixedName, members]) => ({ units: members, fixedName }));
  if (strategy === 'per-operation') return [...groups, ...free.map((unit) => ({ units: [unit] }))];
  if (strategy === 'by-tag')
    return [...groups, ...byKey(free, (unit) => `${unit.intent} ${unit.operation.tags[0] ?? ''}`).map((members) => ({ units: members }))];
  const useTags = tagsAreInformative(free);
  const initial = byKey(free, (unit) => initialKey(unit, useTags)).map((members) => toCluster(members, useTags));
  const merged = mergeClusters(initial, limits, Math.max(1, limits.maxTools - groups.length));
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

function byKey(units: GroupingUnit[], keyOf: (unit: GroupingUnit) => string): GroupingUnit[][] {
  const map = new Map<string, GroupingUnit[]>();
  for (const unit of units) map.set(keyOf(unit), [...(map.get(keyOf(unit)) ?? []), unit]);
  return [...map.keys()].sort(compareStrings).map((key) => map.get(key) ?? []);
}

type Cluster = {
  id: string;
  intent: Intent;
  /** Primary tag when tags are informative; merging stays inside a tag first. */
  tag: string;
  units: GroupingUnit[];
  resource: string[];
  tags: Set<string>;
  identity: Set<string>;
  argumentNames: Set<string>;
  pinnedGroup: boolean;
};

function toCluster(units: GroupingUnit[], useTags: boolean): Cluster {
  const first = units[0] as GroupingUnit;
  const tags = new Set(units.map((unit) => unit.operation.tags[0] ?? ''));
  return {
    id: units.map((unit) => unit.operation.key).sort(compareStrings)[0] ?? '',
    intent: first.intent,
    tag: useTags && tags.size === 1 ? (first.operation.tags[0] ?? '') : '',
    units,
    resource: commonPrefix(units.map((unit) => unit.resource)),
    tags: new Set(units.flatMap((unit) => unit.operation.tags.slice(0, 1))),
    identity: new Set(units.flatMap((unit) => unit.identity)),
    argumentNames: new Set(units.flatMap((unit) => unit.argumentNames)),
    pinnedGroup: first.operation.extension.group !== undefined,
  };
}

function combine(a: Cluster, b: Cluster): Cluster {
  return toCluster([...a.units, ...b.units], a.tag !== '' && a.tag === b.tag);
}

/**
 * Agglomerative merging: first every pair whose affinity shows they act on one resource with shared parameters,
 * within the natural limits; then, while there are more tools than allowed, the closest remaining pairs under
 * limits relaxed step by step. Ties break on the clusters' ids, so the result does not depend on input order.
 */
function mergeClusters(initial: Cluster[], limits: GroupingLimits, maxTools: number): Cluster[] {
  let clusters = initial;
  clusters = mergeWhile(clusters, { ...limits, minAffinity: 0, stopAt: 0, sameTag: true });
  clusters = mergeWhile(clusters, { ...limits, minAffinity: NATURAL_AFFINITY, stopAt: 0 });
  // Every tool costs a name, a description and a schema wrapper in the model's context: small tools are merged
  // with their closest relatives until tools hold about TARGET_ACTIONS actions on average.
  const operations = initial.reduce((sum, cluster) => sum + cluster.units.length, 0);
  const target = Math.min(maxTools, Math.max(1, Math.ceil(operations / TARGET_ACTIONS)));
  clusters = mergeWhile(clusters, {
    maxActions: Math.ceil(limits.maxActions * 1.34),
    maxArguments: limits.maxArguments,
    minAffinity: 0.2,
    stopAt: target,
  });
  let relax = 1;
  while (clusters.length > maxTools && relax <= 64) {
    relax *= 1.5;
    clusters = mergeWhile(clusters, {
      maxActions: Math.ceil(limits.maxActions * relax),
      maxArguments: Math.ceil(limits.maxArguments * relax),
      minAffinity: 0,
      stopAt: maxTools,
    });
  }
  return clusters;
}

type MergeRule = { maxActions: number; maxArguments: number; minAffinity: number; stopAt: number; sameTag?: boolean };

function mergeWhile(start: Cluster[], rule: MergeRule): Cluster[] {
  const clusters = [...start];
  for (;;) {
    if (rule.stopAt > 0 && clusters.length <= rule.stopAt) return clusters;
    let best: { i: number; j: number; score: number; key: string } | undefined;
    for (let i = 0; i < clusters.length; i++) {
      const a = clusters[i] as Cluster;
      for (let j = i + 1; j < clusters.length; j++) {
        const b = clusters[j] as Cluster;
        if (a.intent !== b.intent || a.pinnedGroup || b.pinnedGroup) continue;
        if (rule.sameTag && (a.tag === '' || a.tag !== b.tag)) continue;
        if (a.units.length + b.units.length > rule.maxActions) continue;
        const score = affinity(a, b);
        // Tags are the vendor's own grouping: crossing them needs near-identical resources and parameters.
        const crossesTags = a.tag !== '' && b.tag !== '' && a.tag !== b.tag;
        if (score < (crossesTags && rule.minAffinity > 0 ? CROSS_TAG_AFFINITY : rule.minAffinity)) continue;
        const key = a.id < b.id ? `${a.id}\u0000${b.id}` : `${b.id}\u0000${a.id}`;
        if (!best || score > best.score || (score === best.score && key < best.key)) {
          if (unionSize(a.argumentNames, b.argumentNames) > rule.maxArguments) continue;
          best = { i, j, score, key };
        }
      }
    }
    if (!best) return clusters;
    const merged = combine(clusters[best.i] as Cluster, clusters[best.j] as Cluster);
    clusters.splice(best.j, 1);
    clusters.splice(best.i, 1, merged);
  }
}

/** How strongly two groups belong together: resource path, identifying parameters, tag. */
export function affinity(a: Pick<Cluster, 'resource' | 'identity' | 'tags'>, b: Pick<Cluster, 'resource' | 'identity' | 'tags'>): number {
  const shorter = Math.min(a.resource.length, b.resource.length);
  // The same resource under another scope (`/companies/{id}/webhooks`, `/merchants/{id}/webhooks`) is related too.
  const prefix = shorter === 0 ? 0 : commonPrefix([a.resource, b.resource]).length / shorter;
  const suffix = shorter === 0 ? 0 : (0.8 * commonPrefix([[...a.resource].reverse(), [...b.resource].reverse()]).length) / shorter;
  const pathScore = Math.max(prefix, suffix);
  const paramScore =
    a.identity.size === 0 || b.identity.size === 0
      ? 0.5
      : intersectionSize(a.identity, b.identity) / Math.min(a.identity.size, b.identity.size);
  const tagScore = a.tags.size === 0 && b.tags.size === 0 ? 0.5 : jaccard(tagWords(a.tags), tagWords(b.tags));
  return 0.45 * pathScore + 0.35 * paramScore + 0.2 * tagScore;
}

function tagWords(tags: Set<string>): Set<string> {
  return new Set(
    [...tags].flatMap((tag) =>
      tag
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter(Boolean),
    ),
  );
}

function jaccard(a: Set<string>, b: Set<string>): number {
  const union = unionSize(a, b);
  return union === 0 ? 0 : intersectionSize(a, b) / union;
}

export function commonPrefix(lists: string[][]): string[] {
  const first = lists[0] ?? [];
  let length = 0;
  while (length < first.length && lists.every((list) => list[length] === first[length])) length++;
  return first.slice(0, length);
}

function intersectionSize(a: Set<string>, b: Set<string>): number {
  let count = 0;
  for (const item of a) if (b.has(item)) count++;
  return count;
}

function unionSize(a: Set<string>, b: Set<string>): number {
  return a.size + b.size - intersectionSize(a, b);
}
