import type { OperationModel } from '../../model/api-model.js';
import { singular } from '../text/resource-words.js';
import { RPC_QUALIFIERS, rpcAction } from '../text/rpc-action.js';
import { wordsOf } from '../text/words.js';
import { rememberText } from '../../kernel/text-memo.js';

/** Segments that only version or namespace an API and say nothing about the resource. */
const VERSION_SEGMENT = /^(v\d+([._]\d+)*[a-z]*|\d{4}[-_]\d{2}[-_]\d{2}|\d+(\.\d+)*|api|rest|latest)$/i;

/** Words that open RPC action names; what follows them names the resource (`DescribeClusterSnapshots`). */
const RPC_VERBS = new Set(
  (
    'accept add allocate apply assign associate attach authorize batch cancel check copy create delete deregister ' +
    'describe detach disable disassociate enable export get import list modify purchase put reboot register reject ' +
    'release remove replace request reset resize restore resume revoke rotate run search set start stop tag ' +
    'terminate untag update validate'
  ).split(' '),
);

/** Words that join the nouns of an action and name nothing (`RemoveFromGlobalCluster` is about global clusters). */
const RPC_JOINERS = new Set(['from', 'to', 'for', 'of', 'in', 'on', 'by', 'with', 'and', 'the', 'a', 'an', 'into']);

/** `DescribeClusterSnapshots` → `cluster/snapshot`: the words after the qualifiers and verbs, the last one singular. */
function rpcActionSegments(action: string): string[] {
  const words = wordsOf(action);
  let start = 0;
  while (start < words.length - 1 && RPC_QUALIFIERS.has(words[start] ?? '')) start++;
  const verbs = start;
  while (start < words.length - 1 && RPC_VERBS.has(words[start] ?? '')) start++;
  // An unknown verb still opens the name: `PromoteReadReplica` is about read replicas.
  if (start === verbs && words.length > start + 1) start++;
  const rest = words.slice(start).filter((word) => !RPC_JOINERS.has(word));
  if (rest.length === 0) return [];
  const last = rest.length - 1;
  rest[last] = singular(rest[last] ?? '');
  return rest;
}

/** A resource segment and whether a path parameter follows it (`/repos/{owner}/{repo}`: repos names a scope). */
type Segment = { name: string; scoped: boolean };

/** Static segments of the path template, without parameters, extensions, `:verbs` or RPC method suffixes. */
export function staticSegments(path: string): string[] {
  return segmentsOf(path).map((segment) => segment.name);
}

function segmentsOf(path: string): Segment[] {
  const segments = templateSegments(path);
  if (segments.length > 0) return segments;
  const action = rpcAction(path);
  return action ? rpcActionSegments(action).map((name) => ({ name, scoped: false })) : segments;
}

