import { stemmer } from 'stemmer';

/**
 * How text becomes search terms, on both sides of the index: the generator indexes actions with these functions,
 * and the generated server processes queries with its own copy (templates/runtime/search/search-terms.ts; a unit test keeps
 * the two in step). Words are split (camelCase, snake_case, paths), lower-cased and stemmed (Porter, so `repositories`
 * and `repository` meet); a small table of stems adds the words people use for the same thing (`kick` and `delete`
 * mean remove). The table travels inside the index, so the server needs no knowledge of its own.
 */

/** Stem → extra terms that stand for it: a concept (`~remove`) or the words an abbreviation stands for. */
export type TermTable = Record<string, string[]>;

/**
 * `phrases`: idioms replaced before words are split (`kick off` → `start`, `get rid of` → `remove`); `intents`: the
 * concepts that say what to do (`~remove`, `~create` …), which a query takes from its first verb only; `synonyms`:
 * stems of the verbs that stand for their intent alone in a query.
 */
export type TermData = {
  stopWords: string[];
  expansions: TermTable;
  intents: string[];
  synonyms: string[];
  phrases: Record<string, string>;
};

/**
 * Words that mean the same thing when looking for an action, grouped by concept: verbs (what to do) and a few nouns
 * every kind of API uses (people, messages, channels, pictures). Every word of a group also indexes (and queries)
 * the group's concept, so "kick Bob" finds "Remove a member" and "post a message" finds "Create a message". Only
 * words whose Porter stem names nothing else belong here: `set` would also catch `settings`, `run` the noun `runs`,
 * `generate` the word `general`, `activate` the word `activity`.
 *
 * These verbs say nothing but their intent: as a query's verb, each stands for its concept alone, so "erase the
 * message" finds "Delete a message" as well as "Remove a message".
 */
const VERBS: Record<string, string[]> = {
  remove: ['remove', 'delete', 'erase', 'destroy', 'discard', 'wipe'],
  create: ['create', 'add', 'new', 'make'],
  update: ['update', 'edit', 'modify', 'change', 'patch', 'alter', 'adjust', 'amend'],
  read: ['get', 'fetch', 'retrieve', 'read', 'show', 'view', 'display', 'see', 'inspect', 'describe', 'detail', 'lookup'],
  list: ['list', 'enumerate', 'browse', 'find', 'which'],
  start: ['start', 'begin'],
  cancel: ['cancel', 'abort', 'stop', 'halt'],
  snooze: ['snooze'],
  approve: ['approve'],
  reject: ['reject'],
  enable: ['enable'],
  disable: ['disable'],
  move: ['move', 'relocate'],
  copy: ['copy'],
  reply: ['reply', 'respond', 'answer'],
};

/**
 * Verbs that say more than their intent (`rename` is an update, but a particular one; `post` creates, and names
 * Slack's `chat.postMessage`): they index and query their concept and keep their own stem, so the action that uses
 * the very word still ranks first.
 */
const SPECIFIC_VERBS: Record<string, string> = {
  kick: 'remove',
  purge: 'remove',
  trash: 'remove',
  expel: 'remove',
  evict: 'remove',
  unassign: 'remove',
  detach: 'remove',
  post: 'create',
  send: 'create',
  submit: 'create',
  insert: 'create',
  register: 'create',
  compose: 'create',
  append: 'create',
  open: 'create',
  invite: 'create',
  rename: 'update',
  replace: 'update',
  overwrite: 'update',
  fix: 'update',
  correct: 'update',
  close: 'update',
  reopen: 'update',
  mark: 'update',
  toggle: 'update',
  archive: 'update',
  search: 'list',
  query: 'list',
  filter: 'list',
  trigger: 'start',
  launch: 'start',
  execute: 'start',
  dispatch: 'start',
  invoke: 'start',
  terminate: 'cancel',
  kill: 'cancel',
  silence: 'snooze',
  mute: 'snooze',
  accept: 'approve',
  confirm: 'approve',
  grant: 'approve',
  decline: 'reject',
  deny: 'reject',
  refuse: 'reject',
  dismiss: 'reject',
  unblock: 'enable',
  resume: 'enable',
  unpause: 'enable',
  deactivate: 'disable',
  suspend: 'disable',
  pause: 'disable',
  transfer: 'move',
  duplicate: 'copy',
  clone: 'copy',
  comment: 'reply',
};

const NOUNS: Record<string, string[]> = {
  self: ['me', 'my', 'mine', 'myself', 'current', 'authenticated', 'self'],
  person: ['user', 'member', 'person', 'people', 'participant', 'who'],
  presence: ['presence', 'online', 'offline', 'away'],
  message: ['message', 'text', 'sms', 'msg'],
  channel: ['channel', 'conversation', 'room'],
  picture: ['image', 'picture', 'photo', 'pic', 'avatar'],
  email: ['email', 'mail'],
  config: ['configuration', 'config', 'preferences'],
  webhook: ['webhook', 'hook', 'callback'],
  issue: ['issue', 'ticket'],
  task: ['task', 'todo'],
};

