import { stemmer } from 'stemmer';

/**
 * How text becomes search terms, on both sides of the index: the generator indexes actions with these functions,
 * and the generated server processes queries with its own copy (templates/runtime/search-terms.ts; a unit test keeps
 * the two in step). Words are split (camelCase, snake_case, paths), lower-cased and stemmed (Porter, so `repositories`
 * and `repository` meet); a small table of stems adds the words people use for the same thing (`kick` and `delete`
 * mean remove). The table travels inside the index, so the server needs no knowledge of its own.
 */

/** Stem → extra terms that stand for it: a concept (`~remove`) or the words an abbreviation stands for. */
export type TermTable = Record<string, string[]>;

/** `phrases`: idioms replaced before words are split (`kick off` → `start`, `get rid of` → `remove`). */
export type TermData = { stopWords: string[]; expansions: TermTable; phrases: Record<string, string> };

/**
 * Words that mean the same thing when looking for an action, grouped: verbs (what to do) and a few nouns every kind
 * of API uses (people, messages, channels, pictures). Every word of a group also indexes (and queries) the group's
 * concept, so "kick Bob" finds "Remove a member" and "post a message" finds "Create a message". Only words whose
 * Porter stem names nothing else belong here: `set` would also catch `settings`, `run` the noun `runs`, `generate`
 * the word `general`, `activate` the word `activity`.
 */
const CONCEPTS: Record<string, string[]> = {
  remove: ['remove', 'delete', 'kick', 'erase', 'destroy', 'discard', 'purge', 'trash', 'wipe', 'expel', 'evict', 'unassign', 'detach'],
  create: ['create', 'add', 'new', 'make', 'post', 'send', 'submit', 'insert', 'register', 'compose', 'append'],
  update: [
    'update',
    'edit',
    'modify',
    'change',
    'patch',
    'alter',
    'rename',
    'adjust',
    'amend',
    'replace',
    'overwrite',
    'fix',
    'correct',
    'close',
    'reopen',
    'mark',
    'toggle',
  ],
  read: ['get', 'fetch', 'retrieve', 'read', 'show', 'view', 'display', 'see', 'inspect', 'describe', 'detail', 'lookup'],
  list: ['list', 'enumerate', 'browse', 'search', 'find', 'query', 'filter', 'which'],
  start: ['start', 'trigger', 'launch', 'execute', 'dispatch', 'begin', 'invoke'],
  cancel: ['cancel', 'abort', 'stop', 'halt', 'terminate', 'kill'],
  approve: ['approve', 'accept', 'confirm', 'grant'],
  reject: ['reject', 'decline', 'deny', 'refuse', 'dismiss'],
  enable: ['enable', 'unblock', 'resume', 'unpause'],
  disable: ['disable', 'deactivate', 'suspend', 'pause'],
  move: ['move', 'transfer', 'relocate'],
  copy: ['copy', 'duplicate', 'clone'],
  reply: ['reply', 'comment', 'respond', 'answer'],
  self: ['me', 'my', 'mine', 'myself', 'current', 'authenticated', 'self'],
  person: ['user', 'member', 'person', 'people', 'participant', 'who'],
  presence: ['presence', 'online', 'offline', 'away'],
  message: ['message', 'text', 'sms', 'msg'],
  channel: ['channel', 'conversation', 'room'],
  picture: ['image', 'picture', 'photo', 'pic', 'avatar'],
  email: ['email', 'mail'],
  config: ['configuration', 'config', 'preferences'],
  webhook: ['webhook', 'hook', 'callback'],
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
  'who am i': 'current authenticated user',
  'look up': 'find',
  'look for': 'search',
  'turn on': 'enable',
  'turn off': 'disable',
  'get rid of': 'remove',
  'take out': 'remove',
  'hang up': 'terminate',
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

/** The term processor MiniSearch runs on every word of the index and of a query. */
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

/** The stop words and the expansion table, as the index carries them. */
export function termData(): TermData {
  const expansions = new Map<string, Set<string>>();
  const add = (word: string, terms: string[]) => {
    const stem = stemmer(word);
    const set = expansions.get(stem) ?? new Set<string>();
    for (const term of terms) if (term !== stem) set.add(term);
    expansions.set(stem, set);
  };
  for (const [concept, words] of Object.entries(CONCEPTS)) for (const word of words) add(word, [`~${concept}`]);
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
  return { stopWords: [...STOP_WORDS].sort(), expansions: table, phrases };
}
