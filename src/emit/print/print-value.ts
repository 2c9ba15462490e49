import type { JsonValue } from '../../kernel/json.js';
import { jsonString, numberText, tsKey, tsString } from './literals.js';
import { PRINT_WIDTH, textWidth } from './prettier-parts.js';

/**
 * Prints JSON data exactly as prettier 3 prints it, without parsing: as a TypeScript expression (an object literal
 * in a generated module) or as a JSON document. Generated tool modules are megabytes of such literals, and running
 * prettier over them took most of a generation; these layout rules are the few prettier applies to data:
 *
 * - a non-empty object always breaks, one property per line (prettier keeps the object expanded because the text
 *   it was given had a line break after `{`, which JSON.stringify with an indent always has);
 * - an array stays on one line when it fits, else one element per line; numbers only fill lines instead; an array
 *   of two or more objects (or arrays) with more than one entry each always breaks, and so does every array that
 *   holds a broken object;
 * - `key: value` breaks after the colon only when the value does not fit and the key is not short (prettier's
 *   assignment layouts: strings break after the operator, numbers and booleans never do, the rest is "fluid").
 *
 * Unit tests compare this printer with prettier on generated projects and on random data.
 */

/** Code written as is (an identifier list, for example); it never breaks. */
export class Code {
  constructor(readonly text: string) {}
}

/**
 * Data printed compactly: an object stays on one line where it fits (`{ type: 'string' }`), as prettier keeps an
 * object it was given on one line; it breaks, one property per line, only where it does not fit. For bulky data
 * no reader goes through line by line (the argument checks' schemas), at a third of the lines.
 */
export class Compact {
  constructor(readonly value: PrintValue) {}
}

/** JSON data, as JSON.stringify sees it: undefined properties are left out (and undefined array items are null). */
export type PrintValue = JsonValue | Code | Compact | undefined | PrintValue[] | PrintRecord;
export type PrintRecord = { [key: string]: PrintValue };

type Flavor = { ts: boolean; compact?: boolean };
const TS: Flavor = { ts: true };
const COMPACT_TS: Flavor = { ts: true, compact: true };
const JSON_FLAVOR: Flavor = { ts: false };
const COMPACT_JSON: Flavor = { ts: false, compact: true };

/** Keys whose width is below this never move their value to the next line (prettier's "short key"). */
const SHORT_KEY = 5;

const spaces: string[] = [];
function pad(width: number): string {
  return (spaces[width] ??= ' '.repeat(width));
}

function isRecord(value: PrintValue): value is PrintRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Code) && !(value instanceof Compact);
}

/** A compact value's data and the flavor to print it in. */
function unwrap(value: PrintValue, flavor: Flavor): [PrintValue, Flavor] {
  return value instanceof Compact ? [value.value, flavor.ts ? COMPACT_TS : COMPACT_JSON] : [value, flavor];
}

/** The keys JSON.stringify writes. */
function keysOf(value: PrintRecord): string[] {
  const keys = Object.keys(value);
  return keys.every((key) => value[key] !== undefined) ? keys : keys.filter((key) => value[key] !== undefined);
}

function scalarText(value: PrintValue, flavor: Flavor): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return flavor.ts ? tsString(value) : jsonString(value);
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Code) return value.text;
  if (Array.isArray(value)) return '[]';
  return '{}';
}

/** A plain numeric literal in the printed text (`-1` is a unary expression; NaN and infinities print `null`). */
function isNumericLiteral(value: PrintValue): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isSignedNumber(value: PrintValue): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isEmptyContainer(value: PrintValue): boolean {
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && keysOf(value).length === 0;
}

/** Arrays of two or more objects, or of two or more arrays, each with more than one entry, always break. */
function breaksAlways(items: PrintValue[]): boolean {
  if (items.length < 2) return false;
  const first = items[0] as PrintValue;
  const arrays = Array.isArray(first);
  for (const item of items) {
    if (Array.isArray(item) ? !arrays || item.length < 2 : !isRecord(item) || arrays || keysOf(item).length < 2) return false;
  }
  return true;
}

