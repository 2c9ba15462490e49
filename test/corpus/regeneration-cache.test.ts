import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { WatchSession } from '../../src/cache/watch-session.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/project.js';
import { proofSteps, proveCacheIdentical } from '../helpers/regeneration-proof.js';

// GitHub's description (1,223 operations) from the @octokit/openapi devDependency: the regeneration cache's proof at
// the size it is for. The fast variant on a vendored description is in test/integration/regeneration-cache.test.ts.
const github = path.join(
  path.dirname(createRequire(path.join(REPO_ROOT, 'package.json')).resolve('@octokit/openapi/package.json')),
  'generated/api.github.com.json',
);

const saved = process.env['XDG_CACHE_HOME'];
beforeAll(async () => {
  process.env['XDG_CACHE_HOME'] = await tempDir('regen-cache-home');
});
afterAll(() => {
  if (saved === undefined) delete process.env['XDG_CACHE_HOME'];
  else process.env['XDG_CACHE_HOME'] = saved;
});

describe('regeneration cache on GitHub', () => {
  it('leaves the output byte-identical to a full run after every kind of change', async () => {
    const document = JSON.parse(await readFile(github, 'utf8')) as Parameters<typeof proofSteps>[0];
    await proveCacheIdentical(await tempDir('regen-cache-github'), proofSteps(document));
    // Fifteen steps, each a full generation of GitHub's description and a cached one: past ten minutes on a loaded machine.
  }, 1_800_000);
});

describe('a watch session on GitHub', () => {
  it('gives the output and plan of a fresh run after every kind of change, its work carried in memory', async () => {
    const document = JSON.parse(await readFile(github, 'utf8')) as Parameters<typeof proofSteps>[0];
    await proveCacheIdentical(await tempDir('watch-session-github'), proofSteps(document), { session: new WatchSession() });
  }, 1_800_000);

  it('does so saved as YAML, a changed path item parsed and validated alone', async () => {
    const document = JSON.parse(await readFile(github, 'utf8')) as Parameters<typeof proofSteps>[0];
    const session = new WatchSession();
    await proveCacheIdentical(await tempDir('watch-session-github-yaml'), proofSteps(document), { session, format: 'yaml' });
  }, 1_800_000);
});