function templateSegments(path: string): Segment[] {
  const template = path.split(/[?#]/)[0] ?? path;
  const out: Segment[] = [];
  const raws = template.split('/').filter((raw) => raw !== '');
  raws.forEach((raw, index) => {
    if (isParameter(raw)) return;
    const scoped = isParameter(raws[index + 1] ?? '');
    for (const { name, last } of (out.length === 0 ? firstSegmentParts : laterSegmentParts)(raw))
      out.push({ name, scoped: scoped && last });
  });
  return out;
}

const isParameter = (raw: string) => /^\{[^}]*\}$/.test(raw);

/** A resource name a raw path segment gives, and whether it is the segment's last part (a parameter may follow it). */
type SegmentPart = { name: string; last: boolean };

/** The names a raw segment gives, by whether it comes before any other: paths repeat their segments. Only read. */
const firstSegmentParts = rememberText((raw: string) => segmentParts(raw, true));
const laterSegmentParts = rememberText((raw: string) => segmentParts(raw, false));

function segmentParts(raw: string, first: boolean): SegmentPart[] {
  // OData keys and function arguments (`/users({id})`, `getYammerActivityUserDetail(period='{period}')`) are
  // parameters too: a function is one resource whatever arguments it is called with.
  const withoutParams = raw
    .replace(/\{[^{}]*\}/g, '')
    .replace(/\([^()]*\)/g, '')
    .replace(/:[A-Za-z][\w-]*$/, '');
  const base = withoutParams.replace(/\.(json|xml|csv|txt|yaml)$/i, '');
  // RPC-style paths (`/admin.teams.admins.list`): the dotted parts but the last (the method) name the resource.
  const rpc = base.includes('.') && first ? base.split('.').filter(Boolean) : undefined;
  const parts = rpc && rpc.length > 1 ? rpc.slice(0, -1) : [base];
  const out: SegmentPart[] = [];
  parts.forEach((part, position) => {
    const words = wordsOf(part);
    if (words.length > 0) out.push({ name: words.join('_'), last: position === parts.length - 1 });
  });
  return out;
}

/** An operation's resource: its segments below the API's shared prefix, and which of them a parameter follows. */
export type ResourcePath = { resource: string[]; scopes: boolean[] };

/**
 * Resource paths of the operations: static segments after the prefix every operation shares (`/api/v2`,
 * `/2010-04-01/Accounts`) and after leading version segments. `/repos/{owner}/{repo}/issues/{n}/comments` →
 * `repos/issues/comments`.
 */
export function resourcePaths(operations: readonly OperationModel[]): Map<string, ResourcePath> {
  const segments = new Map(operations.map((operation) => [operation.key, segmentsOf(operation.path)]));
  const all = [...segments.values()];
  let common = 0;
  if (all.length > 1) {
    const first = all[0] ?? [];
    while (common < first.length && all.every((list) => list.length > common + 1 && list[common]?.name === first[common]?.name)) common++;
  }
  const out = new Map<string, ResourcePath>();
  const ids = new Map(operations.map((operation) => [operation.key, operation]));
  for (const [key, list] of segments) {
    let rest = list.slice(common);
    while (rest.length > 1 && VERSION_SEGMENT.test(rest[0]?.name ?? '')) rest = rest.slice(1);
    // A path that names only its version (Google's `/v1/{+name}:cancel`, the resource in a parameter): the dotted
    // operationId names it (`aiplatform.projects.locations.datasets.operations.cancel`).
    const operation = ids.get(key);
    if (rest.every((segment) => VERSION_SEGMENT.test(segment.name)) && operation && !operation.derivedId) {
      const dotted = dottedIdSegments(operation.id);
      if (dotted.length > 0) rest = dotted;
    }
    out.set(
      key,
      rest.length > 0
        ? { resource: rest.map((segment) => segment.name), scopes: rest.map((segment) => segment.scoped) }
        : { resource: ['root'], scopes: [false] },
    );
  }
  return out;
}

/**
 * `service.projects.locations.datasets.get` → projects, locations, datasets: the parts between the service and the
 * method, every one but the last taken for a scope (the path carries each one's id in the parameter).
 */
function dottedIdSegments(id: string): Segment[] {
  const parts = id.split('.').filter(Boolean);
  if (parts.length < 3) return [];
  const names = parts
    .slice(1, -1)
    .map((part) => wordsOf(part).join('_'))
    .filter(Boolean);
  return names.map((name, index) => ({ name, scoped: index < names.length - 1 }));
}

export function commonPrefix(lists: string[][]): string[] {
  const first = lists[0] ?? [];
  let length = 0;
  while (length < first.length && lists.every((list) => list[length] === first[length])) length++;
  return first.slice(0, length);
}

export function commonPrefixLength(a: string[], b: string[]): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

export function commonSuffixLength(a: string[], b: string[]): number {
  let length = 0;
  while (length < a.length && length < b.length && a[a.length - 1 - length] === b[b.length - 1 - length]) length++;
  return length;
}
