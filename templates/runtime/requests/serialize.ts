// Parameter serialisation by OpenAPI style and explode.
// https://spec.openapis.org/oas/v3.1.0#style-values

import type { Style } from '../core/types.js';

/**
 * Reserved characters (RFC 3986) that `allowReserved` lets through unencoded. `#`, `[` and `]` are not allowed in a
 * query at all, and `&`, `=` and `+` would split the pair or change its meaning, so they stay encoded even then
 * (OpenAPI 3.1.1, "allowReserved"); percent-encoded triples already in the value pass through unchanged.
 */
const KEPT_WHEN_RESERVED_ALLOWED = /^[:/?@!$'()*,;]$/;

export function encodeValue(value: string, allowReserved = false): string {
  if (!allowReserved) return encodeURIComponent(value);
  return value.replace(/%[0-9A-Fa-f]{2}|[\s\S]/gu, (chunk) =>
    chunk.length === 3 || KEPT_WHEN_RESERVED_ALLOWED.test(chunk) ? chunk : encodeURIComponent(chunk),
  );
}

export function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function entriesOf(value: unknown): Array<[string, unknown]> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value as Record<string, unknown>)
    : [];
}

/** A path parameter (`simple`, `label`, `matrix`), each value percent-encoded so it stays one path segment. */
export function serializePath(name: string, value: unknown, style: Style, explode: boolean): string {
  const encode = (item: unknown) => encodeValue(scalarText(item));
  if (Array.isArray(value)) {
    const items = value.map(encode);
    if (style === 'label') return `.${items.join(explode ? '.' : ',')}`;
    if (style === 'matrix')
      return explode ? items.map((item) => `;${name}=${item}`).join('') : `;${name}=${items.join(',')}`;
    return items.join(',');
  }
  const entries = entriesOf(value);
  if (entries.length > 0 || (value !== null && typeof value === 'object')) {
    const pairs = entries.map(([key, item]) =>
      explode ? `${encodeValue(key)}=${encode(item)}` : `${encodeValue(key)},${encode(item)}`,
    );
    if (style === 'label') return `.${pairs.join(explode ? '.' : ',')}`;
    if (style === 'matrix') return explode ? pairs.map((pair) => `;${pair}`).join('') : `;${name}=${pairs.join(',')}`;
    return pairs.join(',');
  }
  if (style === 'label') return `.${encode(value)}`;
  if (style === 'matrix') return `;${name}=${encode(value)}`;
  return encode(value);
}

/** Delimiters of the array styles, percent-encoded as OpenAPI 3.1.1 shows them (`|` is not allowed raw in a URI). */
const DELIMITERS: Partial<Record<Style, string>> = { spaceDelimited: '%20', pipeDelimited: '%7C', tabDelimited: '%09' };

/**
 * Query pairs (already encoded) for one parameter: `form`, `spaceDelimited`, `pipeDelimited`, `deepObject`. An
 * exploded array repeats the name in every style; a non-exploded one joins its items with the style's delimiter.
 */
export function serializeQuery(
  name: string,
  value: unknown,
  style: Style,
  explode: boolean,
  allowReserved = false,
): string[] {
  const key = encodeValue(name);
  const encode = (item: unknown) => encodeValue(scalarText(item), allowReserved);
  const delimiter = DELIMITERS[style] ?? ',';
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    if (explode) return value.map((item) => `${key}=${encode(item)}`);
    return [`${key}=${value.map(encode).join(delimiter)}`];
  }
  if (value !== null && typeof value === 'object') {
    const entries = entriesOf(value);
    if (style === 'deepObject') return deepObjectPairs(name, value as Record<string, unknown>, allowReserved);
    if (explode) return entries.map(([field, item]) => `${encodeValue(field)}=${encode(item)}`);
    return [
      `${key}=${entries.map(([field, item]) => `${encodeValue(field)}${delimiter}${encode(item)}`).join(delimiter)}`,
    ];
  }
  return [`${key}=${encode(value)}`];
}

function deepObjectPairs(prefix: string, value: Record<string, unknown>, allowReserved: boolean): string[] {
  const out: string[] = [];
  for (const [field, item] of Object.entries(value)) {
    const name = `${prefix}[${field}]`;
    if (item !== null && typeof item === 'object' && !Array.isArray(item))
      out.push(...deepObjectPairs(name, item as Record<string, unknown>, allowReserved));
    else if (Array.isArray(item))
      out.push(...item.map((entry) => `${encodeValue(`${name}[]`)}=${encodeValue(scalarText(entry), allowReserved)}`));
    else out.push(`${encodeValue(name)}=${encodeValue(scalarText(item), allowReserved)}`);
  }
  return out;
}

/** A header value (`simple` style); values are not percent-encoded. */
export function serializeHeader(value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.map(scalarText).join(',');
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => (explode ? `${key}=${scalarText(item)}` : `${key},${scalarText(item)}`))
      .join(',');
  }
  return scalarText(value);
}

/** A cookie pair (`form` style). */
export function serializeCookie(name: string, value: unknown, explode: boolean): string[] {
  if (Array.isArray(value))
    return explode
      ? value.map((item) => `${name}=${encodeValue(scalarText(item))}`)
      : [`${name}=${value.map((item) => encodeValue(scalarText(item))).join(',')}`];
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    // Keys are encoded like values: a key is an argument's text, and `;` or `=` in it would start another cookie.
    return explode
      ? entries.map(([key, item]) => `${encodeValue(key)}=${encodeValue(scalarText(item))}`)
      : [`${name}=${entries.map(([key, item]) => `${encodeValue(key)},${encodeValue(scalarText(item))}`).join(',')}`];
  }
  return [`${name}=${encodeValue(scalarText(value))}`];
}
