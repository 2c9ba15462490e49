import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { WatchSession } from '../../src/cache/watch-session.js';
import { FIXTURE_SPECS } from '../helpers/paths.js';
import { tempDir } from '../helpers/project.js';
import { proofSteps, proveCacheIdentical } from '../helpers/regeneration-proof.js';

// The cache signs with a key in the user's cache folder: the tests keep theirs in a temporary one.
const saved = process.env['XDG_CACHE_HOME'];
beforeAll(async () => {
  process.env['XDG_CACHE_HOME'] = await tempDir('regen-cache-home');
});
afterAll(() => {
  if (saved === undefined) delete process.env['XDG_CACHE_HOME'];
  else process.env['XDG_CACHE_HOME'] = saved;
});

describe('regeneration cache on a vendored description', () => {
  it('leaves the output byte-identical to a full run after every kind of change, and is used when nothing changed', async () => {
    const document = load(await readFile(path.join(FIXTURE_SPECS, 'redocly-museum.yaml'), 'utf8')) as Parameters<typeof proofSteps>[0];
    await proveCacheIdentical(await tempDir('regen-cache-proof'), proofSteps(document));
    // Fifteen steps, each generated twice: several minutes on a loaded machine.
  }, 300_000);
});

describe('a watch session on a vendored description', () => {
  it('gives the output and plan of a fresh run after every kind of change, its work carried in memory', async () => {
    const document = load(await readFile(path.join(FIXTURE_SPECS, 'redocly-museum.yaml'), 'utf8')) as Parameters<typeof proofSteps>[0];
    await proveCacheIdentical(await tempDir('watch-session-proof'), proofSteps(document), { session: new WatchSession() });
  }, 300_000);

  it('does so saved as YAML, a changed item parsed and validated alone', async () => {
    const document = load(await readFile(path.join(FIXTURE_SPECS, 'redocly-museum.yaml'), 'utf8')) as Parameters<typeof proofSteps>[0];
    const session = new WatchSession();
    await proveCacheIdentical(await tempDir('watch-session-yaml-proof'), proofSteps(document), { session, format: 'yaml' });
  }, 300_000);
});
