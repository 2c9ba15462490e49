import { wordsOf } from '../text/words.js';

/** Names longer than this make unwieldy headers; SEP-2243 sets no limit, proxies often cap a header line at 8 KiB. */
const MAX_HEADER_NAME = 64;

/**
 * A readable header name for a parameter, in the usual HTTP capitalisation: `tenant_id` → `Tenant-Id`,
 * `xero-tenant-id` → `Xero-Tenant-Id`, `AccountSid` → `Account-Sid`, `on-behalf-of` → `On-Behalf-Of`. Only
 * letters and digits survive, so the result is always a token; undefined when nothing is left.
 */
export function deriveHeaderName(parameterName: string): string | undefined {
  const words = wordsOf(parameterName);
  if (words.length === 0) return undefined;
  const name = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('-');
  return name.length <= MAX_HEADER_NAME ? name : name.slice(0, MAX_HEADER_NAME).replace(/-+$/, '');
}
