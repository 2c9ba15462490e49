import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/paths.js';

type Manifest = { name: string; version: string };
const manifest = async () => JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;

/** What a stranger meets in the bin itself (the README's part is test/unit/stranger.test.ts). */
describe('what a stranger meets in the bin', () => {
  it('--help leads with the clone and the tarball, and gives the registry form as what it will be', async () => {
    const help = await runBin(['--help']);
    expect(help.code).toBe(0);
    const { name, version } = await manifest();
    const text = help.stdout.replace(/\s+/g, ' ');
    const clone = text.indexOf('In a clone (after npm ci && npm run build): node bin/openapi-to-mcp.js spec.yaml');
    const tarball = text.indexOf(
      `Elsewhere: npm install /path/to/${name}-${version}.tgz (from npm pack in the clone), then npx openapi-to-mcp`,
    );
    const registry = text.indexOf(`Once ${name} is on the npm registry, from any folder: npx -p ${name} openapi-to-mcp spec.yaml`);
    expect(clone).toBeGreaterThan(0);
    expect(tarball).toBeGreaterThan(clone);
    expect(registry).toBeGreaterThan(tarball);
  });

  it('--version prints the version on stdout and nothing on stderr, alone or after a command', async () => {
    const { version } = await manifest();
    for (const args of [['--version'], ['plan', '--version'], ['--version', '--json']]) {
      const result = await runBin(args);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout, args.join(' ')).toBe(`${version}\n`);
      expect(result.stderr, args.join(' ')).toBe('');
    }
  });
});
