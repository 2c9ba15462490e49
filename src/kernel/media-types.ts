/** Media types as every stage compares them: without parameters, lower-cased. */

/** The media type without parameters, lower-cased: `application/json; charset=utf-8` → `application/json`. */
export function baseMediaType(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}

export function isJsonMediaType(mediaType: string): boolean {
  const base = baseMediaType(mediaType);
  return base === 'application/json' || base.endsWith('+json') || base === 'text/json';
}
