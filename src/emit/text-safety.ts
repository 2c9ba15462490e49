/**
 * Text from a description reaches generated files only through these functions. The AST and the templates are
 * not sanitizers: a title holding a newline, `*\/`, a backtick or `</script>` must come out as inert data.
 */

/** A JSON literal that is also a safe TypeScript expression: U+2028/U+2029 escaped as well. */
export function jsonLiteral(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * A value as a TypeScript expression. In an object literal a `"__proto__": {…}` member does not create a property:
 * it sets the object's prototype, so a schema property or default named `__proto__` would silently vanish (and lend
 * its fields to the object). Such keys are written as computed members, which do create own properties.
 */
export function codeLiteral(value: unknown, indent = 2): string {
  // A key is the only place `"__proto__":` can follow `{` or `,`: inside a JSON string every `"` is escaped.
  return jsonLiteral(value, indent).replace(/([{,]\s*)"__proto__":/g, '$1["__proto__"]:');
}

/** One line of plain text for a `//` comment: no line breaks, control or bidi characters. */
export function commentText(text: string, maxLength = 100): string {
  const line = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line;
}

/** Markdown-safe inline text: HTML and Markdown syntax characters escaped, one line. */
export function markdownText(text: string, maxLength = 300): string {
  return commentText(text, maxLength)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]()#+!|~])/g, '\\$1');
}

/** A value for a `KEY=value` line of a .env file: one line, no quotes or `$` expansion surprises. */
export function envValue(text: string): string {
  return commentText(text, 200).replace(/["'$`\\]/g, '');
}

/**
 * Text for HTML element content or a double- or single-quoted attribute value: the five characters that could
 * open markup or close the attribute are escaped, so a description's `<script>` stays text.
 */
export function htmlText(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
