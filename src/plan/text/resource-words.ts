import { rememberText } from '../../kernel/text-memo.js';
import { compareStrings } from './words.js';
import { rememberObject } from '../../kernel/object-memo.js';

/**
 * The words a tool name may use: the nouns of an operation's resource path. A name made only of words that every
 * action's path holds never names a minority of the actions or something the tool does not touch.
 *
 * Words are compared in a normal form (lower case, singular), so `issues` and `issue`, `/user` and `/users/{u}` meet;
 * names are written in the form the paths use most (`issues`).
 */

/** Verbs that open a path segment (`/goals/{id}/addFollowers`, `remove_tag`): the noun after them is the resource. */
const SEGMENT_VERBS = new Set(
  (
    'add remove set insert get list create update delete duplicate instantiate save approve reject run rerun cancel ' +
    'search archive unarchive move copy upload download enable disable start stop send revoke generate fetch ' +
    'attach detach assign unassign link unlink merge publish unpublish'
  ).split(' '),
);

/** Words that join others and name nothing. */
const FILLER_WORDS = new Set(['root', 'by', 'for', 'of', 'and', 'the', 'a', 'an', 'to', 'in', 'on', 'with', 'from', 'at']);

/** Short forms APIs use beside the full word (`org` and `organization` in one name and its summary). */
const SHORT_FORMS: Record<string, string> = {
  org: 'organization',
  organisation: 'organization',
  repo: 'repository',
  config: 'configuration',
  info: 'information',
  app: 'application',
  env: 'environment',
  auth: 'authorization',
  authentication: 'authorization',
  identifier: 'id',
  dir: 'directory',
  msg: 'message',
  spec: 'specification',
  stat: 'statistic',
  admin: 'administrator',
  perm: 'permission',
  desc: 'description',
  doc: 'document',
  num: 'number',
  pr: 'pull',
  del: 'delete',
  remove: 'delete',
  retrieve: 'get',
  fetch: 'get',
  read: 'get',
  show: 'get',
  modify: 'update',
  edit: 'update',
  change: 'update',
  make: 'create',
  add: 'create',
  new: 'create',
};

/** A word's normal form for comparing names with summaries: singular, and short forms spelled out. */
export const comparable = rememberText((word: string): string => {
  const one = singular(word);
  return SHORT_FORMS[one] ?? SHORT_FORMS[word] ?? one;
});

/** `issues` → `issue`, `statuses` → `status`, `policies` → `policy`; words that only look plural stay. */
export function singular(word: string): string {
  if (word.length <= 3 || /(ss|us|is|ics|ous|ws)$/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|us|ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

export type ResourceWords = {
  /** Normal forms, in path order, each once. */
  keys: string[];
  /** Normal form → the word as this path writes it. */
  surface: Map<string, string>;
  /** The words each resource segment contributes, as this path writes them (none for a verb or a filler). */
  segments: string[][];
};

/**
 * Resource words of one operation from its resource segments (`['repos', 'code_scanning', 'alerts']`). Made once per
 * list of segments (a grouping unit's, which grouping and naming ask again and again: Microsoft Graph names 732
 * tools of about sixteen units each at every grouping state it forms); every caller only reads them.
 */
export const resourceWords: (resource: readonly string[]) => ResourceWords = rememberObject(computeResourceWords);

function computeResourceWords(resource: readonly string[]): ResourceWords {
  const keys: string[] = [];
  const surface = new Map<string, string>();
  const segments: string[][] = [];
  resource.forEach((segment, index) => {
    const contributed = segmentWords(segment, index === 0);
    segments.push([...contributed]);
    for (const word of contributed) {
      const key = singular(word);
      if (surface.has(key)) continue;
      keys.push(key);
      surface.set(key, word);
    }
  });
  return { keys, surface, segments };
}

/**
 * The words one resource segment contributes, as the path writes them (none for a verb or a filler), by whether it
 * is the first segment of the resource: a segment that is only a verb after the resource (`/credentials/revoke`,
 * `/runs/{id}/cancel`) names the action, not a resource. Remembered per segment: paths repeat them. Only read.
 */
export function segmentWords(segment: string, first: boolean): readonly string[] {
  return first ? firstSegmentWords(segment) : laterSegmentWords(segment);
}

function contributedWords(segment: string, first: boolean): string[] {
  const words = segment.split('_').filter(Boolean);
  while (words.length > 1 && SEGMENT_VERBS.has(words[0] as string)) words.shift();
  if (!first && words.length === 1 && SEGMENT_VERBS.has(words[0] as string)) return [];
  return words.filter((word) => !FILLER_WORDS.has(word));
}

const firstSegmentWords = rememberText((segment: string) => contributedWords(segment, true));
const laterSegmentWords = rememberText((segment: string) => contributedWords(segment, false));

/** The normal forms (singular) of segmentWords, in its order. Only read. */
export function segmentKeys(segment: string, first: boolean): readonly string[] {
  return first ? firstSegmentKeys(segment) : laterSegmentKeys(segment);
}

const firstSegmentKeys = rememberText((segment: string) => firstSegmentWords(segment).map(singular));
const laterSegmentKeys = rememberText((segment: string) => laterSegmentWords(segment).map(singular));

/** How much a word tells one operation from the others: rare words (`releases`) more than common ones (`repos`). */
export class WordWeights {
  private readonly weights = new Map<string, number>();

  constructor(all: Iterable<ResourceWords>) {
    const counts = new Map<string, number>();
    let total = 0;
    for (const words of all) {
      total++;
      for (const key of words.keys) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    for (const [key, count] of counts) this.weights.set(key, Math.log((total + 1) / count));
  }

  of(keys: readonly string[]): number {
    let sum = 0;
    for (const key of keys) sum += this.weights.get(key) ?? 0;
    return sum;
  }
}

/** The words every list holds, in the order of the first list. */
export function sharedWords(lists: ReadonlyArray<readonly string[]>): string[] {
  const [first, ...rest] = lists;
  if (!first) return [];
  return first.filter((key) => rest.every((list) => list.includes(key)));
}

/** The surface form most paths use for each word (ties to the shorter, then the first in code-unit order). */
export function surfaceForms(all: Iterable<ResourceWords>): Map<string, string> {
  const tallies = new Map<string, Map<string, number>>();
  for (const words of all) {
    for (const [key, form] of words.surface) {
      const tally = tallies.get(key) ?? new Map<string, number>();
      tally.set(form, (tally.get(form) ?? 0) + 1);
      tallies.set(key, tally);
    }
  }
  const out = new Map<string, string>();
  for (const [key, tally] of tallies) {
    const [best] = [...tally].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length || compareStrings(a[0], b[0]));
    if (best) out.set(key, best[0]);
  }
  return out;
}