/** Idioms, replaced before the words are split: their words alone mean something else (`kick` alone is remove). */
const PHRASES: Record<string, string> = {
  'kick off': 'start',
  'set up': 'create',
  'sign up': 'register',
  'log in': 'authenticate',
  'logged in': 'authenticated',
  'sign in': 'authenticate',
  'signed in': 'authenticated',
  'who am i': 'authenticated user',
  'look up': 'find',
  'look for': 'search',
  'turn on': 'enable',
  'turn off': 'disable',
  'get rid of': 'remove',
  'take out': 'remove',
  'hang up': 'terminate',
  'pull up': 'show',
  'to-do': 'todo',
  'pull request': 'pr',
  'pull requests': 'pr',
  // After a verb, `me` is who is asked, not whose things are meant (`show me the teams` ≠ `my teams`).
  'show me': 'show',
  'give me': 'give',
  'tell me': 'tell',
  'send me': 'send',
  'remind me': 'remind',
  'alert me': 'alert',
  'let me': 'let',
  'help me': 'help',
};

/**
 * Words that imply others: an abbreviation what it stands for (`repo` → repository), a verb what it does (`kick` →
 * remove member, `reply` → create a comment, `ask` → request). `~name` is a concept of CONCEPTS.
 */
const IMPLIES: Record<string, string> = {
  kick: 'remove member',
  reply: '~create',
  respond: '~create',
  ask: 'request',
  // Cancelling a thing that is planned (an order, a window, a subscription) removes it.
  cancel: '~remove',
  bug: 'issue',
  profile: 'user',
  // A path's `/login` is what "log in" and "sign in" (→ authenticate) ask for.
  login: 'authenticate',
  logon: 'authenticate',
  // Nouns of actions whose Porter stem is not the verb's.
  reaction: 'react',
  subscription: 'subscribe',
  invitation: 'invite',
  creation: 'create',
  deletion: 'delete',
  registration: 'register',
  publication: 'publish',
  transcription: 'transcribe',
  repo: 'repository',
  org: 'organization',
  msg: 'message',
  dm: 'direct message',
  info: 'information',
  auth: 'authentication',
  admin: 'administrator',
  env: 'environment',
  app: 'application',
  db: 'database',
  doc: 'document',
  docs: 'document',
  stats: 'statistics',
};

/** Words that carry no meaning for finding an action; they are left out of the index and of queries. */
const STOP_WORDS = [
  'a about all also an and any are as at be been by can could do does each every for from has have how',
  'i if in into is it its of on one or our please should so some that the their them then there these',
  'they this those to us was we what when where will with would you your want need like let',
  'know tell give',
  // What is left of a contraction once the apostrophe splits it (I'm, it's, don't, we've, you'll, I'd, they're).
  'm s t ve ll d re',
]
  .join(' ')
  .split(' ');

/**
 * Splits text into words: camelCase and snake_case apart, accents dropped, letters and digits of any script kept,
 * idioms replaced first.
 */
export function tokenizer(data: TermData): (text: string) => string[] {
  const idioms = Object.keys(data.phrases).sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  // Each idiom's words, escaped, with any white space between them.
  const alternatives = idioms.map((idiom) => idiom.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
  const pattern =
    alternatives.length > 0 ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'giu') : undefined;
  return (text) => {
    const words = text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(?=\p{Lu}\p{Ll})/gu, '$1 ');
    const plain = pattern ? words.replace(pattern, (idiom) => data.phrases[idiom.toLowerCase().replace(/\s+/g, ' ')] ?? idiom) : words;
    return plain.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  };
}

/**
 * What of a request is searched for: the words that say what to do and to what. A value names no action and only
 * pulls in actions that happen to share a word with it, so values are left out, or replaced by the kind of thing
 * they are where that says something about the action (one that takes a URL, a file): quoted text (a title, a
 * message), `owner/name` slugs and file paths, e-mail addresses, ids, dates and versions (a word with a digit that is long
 * or has punctuation inside: `Q2HDKL4PXL1ZN9`, `2026-12-15`, `v3.2.0-rc.1`; short names such as `s3` or `oauth2`
 * stay) are left out; URLs become `url`, file names `file`.
 */
