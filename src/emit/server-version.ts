/**
 * The generated server's version (its package.json and the `serverInfo` it reports) as semver, from the description's
 * `info.version`, which is free text: `1.0` becomes `1.0.0`, `v2` `2.0.0`, a date (`2024-01-05`, or Stripe's
 * `Wed Oct 15 2025 13:53:19 GMT+0000 (…)`) `2024.1.5`, and anything else `0.1.0`. The original stays in the README
 * and in a comment of `src/api.ts`.
 */
export function serverVersion(apiVersion: string): string {
  const text = apiVersion.trim();
  if (/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(text) && !/(^|\.)0\d/.test(text.split(/[-+]/)[0] ?? '')) return text;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T\s])/.exec(text);
  if (iso) return [iso[1], iso[2], iso[3]].map(Number).join('.');
  const numbered = /^v?(\d{1,9})(?:\.(\d{1,9}))?(?:\.(\d{1,9}))?(-[0-9A-Za-z.-]+)?$/i.exec(text);
  if (numbered) return `${[numbered[1], numbered[2] ?? '0', numbered[3] ?? '0'].map(Number).join('.')}${numbered[4] ?? ''}`;
  // A date written out (`Wed Oct 15 2025 …`): a month's name and a year, which Date reads; UTC, as the text is.
  if (/\b(19|20)\d{2}\b/.test(text) && /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i.test(text)) {
    const date = new Date(text.replace(/\s*\(.*\)\s*$/, ''));
    if (!Number.isNaN(date.getTime())) return `${date.getUTCFullYear()}.${date.getUTCMonth() + 1}.${date.getUTCDate()}`;
  }
  return '0.1.0';
}
