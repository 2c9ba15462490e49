import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureSpec } from '../helpers/paths.js';
import { generateProject, run } from '../helpers/project.js';

/**
 * One project the way a user gets it: generated outside this repository (so nothing resolves from its
 * node_modules), installed from the registry with npm, built, and tested with its own suite.
 */
describe('a generated project installs, builds and tests itself', () => {
  let root: string;
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('npm install && npm run build && npm test', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'openapi-to-mcp-install-'));
    const dir = path.join(root, 'museum-mcp');
    await generateProject({ spec: fixtureSpec('redocly-museum.yaml'), out: dir });
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const install = await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, timeoutMs: 600_000 });
    expect(install.code, install.stderr.slice(-3000)).toBe(0);
    const build = await run(npm, ['run', 'build'], { cwd: dir });
    expect(build.code, build.stdout + build.stderr).toBe(0);
    const test = await run(npm, ['test'], { cwd: dir });
    expect(test.code, (test.stdout + test.stderr).slice(-3000)).toBe(0);
    // Usage and version are what was asked for: on stdout, as every command line tool prints them.
    const help = await run(process.execPath, ['dist/main.js', '--help'], { cwd: dir });
    expect(help.stdout).toContain('--http');
    expect(help.stderr).toBe('');
    const version = await run(process.execPath, ['dist/main.js', '--version'], { cwd: dir });
    expect(version.stdout).toMatch(/^[a-z-]+-mcp 1\.2\.1\n$/);
    expect(version.stderr).toBe('');
    // The museum's description declares no scheme a user's token could stand for: no per-user modes, none of their
    // libraries among the dependencies (jose still comes with the MCP client, a devDependency for the tests), and a
    // start that asks for them is refused with the reason.
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const library of ['jose', 'oauth4webapi', 'cookie', '@redis/client']) expect(manifest.dependencies).not.toHaveProperty(library);
    for (const library of ['oauth4webapi', '@redis/client'])
      expect(existsSync(path.join(dir, 'node_modules', library)), library).toBe(false);
    const perUser = await run(process.execPath, ['dist/main.js', '--http', '--port', '0'], {
      cwd: dir,
      env: { REDOCLY_MUSEUM_UPSTREAM_AUTH: 'oauth' },
      timeoutMs: 30_000,
    });
    expect(perUser.code).toBe(2);
    expect(perUser.stderr).toContain('REDOCLY_MUSEUM_UPSTREAM_AUTH=oauth needs a security scheme that a signed-in user');
  });
});
