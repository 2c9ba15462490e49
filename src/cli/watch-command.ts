import { realpathSync } from 'node:fs';
import path from 'node:path';
import { WatchSession } from '../cache/watch-session.js';
import { CONFIG_FILE_NAMES } from '../config/load-config.js';
import { interruptSignal } from './interrupt.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { plural } from './print.js';
import type { Colors } from './reporter.js';
import type { ParsedFlags } from './options.js';
import { resolveRun } from './resolve-run.js';
import { watchFiles } from './watch-files.js';

/** What one run of a watched command reports: its exit code, the entry file and the files its `$ref`s read. */
export type WatchedRun = { code: number; spec?: string; referenced: string[] };

/**
 * `--watch` for `generate` and `plan`: runs the command, then again whenever the description, a file its `$ref`s read,
 * or the configuration changes, until Ctrl-C. A failed run (a description that does not parse, a broken
 * configuration) is reported and changes nothing; the watch goes on — but a run that failed on a save still being
 * written is not reported: the watch runs again on the finished file. Each run after the first finds the process warm
 * (its modules loaded and compiled) and the session's work of the run before (WatchSession). `run` is told whether it
 * is a later run, which reports more briefly, and given the output to report on and the session.
 */
export async function watchCommand(
  flags: ParsedFlags & { json: boolean; check?: boolean },
  io: CliIo,
  colors: Colors,
  run: (again: boolean, io: CliIo, session: WatchSession) => Promise<WatchedRun>,
  verb: 'generating' | 'planning',
): Promise<number> {
  if (flags.check) throw new UsageError('--watch and --check do not go together: --check answers once, for CI.');
  const resolved = await resolveRun(flags, io.cwd);
  const entry = resolved.options.spec;
  if (entry === '-' || (entry !== undefined && /^https?:/i.test(entry)))
    throw new UsageError(`--watch needs a description file: ${entry === '-' ? 'standard input' : entry} cannot be watched.`);
  const configFiles = flags.config ? [path.resolve(io.cwd, flags.config)] : CONFIG_FILE_NAMES.map((name) => path.join(io.cwd, name));
  const configs = configFiles.flatMap(withTarget);
  const signal = io.stopSignal?.() ?? interruptSignal();
  const quiet = flags.json || resolved.quiet;
  // With --json, every run prints one document: one line each, so that a reader can take them as they come.
  const runIo: CliIo = flags.json ? { ...io, stdout: (text) => io.stdout(`${oneLine(text)}\n`) } : io;
  const session = new WatchSession();
  let first = true;
  await watchFiles(
    async (changed, savedSince) => {
      if (!quiet && changed.length > 0)
        io.stderr(`\n${colors.dim(clock())} ${changed.map((file) => shown(file, io.cwd)).join(', ')} changed: ${verb} again\n`);
      // A later run's output waits for its outcome: a failure on a save still under way is dropped, not shown.
      const held = first ? undefined : heldIo(runIo);
      const result = await run(!first, held?.io ?? runIo, session);
      session.idle();
      if (held && !(result.code !== EXIT.ok && (await savedSince()))) held.release();
      const inputs = [...(result.spec !== undefined ? withTarget(path.resolve(io.cwd, result.spec)) : []), ...result.referenced];
      if (first && !quiet) {
        const what = result.spec !== undefined ? shown(path.resolve(io.cwd, result.spec), io.cwd) : 'the configuration';
        const refs = result.referenced.length > 0 ? ` and ${plural(result.referenced.length, 'file')} it refers to` : '';
        io.stderr(`${colors.dim(`watching ${what}${refs} for changes; Ctrl-C stops`)}\n`);
      }
      first = false;
      return [...new Set([...inputs, ...configs])];
    },
    [...(entry !== undefined ? withTarget(path.resolve(io.cwd, entry)) : []), ...configs],
    signal,
  );
  // The last run's cache writes, done after its report, end before the process does.
  await session.close();
  if (!quiet) io.stderr(`${colors.dim('stopped watching')}\n`);
  return EXIT.ok;
}

/**
 * A file as given and, when it is a symbolic link, the file it points to: a save of the target changes nothing in the
 * link's folder. (The files `$ref`s read are reported by their real paths already.)
 */
function withTarget(file: string): string[] {
  try {
    const real = realpathSync(file);
    return real === file ? [file] : [file, real];
  } catch {
    return [file];
  }
}

/**
 * An output that keeps what a run writes until released. Without a progress line: drawn late, all at once, it would
 * only flicker.
 */
function heldIo(io: CliIo): { io: CliIo; release: () => void } {
  const writes: Array<() => void> = [];
  return {
    io: {
      ...io,
      stderrIsTTY: false,
      stdout: (text) => writes.push(() => io.stdout(text)),
      stderr: (text) => writes.push(() => io.stderr(text)),
    },
    release: () => {
      for (const write of writes.splice(0)) write();
    },
  };
}

function oneLine(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json));
  } catch {
    return json.trimEnd();
  }
}

function clock(): string {
  return new Date().toTimeString().slice(0, 8);
}

function shown(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
