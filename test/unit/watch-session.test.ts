import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WatchSession } from '../../src/cache/watch-session.js';
import { modelOf, openapi } from '../helpers/inline.js';
import { FIXTURE_SPECS } from '../helpers/paths.js';
import { tempDir } from '../helpers/project.js';
import {
  addAndRemoveOperation,
  changeOneOperation,
  overrideByExtension,
  overridesForSecondOperation,
  proveCacheIdentical,
} from '../helpers/regeneration-proof.js';

// The cache signs with a key in the user's cache folder: the tests keep theirs in a temporary one.
const saved = process.env['XDG_CACHE_HOME'];
beforeAll(async () => {
  process.env['XDG_CACHE_HOME'] = await tempDir('watch-session-home');
});
afterAll(() => {
  if (saved === undefined) delete process.env['XDG_CACHE_HOME'];
  else process.env['XDG_CACHE_HOME'] = saved;
});

// The small version of the proof: every step through one session (generate and plan) against fresh runs of the same
// input. The whole proof, with corrupted cache files and shared components, is in test/integration.
describe('a watch session', () => {
  it('gives the output and plan of a fresh run after each edit', async () => {
    const document = JSON.parse(await readFile(path.join(FIXTURE_SPECS, 'oai-petstore-expanded.json'), 'utf8')) as Parameters<
      typeof changeOneOperation
    >[0];
    const changed = changeOneOperation(document);
    const overridden = overrideByExtension(addAndRemoveOperation(changed));
    const results = await proveCacheIdentical(
      await tempDir('watch-session-unit'),
      [
        { name: 'first generation', document },
        { name: 'one changed operation', document: changed },
        { name: 'an added and a removed operation, an x-mcp override', document: overridden },
        { name: 'a configuration override', document: overridden, options: { overrides: overridesForSecondOperation(overridden) } },
      ],
      { session: new WatchSession() },
    );
    // The edits reached the plan: each step planned something else than the one before.
    const plans = results.map((result) => JSON.stringify(result.cached.plan));
    for (const [index, plan] of plans.entries()) if (index > 0) expect(plan, results[index]?.step).not.toBe(plans[index - 1]);
    expect(plans[2]).toContain('proof_own_tool');
    expect(plans[3]).toContain('Overridden by the proof configuration.');
  });

  it('hands back the last model’s operations and named schemas where their JSON is what it was', async () => {
    const ok = (ref: string) => ({ responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: ref } } } } } });
    const paths = { '/pets': { get: { operationId: 'listPets', ...ok('#/components/schemas/Pet') } } };
    const pet = { type: 'object', properties: { name: { type: 'string' } } };
    const text = (schema: object, summary?: string) =>
      openapi(
        { '/pets': { get: { ...paths['/pets'].get, ...(summary ? { summary } : {}) } } },
        { components: { schemas: { Pet: schema } } },
      );
    const session = new WatchSession();
    const first = session.intern((await modelOf(text(pet))).model);
    const same = session.intern((await modelOf(text(pet, 'List the pets'))).model);
    expect(same.schemas).toBe(first.schemas);
    expect(same.operations[0]).not.toBe(first.operations[0]);
    const again = session.intern((await modelOf(text(pet, 'List the pets'))).model);
    expect(again.operations[0]).toBe(same.operations[0]);
    const changed = session.intern((await modelOf(text({ ...pet, required: ['name'] }))).model);
    expect(changed.schemas).not.toBe(first.schemas);
    expect(changed.schemas).toEqual((await modelOf(text({ ...pet, required: ['name'] }))).model.schemas);
  });
});
