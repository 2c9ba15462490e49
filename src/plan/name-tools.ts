import type { OperationModel } from '../model/api-model.js';
import type { GroupingUnit } from './group-operations.js';
import { commonPrefix } from './group-operations.js';
import { compareStrings, snakeCase, wordsOf } from './words.js';

/** Names valid for Claude, OpenAI and Gemini at once. */
export const TOOL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * A name the generated server can register: valid, and not a property every object inherits. The MCP SDK keeps tools
 * in a plain object, so a tool named `constructor` is refused as "already registered" and the server never starts.
 */
export function isUsableName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name) && !(name in Object.prototype);
}

const MAX_ACTION_LENGTH = 48;

/**
 * The action name of an operation inside a tool: `x-mcp.action` when given, else its operationId in snake case, without a leading tag
 * (`issues/list-for-repo` → `list_for_repo`); long generated ids (`patch-merchants-merchantId-…`) give way to a
 * short summary. Unique within the tool.
 */
export function actionBaseName(operation: OperationModel): string {
  const chosen = operation.extension.action ? snakeCase(operation.extension.action) : '';
  if (chosen) return shorten(chosen, MAX_ACTION_LENGTH);
  let words = wordsOf(operation.id);
  const tagWords = wordsOf(operation.tags[0] ?? '');
  // `issues/list-for-repo` and `ArchivedWorkflowService_ListArchivedWorkflows` repeat their tag: the tool says it.
  if (tagWords.length > 0 && words.length > tagWords.length + 1 && tagWords.every((word, index) => words[index] === word)) {
    words = words.slice(tagWords.length);
  }
  const summaryWords = wordsOf(operation.summary ?? '').filter((word) => !ARTICLES.has(word));
  const generated = operation.derivedId || words.length > 6 || isPathDump(words, operation);
  if (generated && summaryWords.length >= 2 && summaryWords.length <= 6) words = summaryWords;
  return shorten(words.join('_') || operation.method, MAX_ACTION_LENGTH);
}

const ARTICLES = new Set(['a', 'an', 'the']);
const METHOD_WORDS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

/** operationIds such as `post-companies-companyId-apiCredentials`: the method followed by the path. */
function isPathDump(words: string[], operation: OperationModel): boolean {
  if (!METHOD_WORDS.has(words[0] ?? '')) return false;
  const pathWords = new Set(wordsOf(operation.path.replace(/[{}]/g, ' ')));
  const rest = words.slice(1);
  return rest.length >= 2 && rest.filter((word) => pathWords.has(word)).length >= rest.length * 0.8;
}

/**
 * Unique action names for a tool's operations, in the order given (callers sort operations first). Operations
 * that would share a name (the same action under `/companies/{id}` and `/merchants/{id}`) all get the first path
 * segment that tells them apart (`cancel_order_companies`, `cancel_order_merchants`); a number is the last resort.
 */
export function nameActions(operations: OperationModel[], preferred: ReadonlyMap<string, string> = new Map()): string[] {
  // Names an earlier generation gave (from the lock file) are kept; new operations get names around them.
  const kept = operations.map((operation) => preferred.get(operation.key));
  const keptSet = new Set(kept.filter((name): name is string => Boolean(name)));
  const bases = operations.map((operation) => leadingLetter(actionBaseName(operation)));
  const names = bases.map((base, index) => {
    const twins = operations.filter((_, other) => bases[other] === base);
    if (twins.length < 2) return base;
    const distinct = distinguishingSegment(operations[index] as OperationModel, twins);
    return distinct ? shorten(`${base}_${distinct}`, MAX_ACTION_LENGTH) : base;
  });
  const taken = new Set<string>(keptSet);
  return names.map((base, index) => {
    const previous = kept[index];
    if (previous) return previous;
    let name = base;
    for (let counter = 2; taken.has(name); counter++) name = `${shorten(base, MAX_ACTION_LENGTH - 3)}_${counter}`;
    taken.add(name);
    return name;
  });
}

