import { rememberText } from '../../kernel/text-memo.js';

/**
 * Literals as prettier prints them with the generator's pinned options (single quotes, TypeScript parser). The
 * input is always the JSON text the emitter writes (`JSON.stringify`, with U+2028/U+2029 escaped), so these rules
 * only need to cover what JSON produces.
 */

const LINE_SEPARATORS = /[\u2028\u2029]/;

/**
 * Short literals are remembered per text: a generated project prints the same keys, types, enum values and phrases
 * over and over (Microsoft Graph's tool modules are 16 MB of literals), and every string is also measured before it
 * is printed (does it fit on the line?). Longer texts (descriptions) are printed as they come: remembered, they held
 * about 25 MB more at Graph's peak.
 */
const MEMO_LIMIT = 100_000;
const MEMO_LENGTH = 120;

/** A JSON string literal that is also a safe TypeScript expression. */
export function jsonString(value: string): string {
  return value.length <= MEMO_LENGTH ? shortJsonString(value) : jsonText(value);
}

function jsonText(value: string): string {
  const text = JSON.stringify(value);
  return LINE_SEPARATORS.test(text) ? text.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029') : text;
}

const shortJsonString = rememberText(jsonText, MEMO_LIMIT);

/**
 * A JSON string literal (with its double quotes) re-quoted as prettier does: single quotes unless the text holds
 * more single than double quotes; only the quote escapes change.
 */
export function requote(raw: string): string {
  const content = raw.slice(1, -1);
  let singles = 0;
  let doubles = 0;
  for (let index = 0; index < content.length; index++) {
    const code = content.charCodeAt(index);
    if (code === 39) singles++;
    else if (code === 34) doubles++;
  }
  if (singles > doubles) return raw;
  if (singles === 0 && doubles === 0) return `'${content}'`;
  // An escaped backslash stays; `\"` loses its backslash; a bare `'` gains one.
  return `'${content.replace(/\\(["'\\])|(["'])/g, (match: string, escaped: string | undefined, bare: string | undefined) =>
    escaped !== undefined ? (escaped === '"' ? '"' : match) : bare === "'" ? "\\'" : (bare ?? match),
  )}'`;
}

/** A string value in TypeScript. */
export function tsString(value: string): string {
  return value.length <= MEMO_LENGTH ? shortTsString(value) : requote(jsonText(value));
}

const shortTsString = rememberText((value: string): string => requote(jsonText(value)), MEMO_LIMIT);

/** A number as JSON writes it and prettier prints it (`1e+21` → `1e21`); NaN and infinities are `null` in JSON. */
export function numberText(value: number): string {
  const text = JSON.stringify(value);
  return text.includes('e+') ? text.replace('e+', 'e') : text;
}

const ASCII_IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** ES5 IdentifierName: Unicode letters (BMP), then also combining marks, digits and connectors. */
const ES5_IDENTIFIER = /^[$_\p{L}\p{Nl}][$_\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}\u200c\u200d]*$/u;

/** Whether prettier (`quoteProps: as-needed`, TypeScript) writes this property key without quotes. */
export function isUnquotedKey(key: string): boolean {
  if (ASCII_IDENTIFIER.test(key)) return true;
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(key) || /[\ud800-\udfff]/.test(key)) return false;
  return ES5_IDENTIFIER.test(key);
}

/** An object property key in TypeScript, from the JSON text of the key. */
export const tsKey = rememberText((key: string): string => {
  // `__proto__: …` in an object literal sets the prototype instead of a property; a computed key is a property.
  if (key === '__proto__') return "['__proto__']";
  return isUnquotedKey(key) ? key : requote(jsonString(key));
}, MEMO_LIMIT);
