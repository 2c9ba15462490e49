// What the benchmark ran on: numbers mean little without the machine and how busy it was.
import { readFileSync } from 'node:fs';
import os from 'node:os';

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memory: `${Math.round(os.totalmem() / 1024 ** 3)} GiB`,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** Load averages (1, 5, 15 minutes) as `uptime` prints them. */
export function loadAverage() {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
}

/** Processes currently runnable (from /proc/loadavg), another view of how loaded the cores are right now. */
export function runnable() {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ')[3] ?? '?';
  } catch {
    return '?';
  }
}
