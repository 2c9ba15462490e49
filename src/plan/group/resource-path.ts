import type { OperationModel } from '../../model/api-model.js';
import { wordsOf } from '../text/words.js';

/** Segments that only version or namespace an API and say nothing about the resource. */
const VERSION_SEGMENT = /^(v\d+([._]\d+)*[a-z]*|\d{4}[-_]\d{2}[-_]\d{2}|\d+(\.\d+)*|api|rest|latest)$/i;

/**
 * Path keys that send every call to one URL and name the operation in a literal query or fragment (AWS query APIs:
 * `/#Action=DescribeClusters`, `/?Action=RunInstances`).
 */
const RPC_ACTION = /[?#&](?:action|operation|method|op)=([A-Za-z][A-Za-z0-9]*)/i;

/** Words that open RPC action names; what follows them names the resource (`DescribeClusterSnapshots`). */
const RPC_VERBS = new Set(
  (
    'accept add allocate apply assign associate attach authorize batch cancel check copy create delete deregister ' +
    'describe detach disable disassociate enable export get import list modify purchase put reboot register reject ' +
    'release remove replace request reset resize restore resume revoke rotate run search set start stop tag ' +
    'terminate untag update validate'
  ).split(' '),
);

/** `DescribeClusterSnapshots` → `cluster/snapshot`: the words after the verbs, the last one singular. */
function rpcActionSegments(action: string): string[] {
  const words = wordsOf(action);
  let start = 0;
  while (start < words.length - 1 && RPC_VERBS.has(words[start] ?? '')) start++;
  // An unknown verb still opens the name: `PromoteReadReplica` is about read replicas.
  if (start === 0 && words.length > 1) start = 1;
  const rest = words.slice(start);
  const last = rest.length - 1;
  rest[last] = singular(rest[last] ?? '');
  return rest;
}

function singular(word: string): string {
  if (word.length <= 3 || /(ss|us|is)$/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ch|sh|x)es$/.test(word)) return word.slice(0, -2);
  return word.endsWith('s') ? word.slice(0, -1) : word;
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
  const action = RPC_ACTION.exec(path)?.[1];
  return action ? rpcActionSegments(action).map((name) => ({ name, scoped: false })) : segments;
}

function templateSegments(path: string): Segment[] {
  const template = path.split(/[?#]/)[0] ?? path;
  const out: Segment[] = [];
  const raws = template.split('/').filter((raw) => raw !== '');
  raws.forEach((raw, index) => {
    if (/^\{[^}]*\}$/.test(raw)) return;
    const withoutParams = raw.replace(/\{[^{}]*\}/g, '').replace(/:[A-Za-z][\w-]*$/, '');
    const base = withoutParams.replace(/\.(json|xml|csv|txt|yaml)$/i, '');
    // RPC-style paths (`/admin.teams.admins.list`): the dotted parts but the last (the method) name the resource.
    const rpc = base.includes('.') && out.length === 0 ? base.split('.').filter(Boolean) : undefined;
    const parts = rpc && rpc.length > 1 ? rpc.slice(0, -1) : [base];
    const scoped = /^\{[^}]*\}$/.test(raws[index + 1] ?? '');
    parts.forEach((part, position) => {
      const words = wordsOf(part);
      if (words.length > 0) out.push({ name: words.join('_'), scoped: scoped && position === parts.length - 1 });
    });
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
  for (const [key, list] of segments) {
    let rest = list.slice(common);
    while (rest.length > 1 && VERSION_SEGMENT.test(rest[0]?.name ?? '')) rest = rest.slice(1);
    out.set(
      key,
      rest.length > 0
        ? { resource: rest.map((segment) => segment.name), scopes: rest.map((segment) => segment.scoped) }
        : { resource: ['root'], scopes: [false] },
    );
  }
  return out;
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