/** The first static path segment of `operation` that not every twin shares at the same position. */
function distinguishingSegment(operation: OperationModel, twins: OperationModel[]): string | undefined {
  const segmentsOf = (candidate: OperationModel) =>
    (candidate.path.split(/[?#]/)[0] ?? '').split('/').filter((segment) => segment && !segment.startsWith('{'));
  const own = segmentsOf(operation);
  const others = twins.filter((twin) => twin !== operation).map(segmentsOf);
  for (let index = 0; index < own.length; index++) {
    const segment = own[index] as string;
    if (others.some((list) => list[index] !== segment)) return wordsOf(segment).join('_') || undefined;
  }
  return undefined;
}

export type ToolNameInput = {
  units: GroupingUnit[];
  fixedName?: string;
  /** The name the lock file pins; used as is. */
  lockedName?: string;
  /** Name of the single action for one-operation tools. */
  singleAction?: string;
};

export type ToolNaming = { name: string; resourceLabel: string };

/**
 * Names for all tools at once, so that collisions resolve the same way every time: resource words (the last
 * static path segment the tool's operations share, more segments where two tools would collide) plus the intent
 * (`issues_read`, `pulls_comments_write`); one-operation tools are named after their operation.
 */
export function nameTools(inputs: ToolNameInput[], prefix: string | undefined, apiSlug: string): ToolNaming[] {
  const prepared = inputs.map((input) => prepare(input, apiSlug));
  const depth = prepared.map(() => 1);
  for (let round = 0; round < 8; round++) {
    const names = prepared.map((entry, index) => entry.candidate(depth[index] ?? 1));
    const counts = new Map<string, number>();
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
    let changed = false;
    prepared.forEach((entry, index) => {
      if ((counts.get(names[index] ?? '') ?? 0) > 1 && (depth[index] ?? 1) < entry.maxDepth) {
        depth[index] = (depth[index] ?? 1) + 1;
        changed = true;
      }
    });
    if (!changed) break;
  }
  const taken = new Set<string>(inputs.flatMap((input) => (input.lockedName ? [input.lockedName.toLowerCase()] : [])));
  const order = prepared.map((entry, index) => ({ entry, index })).sort((a, b) => compareStrings(a.entry.sortKey, b.entry.sortKey));
  const result: ToolNaming[] = new Array(prepared.length);
  for (const { entry, index } of order) {
    const lockedName = inputs[index]?.lockedName;
    if (lockedName) {
      result[index] = { name: lockedName, resourceLabel: entry.label };
      continue;
    }
    const base = entry.candidate(depth[index] ?? 1);
    let name = finalName(base, prefix, '');
    for (let counter = 2; taken.has(name.toLowerCase()); counter++) name = finalName(base, prefix, `_${counter}`);
    taken.add(name.toLowerCase());
    result[index] = { name, resourceLabel: inputs[index]?.singleAction ? entry.label : labelFromName(base) };
  }
  return result;
}

/** `repos_issues_read` → `repos issues`: the words that set the tool apart, also how siblings find each other. */
function labelFromName(base: string): string {
  return base.replace(/_(read|write|delete)$/, '').replace(/_/g, ' ') || 'resources';
}

type Prepared = { candidate: (depth: number) => string; maxDepth: number; label: string; sortKey: string };

function prepare(input: ToolNameInput, apiSlug: string): Prepared {
  const sortKey = input.units.map((unit) => unit.operation.key).sort(compareStrings)[0] ?? '';
  const intent = input.units[0]?.intent ?? 'read';
  if (input.fixedName) {
    const fixed = snakeCase(input.fixedName) || 'tool';
    return { candidate: () => fixed, maxDepth: 1, label: fixed.replace(/_/g, ' '), sortKey };
  }
  const segments = resourceSegments(input.units, apiSlug);
  const used = new Set(segments.flatMap((segment) => segment.split('_')));
  const refiners = subResources(input.units).filter((segment) => !segment.split('_').every((word) => used.has(word)));
  const label = labelOf(segments);
  if (input.singleAction) {
    const single = input.singleAction;
    return {
      candidate: (depth) => (depth <= 1 ? single : `${single}_${segments.slice(-1)[0] ?? intent}`),
      maxDepth: 2,
      label,
      sortKey,
    };
  }
  // Colliding names grow: first with more of the shared path, then with the sub-resources most actions act on
  // (`repos_read` → `repos_branches_read` → `repos_branches_commits_read`).
  return {
    candidate: (depth) => {
      const words = segments.slice(-Math.min(depth, segments.length));
      const extra = refiners.slice(0, Math.max(0, depth - segments.length));
      return `${[...words, ...extra].join('_')}_${intent}`;
    },
    maxDepth: Math.max(1, segments.length + Math.min(3, refiners.length)),
    label,
    sortKey,
  };
}

/** Segments right after the tool's common path, most frequent first: what sets it apart from its siblings. */
function subResources(units: GroupingUnit[]): string[] {
  const depth = commonPrefix(units.map((unit) => unit.resource)).length;
  const counts = new Map<string, number>();
  for (const unit of units) {
    const next = unit.resource[depth];
    if (next && next !== 'root') counts.set(next, (counts.get(next) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0])).map(([segment]) => segment);
}

/**
 * The resource words a tool's operations share; for operations on several resources, their shared tag, the two
 * resources most of them act on, or the API's name when they are spread wide (`asana_delete`).
 */
function resourceSegments(units: GroupingUnit[], apiSlug: string): string[] {
  const prefix = commonPrefix(units.map((unit) => unit.resource)).filter((segment) => segment !== 'root');
  if (prefix.length > 0) return prefix;
  const tags = new Set(units.map((unit) => unit.operation.tags[0] ?? ''));
  const [onlyTag] = [...tags];
  if (tags.size === 1 && onlyTag) return [snakeCase(onlyTag) || 'api'];
  const counts = new Map<string, number>();
  for (const unit of units) {
    const first = unit.resource[0];
    if (first && first !== 'root') counts.set(first, (counts.get(first) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0]));
  const top = ranked.slice(0, 2).map(([segment]) => segment);
  const covered = ranked.slice(0, 2).reduce((sum, [, count]) => sum + count, 0);
  if (top.length > 0 && covered * 2 >= units.length) return top.length > 1 ? [`${top[0]}_${top[1]}`] : top;
  if (top.length > 0) return [snakeCase(apiSlug) || 'api'];
  const tag = units.map((unit) => unit.operation.tags[0]).find(Boolean);
  return [tag ? snakeCase(tag) || 'api' : 'api'];
}

function labelOf(segments: string[]): string {
  const words = segments.slice(-2).join(' ').replace(/_/g, ' ');
  return words || 'resources';
}

function finalName(base: string, prefix: string | undefined, suffix: string): string {
  const cleanPrefix = prefix ? `${snakeCase(prefix)}_` : '';
  const room = 64 - cleanPrefix.length - suffix.length;
  return leadingLetter(`${cleanPrefix}${shorten(base, room)}${suffix}`);
}

/** Cuts at an underscore so that no word is split, keeping the last word (the intent) when it fits. */
function shorten(name: string, max: number): string {
  if (name.length <= max) return name;
  const words = name.split('_');
  const last = words.length > 1 ? `_${words[words.length - 1]}` : '';
  let head = '';
  for (const word of words.slice(0, -1)) {
    const next = head ? `${head}_${word}` : word;
    if (next.length + last.length > max) break;
    head = next;
  }
  const result = head ? `${head}${last}` : name.slice(0, max);
  return result.length <= max ? result : name.slice(0, max).replace(/_+$/, '');
}

function leadingLetter(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, '_');
  const named = /^[A-Za-z_]/.test(cleaned) ? cleaned : `op_${cleaned}`.slice(0, 64);
  return named in Object.prototype ? `${named}_op` : named;
}
