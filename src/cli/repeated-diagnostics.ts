import type { Diagnostic } from '../diagnostics/diagnostic.js';

/** Diagnostics that say the same thing (severity, code, message and hint) at different places, in first-seen order. */
export type DiagnosticGroup = { first: Diagnostic; all: Diagnostic[] };

/**
 * Groups repeats: Stripe's description describes a body on 213 GET operations, and 213 identical warnings (639 lines)
 * bury everything else on a terminal. The places differ, the message and the fix do not.
 */
export function groupRepeats(diagnostics: readonly Diagnostic[]): DiagnosticGroup[] {
  const groups = new Map<string, DiagnosticGroup>();
  for (const diagnostic of diagnostics) {
    const key = JSON.stringify([diagnostic.severity, diagnostic.code, diagnostic.message, diagnostic.hint ?? '']);
    const group = groups.get(key);
    if (group) group.all.push(diagnostic);
    else groups.set(key, { first: diagnostic, all: [diagnostic] });
  }
  return [...groups.values()];
}

/** How many places a grouped diagnostic names before `and N more`. */
export const PLACES_SHOWN = 3;