/** Whether a value can only be printed over several lines (a break inside propagates to every enclosing group). */
function mustBreak(value: PrintValue, flavor: Flavor): boolean {
  if (value instanceof Compact) return mustBreak(...unwrap(value, flavor));
  if (isRecord(value))
    return flavor.compact ? keysOf(value).some((key) => mustBreak(value[key] as PrintValue, flavor)) : keysOf(value).length > 0;
  if (!Array.isArray(value)) return false;
  return breaksAlways(value) || value.some((item) => mustBreak(item, flavor));
}

/** Width of the value printed on one line, or Infinity once it exceeds `limit` or cannot be flat. */
function flatWidth(value: PrintValue, limit: number, flavor: Flavor): number {
  if (value instanceof Compact) return flatWidth(value.value, limit, unwrap(value, flavor)[1]);
  if (isRecord(value) && flavor.compact) return flatRecordWidth(value, limit, flavor);
  if (!Array.isArray(value)) {
    if (isRecord(value) && keysOf(value).length > 0) return Infinity;
    return textWidth(scalarText(value, flavor));
  }
  if (value.length === 0) return 2;
  if (breaksAlways(value)) return Infinity;
  let width = 2 + 2 * (value.length - 1);
  for (const item of value) {
    if (width > limit) return Infinity;
    width += flatWidth(item, limit - width, flavor);
  }
  return width > limit ? Infinity : width;
}

/** `{ key: value, … }` on one line: braces with a space inside, `, ` between properties. */
function flatRecordWidth(value: PrintRecord, limit: number, flavor: Flavor): number {
  const keys = keysOf(value);
  if (keys.length === 0) return 2;
  let width = 4 + 2 * (keys.length - 1);
  for (const key of keys) {
    if (width > limit) return Infinity;
    width += textWidth(keyText(key, flavor)) + 2 + flatWidth(value[key] as PrintValue, limit - width, flavor);
  }
  return width > limit ? Infinity : width;
}

function printFlat(value: PrintValue, flavor: Flavor): string {
  if (value instanceof Compact) return printFlat(...unwrap(value, flavor));
  if (isRecord(value) && flavor.compact) {
    const keys = keysOf(value);
    if (keys.length === 0) return '{}';
    return `{ ${keys.map((key) => `${keyText(key, flavor)}: ${printFlat(value[key] as PrintValue, flavor)}`).join(', ')} }`;
  }
  if (!Array.isArray(value) || value.length === 0) return scalarText(value, flavor);
  return `[${value.map((item) => printFlat(item, flavor)).join(', ')}]`;
}

function keyText(key: string, flavor: Flavor): string {
  return flavor.ts ? tsKey(key) : jsonString(key);
}

/**
 * Prints `value` starting at `column` on a line indented by `indent`; `trailing` is the width of what follows it
 * on the same line when its group breaks (a comma, or nothing after the last element of a JSON array).
 */
function print(value: PrintValue, column: number, indent: number, trailing: number, flavor: Flavor): string {
  if (value instanceof Compact) return print(value.value, column, indent, trailing, unwrap(value, flavor)[1]);
  // The width first: it stops at the line's end, while mustBreak walks the whole value, and a walk from every level
  // of a deep value (GitHub's argument schemas) is quadratic in its depth. A value that fits on a line is small.
  const fitsFlat = () =>
    column + flatWidth(value, PRINT_WIDTH - column - trailing, flavor) + trailing <= PRINT_WIDTH && !mustBreak(value, flavor);
  if (isRecord(value)) return flavor.compact && fitsFlat() ? printFlat(value, flavor) : printObject(value, indent, flavor);
  if (!Array.isArray(value)) return scalarText(value, flavor);
  if (value.length === 0) return '[]';
  if (fitsFlat()) return printFlat(value, flavor);
  const inner = indent + 2;
  const last = value.length - 1;
  const close = `${flavor.ts ? ',' : ''}\n${pad(indent)}]`;
  if (value.every(isSignedNumber)) return `[\n${pad(inner)}${fillNumbers(value as number[], inner, flavor)}${close}`;
  const lines = value.map((item, index) => pad(inner) + print(item, inner, inner, flavor.ts || index < last ? 1 : 0, flavor));
  return `[\n${lines.join(',\n')}${close}`;
}

