import type { OperationModel } from '../../model/api-model.js';
import { cleanText, firstSentence, wholePhrase } from '../text/sanitize-text.js';
import type { Intent } from '../../surface/surface.js';
import { mostlyRequired } from '../arguments/shared-arguments.js';
import { comparable } from '../text/resource-words.js';
import { compressNames } from '../arguments/tool-schema.js';
import { LEAN_DETAIL } from '../arguments/detail-levels.js';
import { wordsOf } from '../text/words.js';
import { rememberText } from '../../kernel/text-memo.js';
import type { ActionSummary } from '../drafts.js';
import { conditionNotes, typeNotes } from './argument-notes.js';

export type ToolDescriptionInput = {
  apiTitle: string;
  resourceLabel: string;
  /** What the actions act on below the resource (`assets`, `reactions`), most actions first. */
  contents: string[];
  intent: Intent;
  actions: ActionSummary[];
  /** Sibling tools on the same resource with another intent: `{ write: 'pets_write' }`. */
  siblings: Partial<Record<Intent, string>>;
  detail: number;
};

const INTENT_VERBS: Record<Intent, { what: string; use: string; effect: string }> = {
  read: { what: 'Reads', use: 'look up', effect: 'Read-only: it never changes anything.' },
  write: { what: 'Creates and updates', use: 'create or update', effect: 'It changes data in the API but never deletes it.' },
  delete: {
    what: 'Deletes',
    use: 'delete or remove',
    effect: 'It deletes data and that cannot be undone: confirm with the user first.',
  },
};

const LEAN_EFFECTS: Record<Intent, string> = {
  read: 'Read-only.',
  write: 'Changes data; never deletes.',
  delete: 'Deletes data for good: confirm with the user first.',
};

/** Characters of an action's summary per detail level; a summary that only repeats the action's name is left out. */
const SUMMARY_LENGTH = [120, 90, 70, 60, 55, 55, 55, 55];

/** Sub-resources the first sentence names (the title lists more). */
const SENTENCE_CONTENTS = 3;

/**
 * A tool description written for a model, deterministic and at least three sentences at every detail level: what the
 * tool does, when to use it and which sibling to use instead, every action with what it takes (paging arguments
 * included), what it returns, and its side effects. A budget that forces cuts leaves out whole optional phrases (the
 * API's name, a longer explanation, the fields of a result), never part of a sentence.
 */
export function describeTool(input: ToolDescriptionInput): string {
  return input.actions.length === 1 ? describeSingle(input) : describeMany(input);
}

/**
 * The level whose description a tool of `actions` actions has at `detail`: descriptions change at fewer levels than
 * schemas (every level from LEAN_DETAIL on reads the same, and a one-action tool's at 2 and 3), so a tool built at
 * several levels need be described only once per distinct text.
 */
export function descriptionDetail(detail: number, actions: number): number {
  if (detail >= LEAN_DETAIL) return LEAN_DETAIL;
  return actions === 1 && detail === 3 ? 2 : detail;
}

function describeSingle(input: ToolDescriptionInput): string {
  const [action] = input.actions as [ActionSummary];
  const { detail } = input;
  const lean = detail >= LEAN_DETAIL;
  const where = lean ? '' : ` in the ${input.apiTitle}`;
  const sentences = [`${sentenceCase(wholeSummary(action.summary, lean ? 100 : 200) || action.summary.replace(/[.]$/, ''))}${where}.`];
  const details = detail <= 1 ? cleanText(action.operation.description, detail === 0 ? 400 : 200).text : '';
  if (details && !details.toLowerCase().startsWith(action.summary.toLowerCase())) sentences.push(details.replace(/([^.!?…])$/, '$1.'));
  sentences.push(lean ? leanWhenToUse(input) : whenToUse(input));
  if (action.needs.length > 0) sentences.push(`It needs ${listText(action.needs)}.`);
  for (const condition of conditionNotes(action)) sentences.push(`${sentenceCase(condition)}.`);
  const optional = signatureOptional(action, new Set());
  if (optional.length > 0) sentences.push(`Optional: ${optional.join(', ')}.`);
  sentences.push(...closing(input, lean));
  return sentences.filter(Boolean).join(' ');
}

function describeMany(input: ToolDescriptionInput): string {
  const { actions, detail } = input;
  const lean = detail >= LEAN_DETAIL;
  // Arguments most actions need are stated on their property (or in `required`); the lines name only the others.
  const shared = mostlyRequired(actions.map((action) => action.needs));
  // Optional arguments every action takes (an API's common query parameters) are named once, not per action.
  const common = commonOptional(actions);
  const length = SUMMARY_LENGTH[Math.min(detail, SUMMARY_LENGTH.length - 1)] ?? 40;
  const known = new Set([...wordsOf(input.apiTitle), ...wordsOf(input.resourceLabel)].map(comparable));
  const lines = actions.map((action) => `- ${actionLine(action, actions, length, shared, common, known)}`);
  const opening = [whatItDoes(input, lean), lean ? leanWhenToUse(input) : whenToUse(input)];
  return [opening.join(' '), `${actionsHeading(actions, shared, common)}\n${lines.join('\n')}`, closing(input, lean).join(' ')].join('\n');
}

