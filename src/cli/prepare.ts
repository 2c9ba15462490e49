import { Diagnostics } from '../diagnostics/diagnostic.js';
import type { PipelineStage } from '../pipeline.js';
import { EXIT, type CliIo } from './io.js';
import type { ParsedFlags } from './options.js';
import { printDiagnostics, printJsonFailure } from './print.js';
import type { Colors } from './reporter.js';
import { resolveRun, type ResolvedRun } from './resolve-run.js';
import { isCi, NO_PROGRESS, terminalProgress, type Progress } from './terminal.js';

export type Prepared = ResolvedRun & { progress: Progress; onProgress: (stage: PipelineStage) => void };

/**
 * Resolves flags and configuration for a command and prints what is wrong with them. Returns an exit code instead
 * when the command cannot run: a bad configuration or flag value is a usage problem (exit 2), like an unknown flag.
 */
export async function prepareRun(
  flags: ParsedFlags,
  context: { io: CliIo; colors: Colors; json: boolean; needsSpec: boolean },
): Promise<Prepared | { code: number }> {
  const { io, colors, json } = context;
  const resolved = await resolveRun(flags, io.cwd);
  if (context.needsSpec && resolved.options.spec === undefined && !resolved.diagnostics.hasErrors) {
    const missing = new Diagnostics();
    missing.error('OTM_CONFIG_INVALID', 'No OpenAPI description given.', {
      hint: 'Pass a file, - for stdin or an http(s) URL, or set `spec` in a configuration file (`openapi-to-mcp init` writes one).',
    });
    resolved.diagnostics.add(missing.items[0] as (typeof missing.items)[number]);
  }
  if (resolved.diagnostics.hasErrors) {
    if (json) printJsonFailure(resolved.diagnostics.items, io);
    else {
      printDiagnostics(resolved.diagnostics.items, { quiet: false, verbose: false }, io, colors);
      io.stderr(`${colors.dim('Run openapi-to-mcp --help for the options.')}\n`);
    }
    return { code: EXIT.usage };
  }
  if (!json) printDiagnostics(resolved.diagnostics.items, resolved, io, colors);
  const env = io.env ?? {};
  const progress = io.stderrIsTTY && !isCi(env) && !resolved.quiet && !json ? terminalProgress(io.stderr) : NO_PROGRESS;
  const options = io.readStdin ? { ...resolved.options, readStdin: io.readStdin } : resolved.options;
  return { ...resolved, options, progress, onProgress: (stage) => progress.stage(stage) };
}
