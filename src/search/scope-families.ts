import type { CatalogAction } from './search-plan.js';

/**
 * Actions that are one operation reached at different scopes or through different parents: `/me/messages` and
 * `/users/{user-id}/messages`, `/orgs/{org}/hooks` and `/repos/{owner}/{repo}/hooks`, `/issues` and
 * `/repos/{owner}/{repo}/issues`, Microsoft Graph's `…/messages/{message-id}/microsoft.graph.reply` under `/me`, a
 * mail folder and its child folders. Graph repeats thousands of operations this way, and such copies match a request
 * equally well: left alone they fill the first results with one operation. The search shows a family as one result,
 * its other members listed beside it with what their arguments add or leave out, so the first results hold
 * different operations and every copy stays in view.
 *
 * Two actions are of one family when they have the same method and safety class and their paths end alike: the same
 * last two literal segments and what follows them, once the scope is taken off the front (see familyPath).
 */
export function scopeFamilies(catalog: CatalogAction[]): string[][] {
  const families = new Map<string, string[]>();
  for (const entry of catalog) {
    const tail = familyPath(entry.path);
    if (!tail) continue;
    const key = `${entry.method} ${entry.intent} ${tail}`;
    const members = families.get(key);
    if (members) members.push(entry.id);
    else families.set(key, [entry.id]);
  }
  // In catalog order (the plan's), which is deterministic.
  return [...families.values()].filter((members) => members.length > 1);
}

/** Path words that mean the caller's own scope (`/me/events`, GitHub's `/user/repos`). */
const SELF_SEGMENTS = new Set(['me', 'my', 'self', 'user']);

/** Literal segments a family's paths share at their end. */
const SHARED_LITERALS = 2;

const isParameter = (segment: string) => /^\{[^{}]*\}$/.test(segment);

/** Leading segments that say which version of the API a path belongs to (`/v1`, `/2010-04-01`), not its scope. */
const isVersion = (segment: string) => /^(?:v\d+[a-z0-9.]*|\d{4}-\d{2}-\d{2}|api)$/i.test(segment);

/**
 * What a family's paths have in common, parameters written `{}`; empty when the path names nothing below its scope.
 * The scope is taken off the front first: after any version segments, a literal segment followed by its path
 * parameters (`/users/{user-id}`, `/repos/{owner}/{repo}`) or a word for the caller (`/me`, `/user`). Of the rest, the
 * end from the second-last literal segment on is kept (`mailFolders/{}/messages/{}/microsoft.graph.reply` →
 * `messages/{}/microsoft.graph.reply`); OData's `$count`, `$value` and `$ref` do not count as literals, since they say
 * what is done with the segment before them.
 */
export function familyPath(path: string): string {
  const segments = (path.split(/[?#]/)[0] ?? '').split('/').filter(Boolean);
  let start = 0;
  while (start < segments.length - 1 && isVersion(segments[start] as string)) start++;
  const first = segments[start];
  const second = segments[start + 1];
  if (first !== undefined && second !== undefined && !isParameter(first) && isParameter(second)) {
    start++;
    while (start < segments.length && isParameter(segments[start] as string)) start++;
  } else if (first !== undefined && second !== undefined && SELF_SEGMENTS.has(first.toLowerCase())) start++;
  let end = segments.length;
  let literals = 0;
  while (end > start && literals < SHARED_LITERALS) {
    end--;
    if (!/^[{$]/.test(segments[end] as string)) literals++;
  }
  return segments
    .slice(end)
    .map((segment) => segment.replace(/\{[^{}]*\}/g, '{}'))
    .join('/');
}
