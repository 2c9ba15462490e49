import path from 'node:path';
import { CONFIG_FILE_NAMES } from '../config/load-config.js';
import { interruptSignal } from './interrupt.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { plural } from './print.js';
import type { Colors } from './reporter.js';
import { resolveRun } from './resolve-run.js';
import { generateOnce, type GenerateFlags } from './run-generate.js';
import { watchFiles } from './watch-files.js';

/**
 * `openapi-to-mcp spec.yaml --watch`: generates, then generates again whenever the description, a file its `$ref`s
 * read, or the configuration changes, until Ctrl-C. A failed run (a description that does not parse, a broken
 * configuration) is reported and leaves the project as it was; the watch goes on. Each run after the first finds
 * the process warm (its modules loaded and compiled) and the regeneration cache in the output folder.
 */
export async function watchGenerate(flags: GenerateFlags, io: CliIo, colors: Colors): Promise<number> {
  if (flags.check) throw new UsageError('--watch and --check do not go together: --check answers once, for CI.');
  const resolved = await resolveRun(flags, io.cwd);
  const entry = resolved.options.spec;
  if (entry === '-' || (entry !== undefined && /^https?:/i.test(entry)))
    throw new UsageError(`--watch needs a description file: ${entry === '-' ? 'standard input' : entry} cannot be watched.`);
  const configs = flags.config ? [path.resolve(io.cwd, flags.config)] : CONFIG_FILE_NAMES.map((name) => path.join(io.cwd, name));
  const signal = io.stopSignal?.() ?? interruptSignal();
  const quiet = flags.json || resolved.quiet;
  let first = true;
  await watchFiles(
    async (changed) => {
      if (!quiet && changed.length > 0)
        io.stderr(`\n${colors.dim(clock())} ${changed.map((file) => shown(file, io.cwd)).join(', ')} changed: generating again\n`);
      const run = await generateOnce(flags, io, colors, !first);
      const inputs = [...(run.spec !== undefined ? [path.resolve(io.cwd, run.spec)] : []), ...run.referenced];
      if (first && !quiet)
        io.stderr(
          `${colors.dim(`watching ${inputs.length > 0 ? shown(inputs[0] as string, io.cwd) : 'the configuration'}${inputs.length > 1 ? ` and ${plural(inputs.length - 1, 'file')} it refers to` : ''} for changes; Ctrl-C stops`)}\n`,
        );
      first = false;
      return [...new Set([...inputs, ...configs])];
    },
    [...(entry !== undefined ? [path.resolve(io.cwd, entry)] : []), ...configs],
    signal,
  );
  if (!quiet) io.stderr(`${colors.dim('stopped watching')}\n`);
  return EXIT.ok;
}

function clock(): string {
  return new Date().toTimeString().slice(0, 8);
}

function shown(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
