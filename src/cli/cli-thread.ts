import { setFlagsFromString } from 'node:v8';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { dropOutputOnClosedPipe } from './closed-output.js';
import { enableCompileCache } from './compile-cache.js';
import { interruptSignal, onInterrupt } from './interrupt.js';
import { EXIT } from './io.js';
import { printJsonFailure } from './print.js';
import { ansiColors, formatDiagnostic, NO_COLORS } from './reporter.js';
import { colorEnabled } from './terminal.js';

/** What the main thread hands the command line's worker: the parts of CliIo that are values, not functions. */
export type CliThreadData = { argv: string[]; color: boolean; cwd: string; stderrIsTTY: boolean; columns?: number };

/**
 * What the worker posts back, in the order it happened. `listen-stop`: a command that runs until stopped (--watch)
 * asks to be told of Ctrl-C, which only the main thread receives; the host answers each with a `stop` message.
 */
export type CliThreadMessage =
  { kind: 'stdout' | 'stderr'; text: string } | { kind: 'stdin' } | { kind: 'listen-stop' } | { kind: 'exit'; code: number };

/** What the host posts to the worker. */
export type CliHostMessage = { kind: 'stop' };

/**
 * The worker's young generation, in MB (a third of it is one semi-space). V8's default lets it grow to 48 MB, which
 * a generation fills with short-lived planning data between collections: on GitHub's description a 12 MB one peaks
 * about 20 MB lower for a few per cent more collection work.
 */
const YOUNG_GENERATION_MB = 12;

/**
 * The worker's old-generation limit, in MB. V8 lets a heap with a limit of 2 GB or more grow to four times what
 * survived its last full collection before collecting again, and one with a smaller limit to about twice: the peak
 * of a run is that slack more than what it keeps. Far above what the largest description we know needs
 * (Microsoft Graph's, about 600 MB of memory in all).
 */
const OLD_GENERATION_MB = 2000;

/**
 * How long a function runs before V8 weighs optimizing it: V8's interrupt budget (67,584 by default), sixteen times
 * over. A generation runs a large, varied code base once, for a few seconds, and with V8's default its optimizing
 * compiler compiles hundreds of functions that then run for milliseconds: on GitHub's description the compiler's
 * background threads spent about 1.6 s of CPU (beside the run's own 2.2 s), which on a machine of two cores is time
 * the run waits. With a larger budget only the loops that run long are optimized; the run's own thread takes the same
 * time, the compiler a third of what it did.
 */
const INTERRUPT_BUDGET = 16 * 67_584;

/**
 * The V8 flags the command line sets for its process and threads (V8's flags hold for every thread): the interrupt
 * budget, unless the command that started Node set one (`nodeFlags`: its flags; NODE_OPTIONS may not carry this one).
 * V8 12 (Node 22) dropped the flag for invocation counts and prints an error for it on every run: none is set there.
 */
export function compilerFlags(nodeFlags: string, v8Version: string = process.versions.v8): string[] {
  if (Number.parseInt(v8Version, 10) >= 12 || /--interrupt-budget\b/.test(nodeFlags)) return [];
  return [`--interrupt-budget=${INTERRUPT_BUDGET}`];
}

/**
 * Runs the command line in a worker thread whose heap is sized for a generator rather than for throughput, and
 * relays its output, standard input and exit code. `entry` is the worker's module (the bundle's `cli-thread.js`).
 * Node's own heap flags (`--max-old-space-size`, in the command or NODE_OPTIONS) are the user's choice and win.
 */
