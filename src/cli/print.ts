import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { CliIo } from './io.js';
import { groupRepeats } from './repeated-diagnostics.js';
import { formatDiagnostic, formatRepeatedDiagnostic, visibleDiagnostics, type Colors } from './reporter.js';

export type PrintOptions = { quiet: boolean; verbose: boolean };

/**
 * Diagnostics on stderr: errors always, warnings unless quiet, information only when verbose. A diagnostic repeated
 * at several places prints once with a count and its first places; `--verbose` prints every one.
 */
export function printDiagnostics(diagnostics: Diagnostic[], options: PrintOptions, io: CliIo, colors: Colors): void {
  const shown = visibleDiagnostics(diagnostics, options.verbose).filter((diagnostic) => !options.quiet || diagnostic.severity === 'error');
  if (options.verbose) {
    for (const diagnostic of shown) io.stderr(`${formatDiagnostic(diagnostic, colors)}\n`);
    return;
  }
  for (const group of groupRepeats(shown)) io.stderr(`${formatRepeatedDiagnostic(group, colors)}\n`);
}

/** `{ ok: false, diagnostics }` on stdout, the JSON shape of every failed command. */
export function printJsonFailure(diagnostics: Diagnostic[], io: Pick<CliIo, 'stdout'>): void {
  io.stdout(`${JSON.stringify({ ok: false, diagnostics }, null, 2)}\n`);
}

export const plural = (count: number, word: string) => `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`;
