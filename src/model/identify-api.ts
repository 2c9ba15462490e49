import { isJsonObject, type JsonObject } from '../load/openapi-document.js';
import type { ServerModel } from './api-model.js';
import { stringOf } from './resolve-ref.js';

/** Words that say nothing about which API it is; dropped from the slug when others remain. */
export const FILLER_WORDS = new Set([
  'api',
  'apis',
  'openapi',
  'rest',
  'restful',
  'http',
  'json',
  'spec',
  'specification',
  'service',
  'services',
  'the',
  'for',
  'and',
  'of',
  'reference',
  'definition',
  'public',
  'web',
  'official',
  'extension',
  'extensions',
  'version',
  'documentation',
  'docs',
]);

/** Host labels that name a kind of endpoint, not the API's owner (`api.github.com`, `developer.uspto.gov`). */
const GENERIC_HOST_LABELS = new Set([
  'api',
  'apis',
  'www',
  'rest',
  'app',
  'developer',
  'developers',
  'gateway',
  'public',
  'v1',
  'v2',
  'v3',
]);

/** Second-level labels of country domains (`example.co.uk`): not the owner's name either. */
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'gov', 'ac', 'edu']);

/** Hosts that serve other people's logos: their names say nothing about the API. */
const LOGO_HOSTS =
  /(^|\.)(apis\.guru|githubusercontent\.com|cloudfront\.net|amazonaws\.com|gstatic\.com|googleusercontent\.com|wikimedia\.org|twimg\.com|imgix\.net)$/;

/** The words of a name, lower-cased and without accents or possessives. */
function wordsOf(text: string): string[] {
  return text
    .replace(/'s\b/gi, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** At most four meaningful words, dash-joined; undefined when every word is filler or a version. */
function meaningfulSlug(text: string): string | undefined {
  const meaningful = wordsOf(text).filter((word) => !FILLER_WORDS.has(word) && !/^v?\d+$/.test(word));
  const chosen = meaningful.slice(0, 4).join('-').slice(0, 48).replace(/-+$/, '');
  if (chosen === '') return undefined;
  return /^[a-z]/.test(chosen) ? chosen : `api-${chosen}`;
}

/**
 * A short name for the project and its environment variables from the title: `Swagger Petstore - OpenAPI 3.0` →
 * `swagger-petstore`, `GitHub v3 REST API` → `github`, at most four words; undefined for a title that names nothing
 * (`API Reference`, `REST API`).
 */
export function titleSlug(title: string): string | undefined {
  // The name comes first; what follows a separator is usually commentary (`GitHub's official … + Octokit extension`).
  const head = title.split(/\s+[-–—+|:(]\s*|\s*\(|,/)[0] ?? title;
  return meaningfulSlug(head);
}

/** The owner's name in a host: `{region}.sentry.io` → `sentry`, `api.github.com` → `github`. */
export function hostSlug(host: string): string | undefined {
  const labels = host
    .toLowerCase()
    .replace(/:\d+$/, '')
    .split('.')
    .filter((label) => label !== '' && !label.includes('{') && !GENERIC_HOST_LABELS.has(label));
  if (labels.length < 2 || labels.every((label) => /^\d+$/.test(label))) return undefined;
  labels.pop();
  if (labels.length > 1 && SECOND_LEVEL.has(labels[labels.length - 1] as string)) labels.pop();
  const owner = labels[labels.length - 1];
  return owner ? meaningfulSlug(owner) : undefined;
}

function hostOf(url: string | undefined): string | undefined {
  const match = url ? /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]+@)?([^/?#]+)/i.exec(url) : null;
  return match?.[2];
}

/**
 * What names the API when its title does not: the first server's host, the `x-logo` URL's host, the contact's URL,
 * e-mail domain or name, then the description's file name. Undefined when none of them names anything.
 */
export function identifyingSlug(info: JsonObject, servers: readonly ServerModel[], sourceFile: string | undefined): string | undefined {
  const host = hostOf(servers.find((server) => hostOf(server.url))?.url);
  const logo = isJsonObject(info['x-logo']) ? hostOf(stringOf(info['x-logo']['url'])) : undefined;
  const contact = isJsonObject(info['contact']) ? info['contact'] : {};
  const email = stringOf(contact['email'])?.split('@')[1];
  const contactName = stringOf(contact['name']);
  const fileName = sourceFile
    ?.split(/[\\/]/)
    .pop()
    ?.replace(/\.(ya?ml|json)$/i, '');
  const candidates = [
    host && !/^(localhost|\d+\.\d+\.\d+\.\d+)(:\d+)?$/.test(host) ? hostSlug(host) : undefined,
    logo && !LOGO_HOSTS.test(logo) ? hostSlug(logo) : undefined,
    hostSlug(hostOf(stringOf(contact['url'])) ?? ''),
    email ? hostSlug(email) : undefined,
    contactName ? meaningfulSlug(contactName) : undefined,
    fileName ? meaningfulSlug(fileName.replace(/swagger/gi, ' ')) : undefined,
  ];
  return candidates.find((candidate) => candidate !== undefined);
}

/** A name given with `--name` (`Sentry`, `my tracker`) as a slug; `api` when it holds no letters or digits. */
export function nameSlug(name: string): string {
  const chosen = wordsOf(name).slice(0, 6).join('-').slice(0, 48).replace(/-+$/, '');
  if (chosen === '') return 'api';
  return /^[a-z]/.test(chosen) ? chosen : `api-${chosen}`;
}