/** `Reads repos releases and their assets, reactions and tags in the GitHub API.` */
function whatItDoes(input: ToolDescriptionInput, lean: boolean): string {
  const { resourceLabel, contents, intent } = input;
  const own = new Set(wordsOf(resourceLabel).map(comparable));
  const below = contents.filter((content) => wordsOf(content).some((word) => !own.has(comparable(word))));
  const shown = below.slice(0, SENTENCE_CONTENTS);
  const more = below.length - shown.length;
  const listed = more > 0 ? `${shown.join(', ')} and ${more} more` : listText(shown);
  const where = lean ? '' : ` in the ${input.apiTitle}`;
  return `${INTENT_VERBS[intent].what} ${resourceLabel}${listed ? ` and their ${listed}` : ''}${where}.`;
}

/** What comes back, deprecations and the side effects. */
function closing(input: ToolDescriptionInput, lean: boolean): string[] {
  const { actions, intent } = input;
  const sentences = [returnsSentence(actions, intent, lean)];
  const paged = pagingSentence(actions, lean);
  if (paged) sentences.push(paged);
  const deprecated = actions.filter((action) => action.operation.deprecated).map((action) => action.name || action.operation.id);
  if (deprecated.length > 0)
    sentences.push(actions.length === 1 ? 'The API marks it deprecated.' : `Deprecated by the API: ${deprecated.join(', ')}.`);
  sentences.push(lean ? LEAN_EFFECTS[intent] : INTENT_VERBS[intent].effect);
  return sentences.filter(Boolean);
}

/** Optional arguments that every action lists, in the first action's order; none for fewer than two actions. */
function commonOptional(actions: ActionSummary[]): Set<string> {
  if (actions.length < 2) return new Set();
  const [first, ...rest] = actions as [ActionSummary, ...ActionSummary[]];
  const others = rest.map((action) => new Set(action.optional ?? []));
  return new Set((first.optional ?? []).filter((name) => others.every((set) => set.has(name))));
}

function whenToUse(input: ToolDescriptionInput): string {
  const alternatives = (['read', 'write', 'delete'] as const)
    .filter((intent) => intent !== input.intent && input.siblings[intent])
    .map((intent) => `to ${INTENT_VERBS[intent].use} use ${input.siblings[intent]}`);
  const use = `Use it to ${INTENT_VERBS[input.intent].use} ${input.resourceLabel}`;
  return alternatives.length > 0 ? `${use}; ${alternatives.join(', ')}.` : `${use}.`;
}

/** The sibling tools in few words: `To change them use releases_write; to delete, releases_delete.` */
function leanWhenToUse(input: ToolDescriptionInput): string {
  const labels: Record<Intent, string> = { read: 'look them up', write: 'change them', delete: 'delete' };
  const alternatives = (['read', 'write', 'delete'] as const)
    .filter((intent) => intent !== input.intent && input.siblings[intent])
    .map((intent) => `to ${labels[intent]} use ${input.siblings[intent]}`);
  return alternatives.length > 0
    ? `${sentenceCase(alternatives.join('; '))}.`
    : `Use it to ${INTENT_VERBS[input.intent].use} ${input.resourceLabel}.`;
}

/** `Actions (all also need owner, repo):` — what the signatures (`name(needed, optional?)`) leave out. */
function actionsHeading(actions: ActionSummary[], shared: Set<string>, common: Set<string>): string {
  const notes: string[] = [];
  if (shared.size > 0) {
    const all = actions.every((action) => [...shared].every((name) => action.needs.includes(name)));
    notes.push(`${all ? 'all' : 'most'} also need ${[...shared].join(', ')}`);
  }
  if (common.size > 0) notes.push(`all also take optional ${compressNames([...common]).join(', ')}`);
  return notes.length > 0 ? `Actions (${notes.join('; ')}):` : 'Actions:';
}

/**
 * The optional arguments an action's signature names: the ones the lean schema leaves to the description, and its
 * paging arguments always — a list whose paging a model cannot see is a list it reads only the first page of.
 */
function signatureOptional(action: ActionSummary, common: Set<string>): string[] {
  const paging = action.pagination?.arguments ?? [];
  const optional = [...new Set([...(action.optional ?? []), ...paging])].filter(
    (name) => !common.has(name) && !action.needs.includes(name),
  );
  return compressNames(optional);
}

/**
 * `list_for_repo(state?, labels?): list repository issues` — a signature, and the summary only when it adds words;
 * then what the tool's merged schema cannot say of this action: an argument's own type where another action types it
 * otherwise (`get(help_center_id: integer)`), and requirements that depend on other arguments (`title is required
 * when state is sent`).
 */
