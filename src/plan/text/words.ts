import { rememberText } from '../../kernel/text-memo.js';

/**
 * Splits identifiers and phrases into lower-case ASCII words: `listForRepo`, `list-for_repo`, `List for repo`.
 * `HTTPServer` becomes `HTTP Server` by a lookahead, so a long run of capitals is not rescanned from every letter.
 */
export function wordsOf(text: string): string[] {
  // A copy: callers may change the list they get.
  return [...splitWords(text)];
}

const splitWords = rememberText((text: string): readonly string[] =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean),
);

export function snakeCase(text: string): string {
  return wordsOf(text).join('_');
}

/**
 * Upper snake case for environment variables: `petstore-v3` → `PETSTORE_V3`. Names written in camel case that are
 * one word stay one (`OAuth` → `OAUTH`, not `O_AUTH`; `GitHubApp` → `GITHUB_APP`), as their vendors spell them.
 */
export function envCase(text: string): string {
  return wordsOf(text.replace(ONE_WORD_CAMEL, (word) => word.charAt(0) + word.slice(1).toLowerCase()))
    .join('_')
    .toUpperCase();
}

/** Protocol and product names in camel case that are one word, wherever they stand (`ZoomOAuth`: `ZOOM_OAUTH`). */
const ONE_WORD_CAMEL = /OAuth|OpenAPI|OpenID|GitHub|GitLab|PayPal|YouTube|LinkedIn|WordPress|JavaScript|TypeScript/g;

/** Code-unit comparison: the same order on every machine and locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
