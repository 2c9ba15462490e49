import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { BIN, REPO_ROOT } from './paths.js';
import { run, type CommandResult } from './project.js';

export type CliResult = CommandResult & {
  /** `--json` output, when the command printed one. */
  json?: { ok: boolean; diagnostics: Diagnostic[] };
  /** Peak resident memory of the CLI process, in MB, with `measureMemory`. */
  maxRssMb?: number;
  elapsedMs: number;
};

/** Prints the process's peak memory on exit; loaded with --import so the bin itself runs unchanged. */
const MEMORY_PROBE = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\nOTM_MAX_RSS_KB='+process.resourceUsage().maxRSS+'\\n'))`;

/** Runs the real CLI (bin/openapi-to-mcp.js) in a child process, as a user would. */
export async function runBin(
  args: string[],
  options: { input?: string; cwd?: string; measureMemory?: boolean; timeoutMs?: number } = {},
): Promise<CliResult> {
  const started = Date.now();
  const result = await run(process.execPath, [...(options.measureMemory ? ['--import', MEMORY_PROBE] : []), BIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { NO_COLOR: '1' },
    ...(options.input !== undefined ? { input: options.input } : {}),
    timeoutMs: options.timeoutMs ?? 120_000,
  });
  const elapsedMs = Date.now() - started;
  const memory = /\nOTM_MAX_RSS_KB=(\d+)\n/.exec(result.stderr);
  const stderr = result.stderr.replace(/\nOTM_MAX_RSS_KB=\d+\n/, '');
  let json: CliResult['json'];
  if (args.includes('--json')) {
    try {
      json = JSON.parse(result.stdout) as CliResult['json'];
    } catch {
      json = undefined;
    }
  }
  return { ...result, stderr, elapsedMs, ...(json ? { json } : {}), ...(memory ? { maxRssMb: Number(memory[1]) / 1024 } : {}) };
}

/** A stack trace or an internal error in CLI output: what no input may ever produce. */
export function crashSigns(result: CommandResult): string[] {
  const text = `${result.stdout}\n${result.stderr}`;
  const signs: string[] = [];
  if (result.code !== 0 && result.code !== 1) signs.push(`exit code ${result.code}`);
  if (/internal error/i.test(text)) signs.push('an internal error');
  if (/^\s+at .+(:\d+:\d+\)?|\(native\)|<anonymous>)$/m.test(text)) signs.push('a stack trace');
  return signs;
}
