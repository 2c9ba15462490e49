import { rememberText } from '../../kernel/text-memo.js';

/** Property keys the Claude API accepts: `^[a-zA-Z0-9_.-]{1,64}$`. */
export const PROPERTY_KEY_PATTERN = /^[a-zA-Z0-9_.-]{1,64}$/;

/**
 * A readable, valid property key for an API parameter name: `filter[name]` → `filter_name`, `$top` → `top`,
 * `rule_name[]` → `rule_name`, `X-Request-ID` unchanged. The original name is kept in the route. Remembered: the
 * operations of a large API take the same few names again and again (Microsoft Graph: 48,207 parameters).
 */
export const sanitizeKey = rememberText((name: string): string => {
  const key = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\[\]$/, '')
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[_.-]+|[_.-]+$/g, '')
    .slice(0, 64)
    .replace(/[_.-]+$/, '');
  return key === '' ? 'param' : key;
});

/** Makes `key` unique among `taken` (case-sensitive) with a numeric suffix, keeping it within 64 characters. */
export function uniqueKey(key: string, taken: ReadonlySet<string>): string {
  if (!taken.has(key)) return key;
  for (let index = 2; ; index++) {
    const suffix = `_${index}`;
    const candidate = `${key.slice(0, 64 - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