export function runCliInThread(entry: URL, argv: string[]): Promise<number> {
  // For what this thread imports from here on (the command line itself, when it runs in place); the worker enables
  // the cache for its own modules.
  enableCompileCache();
  const data: CliThreadData = {
    argv,
    color: colorEnabled(process.env, Boolean(process.stderr.isTTY)),
    cwd: process.cwd(),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    ...(process.stdout.columns ? { columns: process.stdout.columns } : {}),
  };
  // `--version` does no work worth a heap of its own, and answers faster without starting one.
  if (argv.length === 1 && argv[0] === '--version') return runInPlace(data);
  for (const flag of compilerFlags(process.execArgv.join(' '))) setFlagsFromString(flag);
  const resourceLimits = workerHeapLimits(`${process.execArgv.join(' ')} ${process.env['NODE_OPTIONS'] ?? ''}`);
  let worker: Worker;
  try {
    // None of the process's flags: see validate-concurrently.ts (V8's apply to every thread anyway).
    worker = new Worker(entry, { workerData: data, execArgv: [], stdin: true, resourceLimits });
  } catch {
    return runInPlace(data);
  }
  return new Promise((resolve) => {
    let code: number | undefined;
    let stdinPiped = false;
    // A command that runs until stopped is stopped as by Ctrl-C when nobody reads its output any more.
    let stopWorker: (() => void) | undefined;
    let outputClosed = false;
    dropOutputOnClosedPipe(() => {
      outputClosed = true;
      stopWorker?.();
    });
    worker.on('message', (message: CliThreadMessage) => {
      if (message.kind === 'stdout') process.stdout.write(message.text);
      else if (message.kind === 'stderr') process.stderr.write(message.text);
      else if (message.kind === 'exit') {
        code = message.code;
        // A worker that read standard input keeps waiting on it, even after it stopped reading early (a
        // description over the size limit) or the main thread closed its end. The command has returned and
        // everything it posted came before this message, so nothing is left to wait for.
        if (stdinPiped) {
          process.stdin.unpipe();
          process.stdin.destroy();
          void worker.terminate();
        }
      } else if (message.kind === 'listen-stop') {
        stopWorker = () => worker.postMessage({ kind: 'stop' } satisfies CliHostMessage);
        onInterrupt(stopWorker);
        if (outputClosed) stopWorker();
      } else if (!stdinPiped && worker.stdin) {
        // Standard input is read only when a command asks for it (`-` as the description), so a terminal or an
        // open pipe nobody writes to never holds the process.
        stdinPiped = true;
        process.stdin.pipe(worker.stdin);
      }
    });
    worker.on('error', (error) => {
      const diagnostic = failureDiagnostic(error, resourceLimits);
      if (!diagnostic) process.stderr.write(`internal error: ${error.stack ?? error.message}\n`);
      // Scripts that asked for JSON get JSON, as for any other failure.
      else if (argv.includes('--json')) printJsonFailure([diagnostic], { stdout: (text) => process.stdout.write(text) });
      else process.stderr.write(`${formatDiagnostic(diagnostic, data.color ? ansiColors() : NO_COLORS)}\n`);
      code = EXIT.input;
    });
    worker.on('exit', () => {
      if (stdinPiped) process.stdin.destroy();
      resolve(code ?? EXIT.input);
    });
  });
}

/** The worker's heap limits, leaving out any that the process's Node flags (`nodeFlags`) already set. */
export function workerHeapLimits(nodeFlags: string): ResourceLimits {
  return {
    ...(/--max-(semi-space-size|young-generation-size)/.test(nodeFlags) ? {} : { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB }),
    ...(/--max-old-space-size|--max-heap-size/.test(nodeFlags) ? {} : { maxOldGenerationSizeMb: OLD_GENERATION_MB }),
  };
}

/** The worker's failure as a diagnostic when it is the description's doing (out of memory); undefined for a bug. */
export function failureDiagnostic(error: Error, limits: ResourceLimits): Diagnostic | undefined {
  if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_OUT_OF_MEMORY') return undefined;
  const limit = limits.maxOldGenerationSizeMb;
  return {
    severity: 'error',
    code: 'OTM_OUT_OF_MEMORY',
    message: `Generating from this description needs more memory than ${limit ? `the ${limit} MB the generator gives itself` : "Node's heap limit allows"}.`,
    hint: 'Raise the limit: NODE_OPTIONS=--max-old-space-size=8192 npx openapi-to-mcp …',
  };
}

/** Where a worker cannot start, the command runs on this thread with Node's default heap. */
async function runInPlace(data: CliThreadData): Promise<number> {
  const { runCli } = await import('./main.js');
  return runCli(data.argv, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    color: data.color,
    cwd: data.cwd,
    stderrIsTTY: data.stderrIsTTY,
    env: process.env,
    ...(data.columns ? { columns: data.columns } : {}),
    stopSignal: interruptSignal,
  });
}
