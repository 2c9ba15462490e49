import type { PipelineStage } from '../pipeline.js';

export type Env = Record<string, string | undefined>;

/**
 * Colour on a terminal unless NO_COLOR is set (no-color.org), and anywhere when FORCE_COLOR asks for it
 * (force-color.org; `0` or `false` turn it off, empty means unset) — the precedence Node's own util.inspect uses.
 */
export function colorEnabled(env: Env, isTTY: boolean): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '') return force !== '0' && force.toLowerCase() !== 'false';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  return isTTY && env['TERM'] !== 'dumb';
}

/** CI services set CI=true (GitHub, GitLab, CircleCI, Buildkite…); their logs would fill with rewritten lines. */
export function isCi(env: Env): boolean {
  const value = env['CI'];
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

const LABELS: Record<PipelineStage, string> = {
  load: 'Reading the description',
  model: 'Building the API model',
  plan: 'Planning tools',
  emit: 'Emitting the project',
  write: 'Writing files',
};

export type Progress = { stage: (stage: PipelineStage) => void; done: () => void };

export const NO_PROGRESS: Progress = { stage: () => undefined, done: () => undefined };

/**
 * One status line on stderr, rewritten in place as the stages go by and erased at the end, so that only the summary
 * stays. Only for a person at a terminal: the caller passes NO_PROGRESS for pipes, CI, --quiet and --json.
 */
export function terminalProgress(write: (text: string) => void, now: () => number = () => performance.now()): Progress {
  const started = now();
  let shown = false;
  return {
    stage: (stage) => {
      shown = true;
      const seconds = ((now() - started) / 1000).toFixed(1);
      write(`\r\u001b[2K${LABELS[stage]}… (${seconds} s)`);
    },
    done: () => {
      if (shown) write('\r\u001b[2K');
      shown = false;
    },
  };
}
