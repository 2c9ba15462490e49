import type { Diagnostic } from '../diagnostics/diagnostic.js';

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
  const diagnostic = {
    ...raw,
    message: printable(raw.message),
    ...(raw.pointer !== undefined ? { pointer: printable(raw.pointer) } : {}),
    ...(raw.hint !== undefined ? { hint: printable(raw.hint) } : {}),
    ...(raw.file !== undefined ? { file: printable(raw.file) } : {}),
  };
  const paint = diagnostic.severity === 'error' ? colors.red : diagnostic.severity === 'warning' ? colors.yellow : colors.dim;
  const lines = [`${paint(`${diagnostic.severity}[${diagnostic.code}]`)} ${diagnostic.message}`];
  const place = [
    diagnostic.file,
    diagnostic.line !== undefined
      ? `line ${diagnostic.line}${diagnostic.column !== undefined ? `, column ${diagnostic.column}` : ''}`
      : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  if (diagnostic.pointer) lines.push(colors.dim(`  at ${diagnostic.pointer}${place ? ` (${place})` : ''}`));
  else if (place) lines.push(colors.dim(`  at ${place}`));
  if (diagnostic.hint) lines.push(colors.dim(`  hint: ${diagnostic.hint}`));
  return lines.join('\n');
}

/** Diagnostics worth printing: errors and warnings always, information only when asked. */
export function visibleDiagnostics(diagnostics: Diagnostic[], verbose: boolean): Diagnostic[] {
  return diagnostics.filter((diagnostic) => verbose || diagnostic.severity !== 'info');
}
