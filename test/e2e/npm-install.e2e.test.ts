import { mkdtemp, rm } from 'node:fs/promises';
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
    const help = await run(process.execPath, ['dist/main.js', '--help'], { cwd: dir });
    expect(help.stderr).toContain('--http');
  });
});
