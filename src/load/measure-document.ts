import { escapePointerToken } from '../diagnostics/json-pointer.js';

/**
 * Nesting deeper than this is refused. Real descriptions stay under 60 levels; schemas are cut at 64 schema levels
 * later anyway. The limit keeps every recursive step after loading (bundling, validation, JSON.stringify, the
 * formatter) far from the call-stack limit.
 */
export const MAX_DOCUMENT_DEPTH = 512;

/**
 * Values a parsed document may hold once YAML aliases are expanded. A 32 MB description without aliases holds about
 * 3 million; a "billion laughs" document of a few hundred bytes expands to billions, and every later stage would walk
 * them all.
 */
export const MAX_DOCUMENT_NODES = 5_000_000;

export type DocumentShape =
  { ok: true; nodes: number; depth: number } | { ok: false; problem: 'too-deep' | 'too-many-nodes' | 'cycle'; pointer: string };

type Measure = { nodes: number; depth: number };

type Frame = {
  node: object;
  keys: string[];
  index: number;
  /** Expanded values in this subtree, itself included. */
  nodes: number;
  /** Levels below this node. */
  depth: number;
  /** Token of this node in its parent: the pointer of a problem is built from the frames. */
  token: string;
};

/**
 * Measures a parsed document: how many values it holds with aliases expanded, how deep it nests, and whether an alias
 * makes it contain itself (js-yaml builds such cycles from `&a [*a]`). A plain walk answers for documents well within
 * the limits (measureTree); the rest go to measureShared, which measures shared subtrees once, so that its work is
 * linear in the text that was parsed, however far the aliases expand.
 */
export function measureDocument(root: unknown, limits = { depth: MAX_DOCUMENT_DEPTH, nodes: MAX_DOCUMENT_NODES }): DocumentShape {
  if (root === null || typeof root !== 'object') return { ok: true, nodes: 1, depth: 0 };
  const quick = measureTree(root, limits);
  if (quick) return { ok: true, ...quick };
  return measureShared(root, limits);
}

/**
 * Levels kept free below the limits by measureTree, so that a document it accepts is one measureShared would accept
 * too, with the same figures (measureShared checks depth with the stack one level ahead).
 */
const TREE_DEPTH_MARGIN = 4;

/**
 * The common case, a document without shared subtrees (JSON.parse never makes any), measured by a plain walk: no map
 * of measured nodes, no pointers. It counts shared subtrees once per place, as measureShared does, but cannot tell a
 * cycle from great depth: undefined (measure again with measureShared) as soon as the document comes near a limit, so
 * aliases that expand too far or loop cost at most the limits' worth of steps here.
 */
function measureTree(root: object, limits: { depth: number; nodes: number }): Measure | undefined {
  const maxLevel = limits.depth - TREE_DEPTH_MARGIN;
  let nodes = 0;
  let depth = 0;
  const visit = (node: object, level: number): boolean => {
    nodes += 1;
    if (level > depth) depth = level;
    if (nodes > limits.nodes || level > maxLevel) return false;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        // A hole is no value (measureShared reads only the keys there are): rare enough to leave to it.
        if (!(index in node)) return false;
        const child: unknown = node[index];
        if (child !== null && typeof child === 'object') {
          if (!visit(child, level + 1)) return false;
        } else if (!leaf(level + 1)) return false;
      }
      return true;
    }
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') {
        if (!visit(child, level + 1)) return false;
      } else if (!leaf(level + 1)) return false;
    }
    return true;
  };
  const leaf = (level: number): boolean => {
    nodes += 1;
    if (level > depth) depth = level;
    return nodes <= limits.nodes;
  };
  return visit(root, 0) ? { nodes, depth } : undefined;
}

/**
 * The general measure, without recursion: shared subtrees measured once, cycles found, a pointer to where a limit is
 * passed.
 */
export function measureShared(root: object, limits: { depth: number; nodes: number }): DocumentShape {
  const done = new Map<object, Measure>();
  const open = new Set<object>();
  const stack: Frame[] = [];
  const pointer = (extra?: string) =>
    `#${[...stack.slice(1).map((frame) => frame.token), ...(extra === undefined ? [] : [extra])]
      .map((token) => `/${escapePointerToken(token)}`)
      .join('')}`;
  const enter = (node: object, token: string) => {
    open.add(node);
    stack.push({ node, keys: Object.keys(node), index: 0, nodes: 1, depth: 0, token });
  };
  enter(root, '');
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.index < frame.keys.length) {
      const key = frame.keys[frame.index++] as string;
      const child = (frame.node as Record<string, unknown>)[key];
      if (child === null || typeof child !== 'object') {
        frame.nodes += 1;
        frame.depth = Math.max(frame.depth, 1);
      } else if (open.has(child)) {
        return { ok: false, problem: 'cycle', pointer: pointer(key) };
      } else {
        const known = done.get(child);
        if (known) {
          frame.nodes += known.nodes;
          frame.depth = Math.max(frame.depth, known.depth + 1);
        } else {
          if (stack.length >= limits.depth) return { ok: false, problem: 'too-deep', pointer: pointer(key) };
          enter(child, key);
          continue;
        }
      }
      if (frame.nodes > limits.nodes) return { ok: false, problem: 'too-many-nodes', pointer: pointer() };
      if (stack.length - 1 + frame.depth > limits.depth) return { ok: false, problem: 'too-deep', pointer: pointer(key) };
      continue;
    }
    stack.pop();
    open.delete(frame.node);
    done.set(frame.node, { nodes: frame.nodes, depth: frame.depth });
    const parent = stack[stack.length - 1];
    if (!parent) return { ok: true, nodes: frame.nodes, depth: frame.depth };
    parent.nodes += frame.nodes;
    parent.depth = Math.max(parent.depth, frame.depth + 1);
    if (parent.nodes > limits.nodes) return { ok: false, problem: 'too-many-nodes', pointer: pointer() };
  }
  return { ok: true, nodes: 0, depth: 0 };
}
