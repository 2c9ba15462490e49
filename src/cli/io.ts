import type { Env } from './terminal.js';

/** What the CLI may touch of the process: the bin passes the real streams, tests pass recorders. */
export type CliIo = {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Colour on stderr/stdout (see colorEnabled). */
  color: boolean;
  cwd: string;
  /** Whether stderr is a terminal: progress lines are only drawn there. */
  stderrIsTTY?: boolean;
  /** The environment, for CI detection; defaults to none. */
  env?: Env;
  /** Terminal width for `--help`; 120 when unknown. */
  columns?: number;
  /** Reads standard input up to `maxBytes` (undefined past it); defaults to this thread's process.stdin. */
  readStdin?: (maxBytes: number) => Promise<string | undefined>;
  /**
   * For a command that runs until the user stops it (--watch): a signal that aborts at the first Ctrl-C (SIGINT) or
   * SIGTERM, so the command can finish what it is writing. Hosts listen only once asked; a second signal ends the
   * process at once. Without it, the command listens on this thread's process itself.
   */
  stopSignal?: () => AbortSignal;
};

export const EXIT = { ok: 0, input: 1, usage: 2 } as const;

/** A problem with how the command was invoked; printed without a stack, exit 2. */
export class UsageError extends Error {}
