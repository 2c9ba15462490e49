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

/** Static segments of the path template, without parameters, extensions, `:verbs` or RPC method suffixes. */
export function staticSegments(path: string): string[] {
  const segments = templateSegments(path);
  if (segments.length > 0) return segments;
  const action = RPC_ACTION.exec(path)?.[1];
  return action ? rpcActionSegments(action) : segments;
}

function templateSegments(path: string): string[] {
  const template = path.split(/[?#]/)[0] ?? path;
  const out: string[] = [];
  for (const raw of template.split('/')) {
    if (raw === '' || /^\{[^}]*\}$/.test(raw)) continue;
    const withoutParams = raw.replace(/\{[^{}]*\}/g, '').replace(/:[A-Za-z][\w-]*$/, '');
    const base = withoutParams.replace(/\.(json|xml|csv|txt|yaml)$/i, '');
    // RPC-style paths (`/admin.teams.admins.list`): the dotted parts but the last (the method) name the resource.
    const rpc = base.includes('.') && out.length === 0 ? base.split('.').filter(Boolean) : undefined;
    const parts = rpc && rpc.length > 1 ? rpc.slice(0, -1) : [base];
    for (const part of parts) {
      const words = wordsOf(part);
      if (words.length > 0) out.push(words.join('_'));
    }
  }
  return out;
}

/**
 * Resource paths of the operations: static segments after the prefix every operation shares (`/api/v2`,
 * `/2010-04-01/Accounts`) and after leading version segments. `/repos/{owner}/{repo}/issues/{n}/comments` →
 * `repos/issues/comments`.
 */
export function resourcePaths(operations: readonly OperationModel[]): Map<string, string[]> {
  const segments = new Map(operations.map((operation) => [operation.key, staticSegments(operation.path)]));
  const all = [...segments.values()];
  let common = 0;
  if (all.length > 1) {
    const first = all[0] ?? [];
    while (common < first.length && all.every((list) => list.length > common + 1 && list[common] === first[common])) common++;
  }
  const out = new Map<string, string[]>();
  for (const [key, list] of segments) {
    let rest = list.slice(common);
    while (rest.length > 1 && VERSION_SEGMENT.test(rest[0] ?? '')) rest = rest.slice(1);
    out.set(key, rest.length > 0 ? rest : ['root']);
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
