import { wordsOf } from '../text/words.js';

/**
 * What a parameter's name says about it: that it routes the request (a tenant, an account, a region …), that it
 * carries a credential, or that it carries personal data. Names are split into words (`xero-tenant-id` → xero,
 * tenant, id; `AccountSid` → account, sid) so that the check does not depend on the naming convention.
 */

/** Words naming the scope a request is routed by. */
const ROUTING_WORDS = new Set([
  'tenant',
  'tenancy',
  'organisation',
  'organization',
  'org',
  'account',
  'workspace',
  'project',
  'region',
  'zone',
  'location',
  'cluster',
  'environment',
  'env',
  'namespace',
  'realm',
  // The account levels of payment platforms (Adyen's company and merchant accounts).
  'company',
  'merchant',
]);

/** Trailing words that make a routing word an identifier: `tenant_id`, `workspace_gid`, `AccountSid`. */
const IDENTIFIER_SUFFIXES = ['id', 'gid', 'sid', 'uuid', 'slug'];

/** Words before a routing word that turn it into something else: `time_zone`, `file_location`, `redirect_location`. */
const NON_ROUTING_MODIFIERS = new Set(['time', 'file', 'storage', 'redirect', 'callback', 'download', 'upload', 'return']);

/** Whole names that route a request without a routing word: SendGrid's subuser header `on-behalf-of`. */
const ROUTING_PHRASES = new Set(['on behalf of']);

/** Credential words, matched as whole words. */
const CREDENTIAL_WORDS = new Set([
  'token',
  'tokens',
  'secret',
  'secrets',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'key',
  'keys',
  'credential',
  'credentials',
  'session',
  'cookie',
  'cookies',
  'signature',
  'sig',
  'otp',
  'totp',
  'hotp',
  'mfa',
  'csrf',
  'xsrf',
  'nonce',
  'pin',
  'cvv',
  'cvc',
]);

/** Credential words also caught inside compound words: `apikey`, `accesstoken`, `sessionid`, `authorization`. */
const CREDENTIAL_FRAGMENTS = ['token', 'secret', 'password', 'passwd', 'credential', 'session', 'cookie', 'signature'];

/** Personal data, matched inside compound words (`emailAddress`, `phonenumber`) or as whole words. */
const PERSONAL_FRAGMENTS = ['email', 'mail', 'phone', 'mobile', 'msisdn', 'fax', 'ssn', 'passport', 'birth', 'username', 'login'];
const PERSONAL_WORDS = new Set(['dob', 'address', 'ip']);

/** The routing word a parameter name contains (`tenant` for `xero-tenant-id`), if it routes the request. */
export function routingWord(name: string): string | undefined {
  const words = wordsOf(name);
  if (ROUTING_PHRASES.has(words.join(' '))) return words.join('-');
  let end = words.length;
  while (end > 1 && IDENTIFIER_SUFFIXES.includes(words[end - 1] as string)) end--;
  const last = words[end - 1];
  if (last === undefined) return undefined;
  const base = ROUTING_WORDS.has(last) ? last : compoundRoutingWord(last);
  if (base === undefined) return undefined;
  if (words.slice(0, end - 1).some((word) => NON_ROUTING_MODIFIERS.has(word))) return undefined;
  return base;
}

/** `tenantid` → tenant, `accountsid` → account: a routing word glued to an identifier suffix. */
function compoundRoutingWord(word: string): string | undefined {
  for (const suffix of IDENTIFIER_SUFFIXES) {
    if (word.length > suffix.length && word.endsWith(suffix) && ROUTING_WORDS.has(word.slice(0, -suffix.length)))
      return word.slice(0, -suffix.length);
  }
  return undefined;
}

/** The credential word in a name (`key` for `x-api-key`, `auth` for `authorization`), if any. */
export function credentialWord(name: string): string | undefined {
  const words = wordsOf(name);
  for (const word of words) {
    if (CREDENTIAL_WORDS.has(word)) return word;
    if (word.startsWith('auth') || word.startsWith('oauth')) return 'auth';
    if (word.endsWith('key') && word.length > 3) return 'key';
    const fragment = CREDENTIAL_FRAGMENTS.find((candidate) => word.includes(candidate));
    if (fragment) return fragment;
  }
  return undefined;
}

/** The personal-data word in a name (`email` for `user_email`), if any. */
export function personalDataWord(name: string): string | undefined {
  const words = wordsOf(name);
  for (const word of words) {
    if (PERSONAL_WORDS.has(word)) return word;
    const fragment = PERSONAL_FRAGMENTS.find((candidate) => word.includes(candidate));
    if (fragment) return fragment;
  }
  return undefined;
}
