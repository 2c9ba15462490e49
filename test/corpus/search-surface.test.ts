import { describe, expect, it } from 'vitest';
import { CORPUS, corpusOptions } from '../helpers/corpus.js';
import { buildProject, generateProject, linkDependencies, runProjectTests, tempDir } from '../helpers/project.js';

/** What `tools/list` may cost on the search surface, whatever the size of the API. */
const MAX_SURFACE_TOKENS = 2500;

/**
 * Every description of the corpus on the search surface: a few tools within 2,500 tokens, every
 * operation reachable under exactly one id, reads, writes and deletions in separately annotated tools, and the
 * generated project builds and passes its own tests (every action found by a search for its summary and called
 * through its call tool against a local mock of the API).
 */
describe.each(CORPUS)('$name', (entry) => {
  it('generates a search surface that reaches every operation, builds and passes its own tests', async () => {
    const dir = await tempDir(`search-${entry.name}`);
    const result = await generateProject({ ...corpusOptions(entry), out: dir, surface: 'search' });
    const search = result.surface?.search;
    expect(search?.tokens).toBeLessThanOrEqual(MAX_SURFACE_TOKENS);
    const catalog = search?.catalog ?? [];
    expect(new Set(catalog.map((entry) => entry.id)).size).toBe(catalog.length);
    const reached = catalog.map((action) => `${action.method} ${action.path}`).sort();
    const operations = (result.model?.operations ?? []).map((operation) => `${operation.method} ${operation.path}`).sort();
    expect(reached).toEqual(operations);
    for (const tool of search?.tools ?? []) {
      if (tool.role === 'read' || tool.role === 'search') expect(tool.annotations.readOnlyHint).toBe(true);
      if (tool.role === 'write') expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      if (tool.role === 'delete') expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    }
    await linkDependencies(dir);
    await buildProject(dir);
    const tests = await runProjectTests(dir);
    expect(tests.code, `${tests.stdout}\n${tests.stderr}`.slice(-4000)).toBe(0);
  });
});
