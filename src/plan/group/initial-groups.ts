import type { GroupingUnit } from '../drafts.js';
import { compareStrings } from '../text/words.js';
import { MAX_BRANCHES, MAX_RELAXED_ACTIONS, MAX_RELAXED_ARGUMENTS } from './limits.js';
import { commonPrefix, commonPrefixLength } from './resource-path.js';

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
export function initialGroups(units: GroupingUnit[]): GroupingUnit[][] {
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
 * longest shared prefix first, until few enough remain or only the first segment is left to share: the same groups
 * the clustering would join first anyway, since a shared resource prefix is most of their affinity. The caps still
 * hold for every joined group, the branch cap too (byBranches).
 */
function coarsen(groups: GroupingUnit[][]): GroupingUnit[][] {
  if (groups.length <= MAX_INITIAL_GROUPS) return groups;
  const deepest = Math.max(0, ...groups.map((members) => members[0]?.resource.length ?? 0));
  // Each group with the resource prefix its members share, so that a pass compares prefixes, not every member's path.
  let current = groups.map(withPrefix);
  // Never below the first segment: groups that share no resource are unrelated, and are never joined.
  for (let depth = deepest - 1; depth >= 1 && current.length > MAX_INITIAL_GROUPS; depth--) {
    current = byKey(current, (group) => keyAt(group, depth)).flatMap((parts) => {
      // A group joined with no other stays as it is: splitting what splitOversized made gives it back unchanged.
      if (parts.length === 1) return parts;
      return byBranches(parts).flatMap((chunk) => splitOversized(chunk.flatMap((part) => part.members)).map(withPrefix));
    });
  }
  return current.map((group) => group.members);
}

/**
 * A group with the resource prefix its members share, and the keys of a coarsening pass at each depth as they are
 * asked for: every pass keys every group, from the deepest down.
 */
type Prefixed = { members: GroupingUnit[]; prefix: string[]; keys: string[] };

/** The group's key at a depth: its intent and prefix cut there, or the `x-mcp` group its members are pinned to. */
function keyAt(group: Prefixed, depth: number): string {
  const { keys, prefix } = group;
  const at = Math.min(depth, prefix.length);
  let key = keys[at];
  if (key !== undefined) return key;
  const first = group.members[0] as GroupingUnit;
  const pinned = first.operation.extension.group;
  key = pinned !== undefined ? `${first.intent} group:${pinned}` : `${first.intent} ${prefix.slice(0, at).join('/')}`;
  keys[at] = key;
  return key;
}

/**
 * Groups of one prefix in chunks, in the order of their paths, that each span at most MAX_BRANCHES resources side by
 * side below what their members share (as the clustering counts them: it never joins more). The count is taken below
 * the chunk's own shared prefix, however deep: forty functions of one `…/functions` are forty resources, whatever
 * depth joined them.
 */
function byBranches(parts: Prefixed[]): Prefixed[][] {
  const pathOf = (part: Prefixed) => (part.members[0]?.resource ?? []).join('/');
  const sorted = [...parts].sort((a, b) => compareStrings(pathOf(a), pathOf(b)));
  const chunks: Prefixed[][] = [];
  let chunk: Prefixed[] = [];
  let shared: string[] = [];
  let segments = new Set<string>();
  const start = (part: Prefixed) => {
    chunk = [part];
    shared = part.prefix;
    segments = branchSegments(chunk, shared.length);
  };
  for (const part of sorted) {
    if (chunk.length === 0) {
      start(part);
      continue;
    }
    const length = commonPrefixLength(shared, part.prefix);
    // Only a shorter shared prefix changes what the earlier parts contribute; usually the new part adds its own.
    const wider =
      length === shared.length ? new Set([...segments, ...branchSegments([part], length)]) : branchSegments([...chunk, part], length);
    if (wider.size > MAX_BRANCHES) {
      chunks.push(chunk);
      start(part);
    } else {
      chunk.push(part);
      shared = shared.slice(0, length);
      segments = wider;
    }
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** The segments at `depth` of the parts' members (an end mark for a member that ends there). */
function branchSegments(parts: readonly Prefixed[], depth: number): Set<string> {
  const segments = new Set<string>();
  for (const part of parts) {
    if (part.prefix.length > depth) segments.add(part.prefix[depth] as string);
    else for (const member of part.members) segments.add(member.resource[depth] ?? '');
  }
  return segments;
}

function withPrefix(members: GroupingUnit[]): Prefixed {
  return { members, prefix: commonPrefix(members.map((unit) => unit.resource)), keys: [] };
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

/** The items in lists of equal keys, the lists in the order of their keys. */
export function byKey<T>(items: T[], keyOf: (item: T) => string): T[][] {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = map.get(key);
    if (list) list.push(item);
    else map.set(key, [item]);
  }
  return [...map.keys()].sort(compareStrings).map((key) => map.get(key) ?? []);
}
