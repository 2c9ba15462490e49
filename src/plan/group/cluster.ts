import type { Intent } from '../../surface/surface.js';
import type { GroupingUnit } from '../drafts.js';
import { compareStrings } from '../text/words.js';
import { contains, intersection, intersectionSize, union, unionSize } from './id-lists.js';
import { commonPrefix, commonPrefixLength, commonSuffixLength } from './resource-path.js';
import { singular } from '../text/resource-words.js';
import { rememberText } from '../../kernel/text-memo.js';
import { intersectWords, type UnitWords, type WordTable } from './word-table.js';

export type Cluster = {
  id: string;
  /** Position of `id` among all initial ids: ties between pairs break on it without comparing strings. */
  rank: number;
  intent: Intent;
  pinnedGroup: boolean;
  /** Tool name from the lock file: such clusters never merge with each other. */
  locked: string | undefined;
  units: GroupingUnit[];
  /** The resource words every member's path holds, as ascending word ids: what the tool may be named after. */
  words: number[];
  /** How deep each of those words stands in the members' paths, on average (parallel to `words`). */
  depths: number[];
  /** What each of those words weighs at its depth (parallel to `words`): pair scoring sums the ones a merge keeps. */
  wordWeights: number[];
  /** How specific those words are together (the sum of `wordWeights`). */
  weight: number;
  /** Intent and words: two live clusters never share it, so no two tools share a name. */
  nameKey: number;
  resource: string[];
  /**
   * What the members' resources hold one segment below `resource` (an end mark for a member on `resource` itself), as
   * ascending ids: the resources the tool spans side by side (`repos` with labels, topics and deployments spans three).
   */
  branches: number[];
  /**
   * The resource families every member belongs to, as ascending ids: the paths its resource starts with once any
   * leading scopes are passed (`/users/{u}/gists/{g}/comments` belongs to `users`, `users/gists`, `gists` and
   * `gists/comments`, among others). Two clusters merge only when they share one (sameFamily).
   */
  roots: number[];
  /** Identifying parameters, tag words and argument names as ascending ids (WordTable.idsOf): compared by merging. */
  identity: number[];
  tagWords: number[];
  argumentNames: number[];
};

export const INTENT_CODE: Record<Intent, number> = { read: 1, write: 2, delete: 3 };

/**
 * A number for intent + words, unique in practice (two independent 26-bit hashes). `count` reads only the first ids
 * of `words`: pair scoring passes a scratch buffer it reuses for every pair.
 */
export function nameKeyOf(intent: Intent, words: ArrayLike<number>, count = words.length): number {
  let high = INTENT_CODE[intent];
  let low = INTENT_CODE[intent] * 7919;
  for (let index = 0; index < count; index++) {
    const id = words[index] as number;
    high = (Math.imul(high, 31) + id + 1) & 0x3ffffff;
    low = (Math.imul(low, 131) + id + 17) & 0x3ffffff;
  }
  return high * 0x4000000 + low;
}

/**
 * A cluster with its fields in one fixed order: every cluster the agglomerator reads has one shape (one hidden class),
 * so that its scans stay optimized rather than meeting a new shape after the first merges.
 */
function clusterOf(fields: Cluster): Cluster {
  return {
    id: fields.id,
    rank: fields.rank,
    intent: fields.intent,
    pinnedGroup: fields.pinnedGroup,
    locked: fields.locked,
    units: fields.units,
    words: fields.words,
    depths: fields.depths,
    wordWeights: fields.wordWeights,
    weight: fields.weight,
    nameKey: fields.nameKey,
    resource: fields.resource,
    branches: fields.branches,
    roots: fields.roots,
    identity: fields.identity,
    tagWords: fields.tagWords,
    argumentNames: fields.argumentNames,
  };
}

/** The same cluster at another rank. */
export function ranked(cluster: Cluster, rank: number): Cluster {
  return clusterOf({ ...cluster, rank });
}

/** The starting cluster of an initial group; `locked` is the tool name the lock file gives its operations. */
export function toCluster(units: GroupingUnit[], table: WordTable, locked?: string): Cluster {
  const first = units[0] as GroupingUnit;
  const tags = new Set(units.map((unit) => unit.operation.tags[0] ?? ''));
  const shared = units.map((unit) => table.wordsOf(unit)).reduce((acc, next, index) => intersectWords(acc, index, next, 1));
  const words = shared.ids;
  const resource = commonPrefix(units.map((unit) => unit.resource));
  return clusterOf({
    id: units.map((unit) => unit.operation.key).sort(compareStrings)[0] ?? '',
    rank: 0,
    intent: first.intent,
    pinnedGroup: first.operation.extension.group !== undefined,
    locked,
    units,
    words,
    depths: shared.depths,
    ...weighed(shared, table),
    nameKey: nameKeyOf(first.intent, words),
    resource,
    branches: branchIds(
      units.map((unit) => unit.resource[resource.length]),
      table,
    ),
    roots: units.map((unit) => familyRoots(unit, table)).reduce((shared, next) => intersection(shared, next)),
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
  });
}

export function combine(a: Cluster, b: Cluster, table: WordTable): Cluster {
  const locked = a.locked ?? b.locked;
  const span = mergedBranches(a, b, table);
  const shared = intersectWords({ ids: a.words, depths: a.depths }, a.units.length, { ids: b.words, depths: b.depths }, b.units.length);
  const words = shared.ids;
  return clusterOf({
    id: a.id < b.id ? a.id : b.id,
    rank: Math.min(a.rank, b.rank),
    intent: a.intent,
    pinnedGroup: false,
    locked: locked || undefined,
    units: [...a.units, ...b.units],
    words,
    depths: shared.depths,
    ...weighed(shared, table),
    nameKey: nameKeyOf(a.intent, words),
    resource: a.resource.slice(0, span.depth),
    branches: span.branches,
    roots: intersection(a.roots, b.roots),
    identity: union(a.identity, b.identity),
    tagWords: union(a.tagWords, b.tagWords),
    argumentNames: union(a.argumentNames, b.argumentNames),
  });
}

