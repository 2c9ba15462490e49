import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { PLACES_SHOWN, type DiagnosticGroup } from './repeated-diagnostics.js';

export type Colors = {
  red: (text: string) => string;
  yellow: (text: string) => string;
  dim: (text: string) => string;
  bold: (text: string) => string;
  green: (text: string) => string;
};

const plain = (text: string) => text;
export const NO_COLORS: Colors = { red: plain, yellow: plain, dim: plain, bold: plain, green: plain };

export function ansiColors(): Colors {
  const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
  return { red: wrap(31, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22), green: wrap(32, 39) };
}

/**
 * Text from a description made safe for a terminal: control characters (an escape sequence can clear the screen or
 * rewrite earlier lines, a line break can forge a diagnostic) and bidirectional overrides become visible escapes.
 */
export function printable(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `error[OTM_CODE] message` / `  at #/pointer` / `  hint: …`, the format documented in the README. */
export function formatDiagnostic(raw: Diagnostic, colors: Colors): string {
  const place = placeOf(raw);
  return [headline(raw, colors), ...(place ? [colors.dim(`  at ${place}`)] : []), ...hintLine(raw, colors)].join('\n');
}

/**
 * One diagnostic repeated at several places, in as many lines as one: the count after the message, the first few
 * places on the `at` line and how many more there are (`--verbose` prints each).
 */
export function formatRepeatedDiagnostic(group: DiagnosticGroup, colors: Colors): string {
  if (group.all.length === 1) return formatDiagnostic(group.first, colors);
  const places = group.all.slice(0, PLACES_SHOWN).map((diagnostic) => placeOf(diagnostic) || '?');
  const more = group.all.length - places.length;
  const at = `  at ${places.join(', ')}${more > 0 ? ` and ${more.toLocaleString('en-US')} more (--verbose lists every one)` : ''}`;
  const count = colors.bold(`(${group.all.length.toLocaleString('en-US')} times)`);
  return [`${headline(group.first, colors)} ${count}`, colors.dim(at), ...hintLine(group.first, colors)].join('\n');
}

function headline(raw: Diagnostic, colors: Colors): string {
  const paint = raw.severity === 'error' ? colors.red : raw.severity === 'warning' ? colors.yellow : colors.dim;
  return `${paint(`${raw.severity}[${raw.code}]`)} ${printable(raw.message)}`;
}

function hintLine(raw: Diagnostic, colors: Colors): string[] {
  return raw.hint ? [colors.dim(`  hint: ${printable(raw.hint)}`)] : [];
}

/** Where a diagnostic points: its JSON pointer, then file and line in brackets (or file and line alone). */
function placeOf(raw: Diagnostic): string {
  const line = raw.line !== undefined ? `line ${raw.line}${raw.column !== undefined ? `, column ${raw.column}` : ''}` : undefined;
  const place = [raw.file !== undefined ? printable(raw.file) : undefined, line].filter(Boolean).join(' ');
  if (raw.pointer) return `${printable(raw.pointer)}${place ? ` (${place})` : ''}`;
  return place;
}

/** Diagnostics worth printing: errors and warnings always, information only when asked. */
export function visibleDiagnostics(diagnostics: Diagnostic[], verbose: boolean): Diagnostic[] {
  return diagnostics.filter((diagnostic) => verbose || diagnostic.severity !== 'info');
}
