import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { run } from '../helpers/project.js';

/** The commands of the README's first `sh` block under `## Try it`, as a stranger copies them (comments and all). */
async function firstCommands(): Promise<string[]> {
  const readme = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Try it'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.split('\n').filter((line) => line.trim() !== '');
}

/**
 * A stranger's clone: `git clone`, then the README's first commands exactly as written, in a shell. The clone holds
 * what is committed, as a stranger's would (no dist/, no node_modules).
 */
describe("a fresh clone runs the README's first commands as written", () => {
  let root: string | undefined;
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('npm ci && npm run build, then node bin/openapi-to-mcp.js samples/petstore/openapi.yaml', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'openapi-to-mcp-clone-'));
    const clone = path.join(root, 'openapi-to-mcp');
    const cloned = await run('git', ['clone', '--quiet', REPO_ROOT, clone], { cwd: root, timeoutMs: 120_000 });
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(existsSync(path.join(clone, 'dist'))).toBe(false);
    const commands = await firstCommands();
    expect(commands.length).toBeGreaterThan(1);
    for (const command of commands) {
      // --prefer-offline: the packages come from this machine's npm cache where it has them, as a second clone's would.
      const line = command.replace(/^npm ci\b/, 'npm ci --prefer-offline --no-audit --no-fund');
      const result = await run('sh', ['-c', line], { cwd: clone, env: { NO_COLOR: '1', CI: '1' }, timeoutMs: 900_000 });
      expect(result.code, `${command}\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-3000)}`).toBe(0);
    }
    for (const file of ['README.md', '.env.example', 'package.json', 'src/api.ts'])
      expect(existsSync(path.join(clone, 'swagger-petstore-mcp', file)), file).toBe(true);
    // A clean install and build take minutes on a busy 2-core machine.
  }, 900_000);
});