/** Numbers fill lines: each goes on the current line when it fits after the one before (prettier's `fill`). */
function fillNumbers(items: number[], indent: number, flavor: Flavor): string {
  const texts = items.map((item, index) => `${numberText(item)}${index < items.length - 1 || flavor.ts ? ',' : ''}`);
  let out = texts[0] as string;
  let start = indent;
  for (let index = 1; index < texts.length; index++) {
    const previous = texts[index - 1] as string;
    const next = texts[index] as string;
    if (start + previous.length + 1 + next.length <= PRINT_WIDTH) {
      out += ` ${next}`;
      start += previous.length + 1;
    } else {
      out += `\n${pad(indent)}${next}`;
      start = indent;
    }
  }
  // The trailing comma of the last number is part of it in TypeScript; JSON has none.
  return flavor.ts ? out.slice(0, -1) : out;
}

function printObject(value: PrintRecord, indent: number, flavor: Flavor): string {
  const keys = keysOf(value);
  if (keys.length === 0) return '{}';
  const inner = indent + 2;
  const last = keys.length - 1;
  const lines = keys.map(
    (key, index) => pad(inner) + printProperty(key, value[key] as PrintValue, inner, flavor.ts || index < last ? 1 : 0, flavor),
  );
  return `{\n${lines.join(',\n')}${flavor.ts ? ',' : ''}\n${pad(indent)}}`;
}

function printProperty(key: string, wrapped: PrintValue, indent: number, trailing: number, outer: Flavor): string {
  const [value, flavor] = unwrap(wrapped, outer);
  const keyText = outer.ts ? tsKey(key) : jsonString(key);
  const keyWidth = textWidth(keyText);
  const after = indent + keyWidth + 2;
  // JSON never moves a value off its key's line; in TypeScript short keys, numbers and booleans never do either.
  const neverBreak = !flavor.ts || keyWidth < SHORT_KEY || typeof value === 'boolean' || isNumericLiteral(value);
  if (neverBreak) return `${keyText}: ${print(value, after, indent, trailing, flavor)}`;
  if (typeof value === 'string' || !(Array.isArray(value) || isRecord(value)) || isEmptyContainer(value)) {
    const text = scalarText(value, flavor);
    return after + textWidth(text) + trailing <= PRINT_WIDTH ? `${keyText}: ${text}` : `${keyText}:\n${pad(indent + 2)}${text}`;
  }
  // A non-empty array or object: it stays after the key unless even its opening bracket does not fit there.
  if (after + 1 <= PRINT_WIDTH) return `${keyText}: ${print(value, after, indent, trailing, flavor)}`;
  return `${keyText}:\n${pad(indent + 2)}${print(value, indent + 2, indent + 2, trailing, flavor)}`;
}

/**
 * `export const name: Type = value;` as prettier lays out a declaration (its "fluid" assignment layout): the value
 * stays on the line of `=` when it fits there or when at least its opening bracket does.
 */
export function printConst(name: string, type: string, wrapped: PrintValue): string {
  const [value, flavor] = unwrap(wrapped, TS);
  const head = `export const ${name}: ${type} =`;
  const column = head.length + 1;
  const opens = (Array.isArray(value) || isRecord(value)) && !isEmptyContainer(value);
  const fits =
    typeof value === 'boolean' ||
    isNumericLiteral(value) ||
    (opens ? column + 1 <= PRINT_WIDTH : column + flatWidth(value, PRINT_WIDTH, flavor) + 1 <= PRINT_WIDTH);
  if (fits) return `${head} ${print(value, column, 0, 1, flavor)};`;
  return `${head}\n  ${print(value, 2, 2, 1, flavor)};`;
}

/**
 * `export const name = callee({ … });`: prettier hugs a call's only object argument, so the object opens on the line
 * of the call and closes with it.
 */
export function printConstCall(name: string, callee: string, value: PrintRecord): string {
  const head = `export const ${name} = ${callee}(`;
  return `${head}${print(value, head.length, 0, 2, TS)});`;
}

/** A JSON document as prettier's `json` parser prints it, with a final newline. */
export function printJsonDocument(value: PrintValue): string {
  return `${print(value, 0, 0, 0, JSON_FLAVOR)}\n`;
}