function branchIds(segments: ReadonlyArray<string | undefined>, table: WordTable): number[] {
  return [...new Set(segments.map((segment) => table.branchId(segment)))].sort((x, y) => x - y);
}

/**
 * The branches of two clusters once merged, and the depth of the resource they share: a side whose resource is the
 * shared one brings its branches, a side whose resource goes deeper becomes one branch (the segment it goes on with).
 */
export function mergedBranches(
  a: Pick<Cluster, 'resource' | 'branches'>,
  b: Pick<Cluster, 'resource' | 'branches'>,
  table: WordTable,
): { depth: number; branches: number[] } {
  const depth = commonPrefixLength(a.resource, b.resource);
  const side = (cluster: Pick<Cluster, 'resource' | 'branches'>) =>
    depth === cluster.resource.length ? cluster.branches : [table.branchId(cluster.resource[depth])];
  return { depth, branches: union(side(a), side(b)) };
}

/** How many branches two clusters span once merged (mergedBranches without building the list: pair checks ask it). */
export function mergedBranchCount(
  a: Pick<Cluster, 'resource' | 'branches'>,
  b: Pick<Cluster, 'resource' | 'branches'>,
  table: WordTable,
): number {
  const depth = commonPrefixLength(a.resource, b.resource);
  const wholeA = depth === a.resource.length;
  const wholeB = depth === b.resource.length;
  if (wholeA && wholeB) return unionSize(a.branches, b.branches);
  if (!wholeA && !wholeB) return a.resource[depth] === b.resource[depth] ? 1 : 2;
  const [whole, other] = wholeA ? [a, b] : [b, a];
  return whole.branches.length + (contains(whole.branches, [table.branchId(other.resource[depth])]) ? 0 : 1);
}

function weighed(words: UnitWords, table: WordTable): Pick<Cluster, 'wordWeights' | 'weight'> {
  const wordWeights = table.wordWeights(words);
  let weight = 0;
  for (const value of wordWeights) weight += value;
  return { wordWeights, weight };
}

/**
 * A resource segment in its normal form: each word singular (`users` and `user`, `gpg_keys` and `gpg_key`).
 * Remembered: every unit's resource is read, and paths repeat their segments.
 */
const segmentKey = rememberText((segment: string): string => segment.split('_').map(singular).join('_'));

/**
 * The families a unit's resource belongs to: every path its resource starts with from any position that only scopes
 * precede (a segment a parameter follows: `/repos/{owner}/{repo}`). One resource below different scopes
 * (`/orgs/{org}/actions/secrets`, `/repos/{o}/{r}/actions/secrets`) is one family; resources of one namespace
 * (`issuing/cards`, `issuing/disputes`) too; resources that only share a noun in different namespaces are not:
 * Stripe's `checkout/sessions` and `billing_portal/sessions`, `shipping_rates` and `tax_rates`.
 */
function familyRoots(unit: GroupingUnit, table: WordTable): number[] {
  const keys = unit.resource.map(segmentKey);
  const roots = new Set<number>();
  for (let start = 0; start < keys.length; start++) {
    table.addRootIds(keys, start, roots);
    if (!unit.scopes[start]) break;
  }
  return [...roots].sort((x, y) => x - y);
}

/**
 * Whether two clusters are one resource family under the words they would share (the merged tool's name): some
 * family both belong to holds every one of those words. Runner labels (`/repos/{o}/{r}/actions/runners/{id}/labels`)
 * and a repository's labels share the words `repos` and `labels`, but only the family `repos`: named `repos_labels`
 * they would claim a family that is not there.
 */
export function sameFamily(
  a: Pick<Cluster, 'roots'>,
  b: Pick<Cluster, 'roots'>,
  shared: ArrayLike<number>,
  sharedCount: number,
  table: WordTable,
): boolean {
  // Walked without callbacks or copies: the clustering asks this of most pairs of a large description once.
  const { roots: rootsA } = a;
  const { roots: rootsB } = b;
  for (let p = 0, q = 0; p < rootsA.length && q < rootsB.length;) {
    const x = rootsA[p] as number;
    const y = rootsB[q] as number;
    if (x < y) p++;
    else if (x > y) q++;
    else {
      if (holdsAll(table.rootWords(x), shared, sharedCount)) return true;
      p++;
      q++;
    }
  }
  return false;
}

/** Whether the ascending list `outer` holds each of the first `count` ids of the ascending `inner`. */
function holdsAll(outer: readonly number[], inner: ArrayLike<number>, count: number): boolean {
  let i = 0;
  for (let k = 0; k < count; k++) {
    const id = inner[k] as number;
    while (i < outer.length && (outer[i] as number) < id) i++;
    if (outer[i] !== id) return false;
  }
  return true;
}

/**
 * Rough tokens of a tool with these members in `tools/list` at the leanest detail (fitted to rendered tools of the
 * corpus: each action is a line of the description and a value of the `action` enum), to decide how far to merge
 * before rendering; the budget fitting leans schemas afterwards.
 */
export function estimatedTokens(cluster: Cluster): number {
  return 70 + 18 * cluster.units.length + 7 * cluster.argumentNames.length;
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
