import type { OperationModel } from '../../model/api-model.js';
import type { GroupingUnit } from '../drafts.js';
import { resourceWords, sharedWords, singular, surfaceForms, WordWeights } from '../text/resource-words.js';
import { compareStrings, snakeCase, wordsOf } from '../text/words.js';

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
  // A bare verb left over (`issues/create`) takes the tag's noun after it: `create_issue`, `list_issues`.
  if (tagWords.length > 0 && words.length > tagWords.length && tagWords.every((word, index) => words[index] === word)) {
    const rest = words.slice(tagWords.length);
    const noun = rest[0] && COLLECTION_VERBS.has(rest[0]) ? tagWords : [...tagWords.slice(0, -1), singular(tagWords.at(-1) ?? '')];
    words = rest.length === 1 ? [...rest, ...noun] : rest;
  }
  const summaryWords = wordsOf(operation.summary ?? '').filter((word) => !ARTICLES.has(word));
  const generated = operation.derivedId || words.length > 6 || isPathDump(words, operation);
  if (generated && summaryWords.length >= 2 && summaryWords.length <= 6) words = summaryWords;
  return shorten(words.join('_') || operation.method, MAX_ACTION_LENGTH);
}

const ARTICLES = new Set(['a', 'an', 'the']);
/** Verbs that act on a collection and take its plural: `list_issues`, `get_issue`. */
const COLLECTION_VERBS = new Set(['list', 'search', 'find', 'query', 'count']);
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
export function nameActions(
  operations: OperationModel[],
  preferred: ReadonlyMap<string, string> = new Map(),
  toolWords: readonly string[] = [],
): string[] {
  // Names an earlier generation gave (from the lock file) are kept; new operations get names around them.
  const kept = operations.map((operation) => preferred.get(operation.key));
  // Every action named before (a regeneration of a tool that did not change): those names are the answer, and the
  // naming below would only be overruled by them.
  if (kept.every(Boolean)) return kept as string[];
  const keptSet = new Set(kept.filter((name): name is string => Boolean(name)));
  const full = operations.map((operation) => leadingLetter(actionBaseName(operation)));
  // Without the words the tool's name says (`allergies_list` in allergies_read is `list`), unless two would meet.
  const own = new Set(toolWords);
  const lean = full.map((name) => withoutToolWords(name, own));
  const bases = lean.map((name, index) => (lean.filter((other) => other === name).length > 1 ? (full[index] as string) : name));
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

/** Words that join others and name nothing, at either end of an action's name once tool words are gone. */
const JOINERS = new Set(['for', 'of', 'by', 'to', 'in', 'on', 'with', 'from', 'and', 'the', 'a', 'an', 'id', 'api']);

/**
 * An action's name without the words its tool's name already says (`create_release` in repos_releases_write is
 * `create`, `update_release_asset` is `update_asset`), and without joiners left dangling; the name as it was when
 * nothing but those would be left.
 */
function withoutToolWords(name: string, toolWords: ReadonlySet<string>): string {
  if (toolWords.size === 0) return name;
  const words = name.split('_').filter((word) => !toolWords.has(singular(word)));
  while (words.length > 0 && JOINERS.has(words[0] as string)) words.shift();
  while (words.length > 0 && (JOINERS.has(words.at(-1) as string) || words.at(-1) === 'my')) words.pop();
  return words.length > 0 && /^[a-z]/.test(words[0] as string) ? words.join('_') : name;
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
  /** For a one-action tool, its action's name (`delete_pet`). */
  actionName?: string;
};

export type ToolNaming = {
  name: string;
  /** The resource in words (`repos issues`); tools on the same resource with other intents share it. */
  resourceLabel: string;
  /** What the actions act on below that resource (`comments`, `events`), most actions first. */
  contents: string[];
};

/** The longest name a host allows: Claude, OpenAI and Gemini cap names at 64 characters. */
export const MAX_NAME_LENGTH = 64;
/**
 * The default length of a generated name, prefix included: room for a host's own prefix within 64 characters
 * (Claude Code calls a tool `mcp__<server>__<tool>`).
 */
export const DEFAULT_NAME_LENGTH = 40;

/**
 * `draftOf`: a tool's name draft, made by `make` or answered from work kept for the same input (PlanMemo.shared: a
 * draft reads only the input's units, names and `byAction`).
 */
type NameOptions = { byAction?: boolean; maxLength?: number; draftOf?: (input: ToolNameInput, make: () => NameDraft) => NameDraft };

/**
 * Names for all tools at once, so that collisions resolve the same way every time: the resource words every
 * action's path shares, in path order and as the paths write them, plus the intent (`repos_issues_read`,
 * `repos_pulls_write`), each word once, within `maxLength` characters (the least specific words go first). Never
 * after the API, never with a number.
 */
export function nameTools(inputs: ToolNameInput[], prefix: string | undefined, options: NameOptions = {}): ToolNaming[] {
  const allWords = inputs.flatMap((input) => input.units.map((unit) => resourceWords(unit.resource)));
  const weights = new WordWeights(allWords);
  const maxLength = options.maxLength ?? DEFAULT_NAME_LENGTH;
  // A name that would start with a digit is written `op_…` (leadingLetter): its room is three characters less.
  const room = (words: string[]) => maxLength - prefixLength(prefix) - (!prefix && /^[0-9]/.test(words[0] ?? '') ? 3 : 0);
  const fit = (words: string[]) => finalName(fitName(words, weights, room(words)), prefix, '', maxLength);
  const { draftOf } = options;
  const make = (input: ToolNameInput) => draftName(input, options.byAction ?? false);
  const drafts = inputs.map((input) => (draftOf ? draftOf(input, () => make(input)) : make(input)));
  const taken = new Set<string>(inputs.flatMap((input) => (input.lockedName ? [input.lockedName.toLowerCase()] : [])));
  const order = drafts.map((draft, index) => ({ draft, index })).sort((a, b) => compareStrings(a.draft.sortKey, b.draft.sortKey));
  const bases = drafts.map((draft) => fit(draft.candidates[0] ?? ['tool']));
  const counts = new Map<string, number>();
  for (const base of bases) counts.set(base, (counts.get(base) ?? 0) + 1);
  const result: ToolNaming[] = new Array(drafts.length);
  for (const { draft, index } of order) {
    const lockedName = inputs[index]?.lockedName;
    if (lockedName) {
      result[index] = { name: lockedName, resourceLabel: draft.label, contents: draft.contents };
      continue;
    }
    // Tools that would share a name take the first longer candidate (a sub-resource) that sets them apart.
    const candidates = (counts.get(bases[index] as string) ?? 0) > 1 ? draft.candidates.slice(1) : draft.candidates;
    let name = '';
    for (const candidate of [...candidates, ...draft.candidates]) {
      const full = fit(candidate);
      if (!taken.has(full.toLowerCase())) {
        name = full;
        break;
      }
    }
    // Only identical tools of identical resources can get here; a counter is better than an invalid surface.
    for (let counter = 2; !name; counter++) {
      const full = finalName(bases[index] as string, undefined, `_${counter}`, maxLength);
      if (!taken.has(full.toLowerCase())) name = full;
    }
    taken.add(name.toLowerCase());
    result[index] = { name, resourceLabel: draft.label, contents: draft.contents };
  }
  return result;
}

/** A candidate name as its words, the intent last: shortened and joined only once the length is known. */
export type NameDraft = { candidates: string[][]; label: string; contents: string[]; sortKey: string };

function draftName(input: ToolNameInput, byAction: boolean): NameDraft {
  const sortKey = input.units.map((unit) => unit.operation.key).sort(compareStrings)[0] ?? '';
  const intent = input.units[0]?.intent ?? 'read';
  if (input.fixedName) {
    const fixed = snakeCase(input.fixedName) || 'tool';
    return { candidates: [[fixed]], label: fixed.replace(/_/g, ' '), contents: [], sortKey };
  }
  const sorted = [...input.units].sort((a, b) => compareStrings(a.operation.key, b.operation.key));
  const own = sorted.map((unit) => resourceWords(unit.resource));
  const shared = sharedWords(own.map((words) => words.keys));
  // Words as this tool's own paths write them (`secret_scanning`, though most of the API's paths say `secrets`).
  const surface = surfaceForms(own);
  const contents = subResources(sorted, shared, false);
  const distinctions = subResources(sorted, shared, true);
  const words =
    shared.length > 0 ? shared.map((key) => surface.get(key) ?? key) : distinctions.slice(0, 3).flatMap((content) => wordsOf(content));
  const base = words.length > 0 ? words : wordsOf(actionWords(sorted)).length > 0 ? wordsOf(actionWords(sorted)) : ['resources'];
  // Longer candidates, for tools that would otherwise share a name: the sub-resources most actions act on.
  const longer = distinctions.map((content) => [...base, ...wordsOf(content)]);
  const named = shared.length > 0;
  const listed = contents.length > 5 ? [...contents.slice(0, 5), `${contents.length - 5} more`] : contents;
  const resourceNames = [base, ...longer].map((candidate) => [...candidate, intent]);
  // One tool per operation is named after its action (`delete_pet`, as a reader of the API would say it); any
  // one-action tool whose resource names are taken falls back to that name.
  const { actionName } = input;
  const byName = actionName ? [actionName.split('_')] : [];
  const candidates = byAction ? [...byName, ...resourceNames] : [...resourceNames, ...byName];
  return {
    candidates,
    label: named ? words.join(' ').replace(/_/g, ' ') : listText(listed) || 'resources',
    contents: named ? contents : [],
    sortKey,
  };
}

/**
 * The words of a name, each once (`sage_sage_voice` says `sage` once), within `room` characters: the least specific
 * words go first (`repos` before `actions_runners`), the last word (the intent) stays.
 */
function fitName(words: string[], weights: WordWeights, room: number): string {
  const seen = new Set<string>();
  const once = words.filter((word) => {
    const key = singular(word);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const last = once.length - 1;
  let kept = once.map((word, index) => ({ word, index }));
  const length = () => kept.reduce((sum, { word }) => sum + word.length + 1, -1);
  while (length() > room && kept.length > 2) {
    const weakest = kept
      .filter(({ index }) => index !== last)
      .sort((a, b) => weights.of([singular(a.word)]) - weights.of([singular(b.word)]) || a.index - b.index)[0];
    kept = kept.filter((entry) => entry !== weakest);
  }
  return kept.map(({ word }) => word).join('_');
}
/**
 * What the actions act on below the shared words: for each action the first path segment after them that adds a
 * word, as the path writes it (`code scanning`); counted, most frequent first. For a tool of unrelated resources
 * (no shared word), the first segment of each.
 */
function subResources(units: GroupingUnit[], shared: string[], withScopes: boolean): string[] {
  const counts = new Map<string, number>();
  const isShared = (word: string) => shared.includes(singular(word));
  for (const unit of units) {
    const { segments } = resourceWords(unit.resource);
    let last = -1;
    segments.forEach((words, index) => {
      if (words.some(isShared)) last = index;
    });
    // Below the shared words first (`actions/runners`), else the qualified resource itself (`gpg_keys`), else (for
    // names only: it tells two tools apart, but is no part of what they act on) the scope it sits in (`orgs`).
    const adds = (words: string[]) => words.length > 0 && !words.every(isShared);
    const own = segments[last] ?? [];
    const scope = withScopes ? segments.slice(0, Math.max(0, last)).reverse().find(adds) : undefined;
    const next = segments.slice(last + 1).find(adds) ?? (adds(own) ? own : undefined) ?? scope;
    if (!next) continue;
    const phrase = next.join(' ');
    counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0])).map(([phrase]) => phrase);
}

/** For tools on no named resource (a path of `/` alone): the words of their first action. */
function actionWords(units: GroupingUnit[]): string {
  const first = units[0]?.operation;
  return first ? actionBaseName(first) : '';
}

function listText(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The prefix as tool names carry it (before their underscore), or undefined for none. */
export function toolPrefixOf(prefix: string | undefined): string | undefined {
  return (prefix && snakeCase(prefix)) || undefined;
}

/** `base` under `prefix`, shortened to a valid length as every generated name is. */
export function prefixedName(base: string, prefix: string | undefined): string {
  return finalName(base, prefix, '');
}

function prefixLength(prefix: string | undefined): number {
  return prefix ? snakeCase(prefix).length + 1 : 0;
}

function finalName(base: string, prefix: string | undefined, suffix: string, maxLength = MAX_NAME_LENGTH): string {
  const cleanPrefix = prefix ? `${snakeCase(prefix)}_` : '';
  // A name that would start with a digit gains `op_`, which has to fit in the length too.
  const lead = /^[A-Za-z_]/.test(`${cleanPrefix}${base}`) ? 0 : LEAD.length;
  const room = maxLength - cleanPrefix.length - suffix.length - lead;
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

/** What a name that would start with a digit begins with instead. */
const LEAD = 'op_';

function leadingLetter(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, '_');
  const named = /^[A-Za-z_]/.test(cleaned) ? cleaned : `${LEAD}${cleaned}`.slice(0, 64);
  return named in Object.prototype ? `${named}_op` : named;
}
