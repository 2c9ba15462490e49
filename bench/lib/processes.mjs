// Running a command and measuring it: wall time from spawn to exit, and peak resident memory.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const TIME = '/usr/bin/time';

/**
 * Runs a command to completion. Peak RSS comes from GNU time (`%M`, the kernel's maximum resident set size) when
 * it is installed, else from polling /proc/<pid>/status (VmHWM) every 5 ms; CPU time (user + system, all threads and
 * waited-for children) from GNU time only — on a shared machine it moves less with the load than wall time does.
 */
export function measure(command, args, { cwd, env, input } = {}) {
  const useTime = existsSync(TIME);
  const argv = useTime ? [TIME, '-f', 'BENCH_MAXRSS_KB=%M BENCH_CPU_S=%U+%S', command, ...args] : [command, ...args];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(argv[0], argv.slice(1), { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let polledPeak = 0;
    const poll = useTime
      ? undefined
      : setInterval(() => {
          polledPeak = Math.max(polledPeak, statusKb(child.pid, 'VmHWM'));
        }, 5);
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (poll) clearInterval(poll);
      const match = /BENCH_MAXRSS_KB=(\d+) BENCH_CPU_S=([\d.]+)\+([\d.]+)/.exec(stderr);
      resolve({
        code,
        wallMs,
        peakRssKb: match ? Number(match[1]) : polledPeak || NaN,
        cpuMs: match ? (Number(match[2]) + Number(match[3])) * 1000 : NaN,
        stdout,
        stderr: stderr.replace(/BENCH_MAXRSS_KB=\d+ BENCH_CPU_S=\S+\n?/, ''),
      });
    });
    child.stdin.end(input ?? '');
  });
}

/** A field of /proc/<pid>/status in kB (VmRSS, VmHWM), or 0 when it cannot be read. */
export function statusKb(pid, field) {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Runs a command and fails loudly when it fails. */
export async function mustRun(command, args, options = {}) {
  const result = await measure(command, args, options);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.code}):\n${result.stdout}\n${result.stderr}`.slice(0, 4000));
  return result;
}