function actionLine(
  action: ActionSummary,
  actions: ActionSummary[],
  length: number,
  shared: Set<string>,
  common: Set<string>,
  known: ReadonlySet<string>,
): string {
  const summary = summaryPhrase(action, length, known);
  const types = new Map(typeNotes(action, actions).map((note) => note.split(': ') as [string, string]));
  const typed = (name: string, mark: string) => {
    const type = types.get(name);
    types.delete(name);
    return type ? `${name}${mark}: ${type}` : `${name}${mark}`;
  };
  // A shared argument stays out of the line unless this action types it otherwise: then it is said, typed.
  const needs = action.needs.filter((name) => !shared.has(name) || types.has(name)).map((name) => typed(name, ''));
  const signature = [...needs, ...signatureOptional(action, common).map((name) => typed(name, '?'))];
  const call = signature.length > 0 ? `${action.name}(${signature.join(', ')})` : action.name;
  const notes = [...[...types].map(([name, type]) => `${name}: ${type}`), ...conditionNotes(action)];
  const said = summary ? `${call}: ${summary}` : call;
  return notes.length > 0 ? `${said}${summary ? '; ' : ': '}${notes.join('; ')}` : said;
}

/** Words that say nothing an action's name does not: articles, joiners, the name's own words. */
const FILLER = new Set([
  'a',
  'an',
  'the',
  'of',
  'for',
  'to',
  'in',
  'on',
  'by',
  'and',
  'or',
  'with',
  'from',
  'all',
  'given',
  'specific',
  'single',
]);

/** The words of an action's summary that may say more than its name: all but FILLER, in comparable form. */
export function summaryWords(summary: string): string[] {
  return wordsOf(summary)
    .filter((word) => !FILLER.has(word))
    .map(comparable);
}

/** The words of an action's name in comparable form: every level a tool is described at reads them for every action. */
const nameWords = rememberText((name: string): ReadonlySet<string> => new Set(wordsOf(name).map(comparable)));

/**
 * The action's summary, lower-cased, when it says more than the action's name, the tool's resource and the API's name
 * do (`list_for_repo: list repository issues`; nothing for `get_release` and "Get a release"). A summary too long for
 * the level is left out whole rather than cut: the action's name and arguments still say what it does.
 */
function summaryPhrase(action: ActionSummary, length: number, known: ReadonlySet<string>): string {
  // An operation without summary or description is summarised by its method and path, which the name already says.
  if (/^[A-Z]+ \//.test(action.summary)) return '';
  const named = nameWords(action.name);
  const adds = action.summaryWords.some((word) => !named.has(word) && !known.has(word));
  if (!adds) return '';
  const text = wholeSummary(action.summary, length);
  if (!text) return '';
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/** A summary without its full stop, whole when it fits in `length`, else up to its first clause that does, else none. */
function wholeSummary(summary: string, length: number): string {
  return wholePhrase(summary, length).replace(/[.]$/, '');
}

/**
 * What the actions return, from their success responses: `Returns a Release (id, tag_name, name).`, `Each action
 * returns …`, or per action for the first few. Lean, the field lists go; the shape stays.
 */
function returnsSentence(actions: ActionSummary[], intent: Intent, lean: boolean): string {
  const shape = (action: ActionSummary) => (lean ? action.returns.replace(/ \([^()]*\)$/, '') : action.returns);
  const described = actions.filter((action) => action.returns);
  if (described.length === 0) return intent === 'read' ? 'It returns the API’s JSON response.' : 'It returns the API’s answer.';
  if (actions.length === 1) return `It returns ${shape(described[0] as ActionSummary)}.`;
  const distinct = [...new Set(described.map(shape))];
  if (distinct.length === 1 && described.length === actions.length) return `Each action returns ${distinct[0]}.`;
  const shown = described.slice(0, lean ? 2 : 3).map((action) => `${action.name} ${shape(action)}`);
  const rest = described.length > shown.length || described.length < actions.length ? '; the others the API’s JSON response' : '';
  return `It returns, by action: ${shown.join('; ')}${rest}.`;
}

/** How lists page, once the signatures have named each action's paging arguments. */
function pagingSentence(actions: ActionSummary[], lean: boolean): string {
  const paged = actions.filter((action) => action.pagination);
  if (paged.length === 0) return '';
  const subject =
    actions.length === 1
      ? 'Results come in pages'
      : paged.length === actions.length
        ? 'Lists come in pages'
        : 'Lists with paging arguments come in pages';
  return lean
    ? `${subject}: the result says when there is more.`
    : `${subject}: the result says when there is a next page and how to ask for it.`;
}

/** A one-line summary of an operation: its summary, else the first sentence of its description, else method and path. */
export function summarize(operation: OperationModel): string {
  const fromSummary = cleanText(operation.summary, 200).text;
  const fromDescription = fromSummary ? '' : firstSentence(cleanText(operation.description, 400).text, 160);
  const text = (fromSummary || fromDescription).replace(/[.!?…]+$/, '').trim();
  return text || `${operation.method.toUpperCase()} ${operation.path.split(/[?#]/)[0]}`;
}

function sentenceCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function listText(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
