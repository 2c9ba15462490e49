import path from 'node:path';
import { formatChange } from '../surface/diff-surface.js';
import { runDiff } from '../pipeline.js';
import { EXIT, type CliIo } from './io.js';
import type { ParsedFlags } from './options.js';
import { prepareRun } from './prepare.js';
import { printDiagnostics } from './print.js';
import { printable, type Colors } from './reporter.js';

export type DiffFlags = ParsedFlags & { old: string; new: string; json: boolean; failOnBreaking: boolean };

/**
 * `openapi-to-mcp diff <old> <new>`: what a regeneration would change for a model. The configuration applies to
 * both sides, so the diff shows what `openapi-to-mcp` with the same configuration would produce.
 */
export async function runDiffCommand(flags: DiffFlags, io: CliIo, colors: Colors): Promise<number> {
  const prepared = await prepareRun({ ...flags, spec: undefined }, { io, colors, json: flags.json, needsSpec: false });
  if ('code' in prepared) return prepared.code;
  const { spec: _ignored, ...options } = prepared.options;
  const local = (value: string) => (value === '-' || /^https?:\/\//i.test(value) ? value : path.resolve(io.cwd, value));
  const result = await runDiff({ ...options, old: local(flags.old), new: local(flags.new), onProgress: prepared.onProgress });
  prepared.progress.done();
  const breaking = result.diff?.breaking ?? 0;
  const code = !result.ok || (flags.failOnBreaking && breaking > 0) ? EXIT.input : EXIT.ok;
  if (flags.json) {
    io.stdout(
      `${JSON.stringify({ ok: result.ok, diagnostics: result.diagnostics, ...(result.diff ? { changes: result.diff.changes, breaking } : {}) }, null, 2)}\n`,
    );
    return code;
  }
  printDiagnostics(result.diagnostics, prepared, io, colors);
  if (!result.diff) return code;
  if (result.diff.changes.length === 0) io.stdout('No change to the tool surface.\n');
  else {
    io.stdout(
      `${result.diff.changes.length} change${result.diff.changes.length === 1 ? '' : 's'} to the tool surface, ${breaking} breaking:\n`,
    );
    for (const change of result.diff.changes)
      io.stdout(`  ${change.breaking ? colors.red(printable(formatChange(change))) : printable(formatChange(change))}\n`);
  }
  return code;
}
