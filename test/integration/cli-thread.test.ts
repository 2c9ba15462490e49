import { execFileSync, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, REPO_ROOT, fixtureSpec } from '../helpers/paths.js';

/** Runs the bin with a standard input the test writes to and never closes, as a parent process might. */
function runWithOpenStdin(args: string[], write?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // The process may close its end first: what it does not read is not an error here.
    child.stdin.on('error', () => undefined);
    if (write !== undefined) child.stdin.write(write);
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`still running with stdin open: ${stderr}`));
    }, 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the command line in its worker thread (through the real bin)', () => {
  it('exits when a command never reads standard input, though the pipe stays open', async () => {
    const result = await runWithOpenStdin(['plan', fixtureSpec('oai-petstore.yaml')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('within budget');
  });

  it('exits with the size error when it stops reading standard input early, though the pipe stays open', async () => {
    const result = await runWithOpenStdin(['plan', '-', '--max-input-mb', '1'], `{"openapi": "3.0.0", "x": "${'a'.repeat(1_200_000)}`);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error[OTM_INPUT_TOO_LARGE]');
  });

  it('runs under Node heap flags the user gave, which replace its own limits', async () => {
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, ['--max-old-space-size=1024', BIN, 'plan', fixtureSpec('oai-petstore.yaml'), '--json'], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
  });

  it('runs the command on the main thread when its worker cannot start', () => {
    // A worker refuses an http: module synchronously, as it would where threads are unavailable; the command must
    // still run, in place (the built host, as the bin loads it).
    const host = pathToFileURL(path.join(REPO_ROOT, 'dist/cli/cli-thread.js')).href;
    const script = `
      const { runCliInThread } = await import(${JSON.stringify(host)});
      process.exitCode = await runCliInThread(new URL('http://example.invalid/cli-thread.js'), ${JSON.stringify([
        'plan',
        fixtureSpec('oai-petstore.yaml'),
        '--json',
      ])});`;
    const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect((JSON.parse(stdout) as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
  });

  it("speaks the user's language where yargs does: the bundled yargs finds the installed one's locale files", () => {
    const run = (lang: string) =>
      execFileSync(process.execPath, [BIN, '--help'], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, LC_ALL: lang, LANG: lang },
      });
    expect(run('de_DE.UTF-8')).toContain('Optionen:');
    expect(run('C')).toContain('Options:');
  });

  // Through a shell's pipe, as a user runs it: Node's own pipes to a child are sockets, and closing one did not make
  // the writer fail in this test.
  it.skipIf(process.platform === 'win32')(
    'exits with its own code and no stack trace when the reader of its output goes away (`plan --json | head`)',
    () => {
      // Xero's plan is about 180 kB of JSON: more than a pipe holds, so the write is still going when `head` leaves.
      const xero = path.join(REPO_ROOT, 'samples/xero-accounting/openapi.yaml');
      const script = '("$0" "$1" plan "$2" --json; echo "exit $?" >&2) | head -c 100 > /dev/null';
      const result = spawnSync('sh', ['-c', script, process.execPath, BIN, xero], { cwd: REPO_ROOT, encoding: 'utf8' });
      expect(result.stderr).toBe('exit 0\n');
    },
  );
});