export function queryText(text: string): string {
  return text
    .replace(/"[^"]*"|\u201c[^\u201d]*\u201d|\u2018[^\u2019]*\u2019|\u00ab[^\u00bb]*\u00bb|`[^`]*`/g, ' ')
    .replace(/(^|[\s(\[:])'[^']*'(?=$|[\s)\].,;:!?])/g, '$1 ')
    .split(/\s+/)
    .map(valueKind)
    .join(' ');
}

const FILE_NAME =
  /\.(?:md|txt|pdf|ya?ml|json|csv|tsv|xml|html?|png|jpe?g|gif|svg|zip|gz|tar|docx?|xlsx?|pptx?|js|ts|py|rb|go|java|sh|log)$/i;

/** The word, or the kind of value it is (`url`, `file`), or nothing for a value of no telling kind. */
function valueKind(word: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) return 'url';
  // A path of the API (`/repos/{owner}/{repo}/issues`) names an action: kept, unlike a slug (`octo-org/widget-kit`).
  if (word.startsWith('/')) return word;
  const inner = word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(inner)) return '';
  if (FILE_NAME.test(inner) && !inner.includes('/')) return 'file';
  if (inner.includes('/')) return '';
  if (/\p{N}/u.test(inner) && (inner.length > 6 || /[^\p{L}\p{N}]/u.test(inner) || !/\p{L}/u.test(inner))) return '';
  return word;
}

/** The term processor MiniSearch runs on every word of the index: the stem and the terms the table adds to it. */
export function termProcessor(data: TermData): (word: string) => string | string[] | null {
  const stop = new Set(data.stopWords);
  const expansions = new Map(Object.entries(data.expansions));
  return (word) => {
    const lower = word.toLowerCase();
    if (stop.has(lower)) return null;
    const stem = stemmer(lower);
    const extra = expansions.get(stem);
    return extra ? [stem, ...extra] : stem;
  };
}

/**
 * The term processor of one query (make one per query: it remembers what it has seen). A request says what to do
 * once, with its first verb; a later verb is often a participle that qualifies a noun ("show the messages posted in
 * #general", "which closed pull requests") and stands only for its own stem. The first verb stands for its intent
 * (`~remove`) and, unless it is a plain synonym of it (`erase`, `delete`), for its own stem too (`rename`,
 * `archive`), so that a plain synonym finds every action of that intent alike. Other words are processed as in the
 * index. A term counts once, however often the request repeats it.
 */
export function queryTermProcessor(data: TermData): (word: string) => string | string[] | null {
  const index = termProcessor(data);
  const intents = new Set(data.intents);
  const synonyms = new Set(data.synonyms);
  const seen = new Set<string>();
  let intentSeen = false;
  const unseen = (terms: string[]) => {
    const fresh = terms.filter((term) => !seen.has(term));
    for (const term of fresh) seen.add(term);
    return fresh.length > 0 ? fresh : null;
  };
  return (word) => {
    const processed = index(word);
    const terms = processed === null ? [] : Array.isArray(processed) ? processed : [processed];
    if (!terms.some((term) => intents.has(term))) return unseen(terms);
    const [stem = '', ...extra] = terms;
    if (intentSeen) return unseen([stem, ...extra.filter((term) => !intents.has(term))]);
    intentSeen = true;
    return unseen(synonyms.has(stem) ? extra : terms);
  };
}

/** The stop words and the expansion table, as the index carries them. */
export function termData(): TermData {
  const expansions = new Map<string, Set<string>>();
  const add = (word: string, terms: string[]) => {
    const stem = stemmer(word);
    const set = expansions.get(stem) ?? new Set<string>();
    for (const term of terms) if (term !== stem) set.add(term);
    expansions.set(stem, set);
  };
  for (const [concept, words] of [...Object.entries(VERBS), ...Object.entries(NOUNS)]) for (const word of words) add(word, [`~${concept}`]);
  for (const [word, concept] of Object.entries(SPECIFIC_VERBS)) add(word, [`~${concept}`]);
  for (const [word, implied] of Object.entries(IMPLIES))
    add(
      word,
      implied.split(' ').map((term) => (term.startsWith('~') ? term : stemmer(term))),
    );
  const table: TermTable = {};
  for (const stem of [...expansions.keys()].sort()) {
    const terms = [...(expansions.get(stem) ?? [])].sort();
    if (terms.length > 0) table[stem] = terms;
  }
  const phrases: Record<string, string> = {};
  for (const idiom of Object.keys(PHRASES).sort()) phrases[idiom] = PHRASES[idiom] as string;
  const intents = Object.keys(VERBS)
    .map((verb) => `~${verb}`)
    .sort();
  const synonyms = [...new Set(Object.values(VERBS).flatMap((words) => words.map((word) => stemmer(word))))].sort();
  return { stopWords: [...STOP_WORDS].sort(), expansions: table, intents, synonyms, phrases };
}
