// The README's test command, `npm test` (vitest's unit project), timed as a user runs it: once, whole process.
import { measure } from './processes.mjs';

/** Vitest's per-file lines (`✓ unit path (n tests) 1234ms`), slowest first. */
function fileTimes(output) {
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const files = [...plain.matchAll(/^ [✓×↓] +unit +(\S+\.test\.ts) \(\d+ tests?[^)]*\) +(\d+)ms$/gm)];
  return files.map((match) => ({ file: match[1], ms: Number(match[2]) })).sort((a, b) => b.ms - a.ms);
}

export async function measureTestSuite({ repo, log }) {
  log('  npm test (vitest run --project unit)');
  const result = await measure(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--project', 'unit'], {
    cwd: repo,
    env: { FORCE_COLOR: '0' },
  });
  const summary = /Tests\s+(\d+) passed/.exec(result.stdout.replace(/\u001b\[[0-9;]*m/g, ''));
  return {
    ok: result.code === 0,
    wallMs: result.wallMs,
    cpuMs: result.cpuMs,
    peakRssKb: result.peakRssKb,
    tests: summary ? Number(summary[1]) : undefined,
    slowest: fileTimes(result.stdout).slice(0, 8),
  };
}
