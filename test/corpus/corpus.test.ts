import { describe, expect, it } from 'vitest';
import { CORPUS, corpusOptions } from '../helpers/corpus.js';
import { buildProject, generateProject, linkDependencies, runProjectTests, tempDir } from '../helpers/project.js';
import { toolRuleViolations } from '../helpers/tool-rules.js';

/**
 * Every description of the corpus (test/helpers/corpus.ts): the plan keeps every rule and covers every operation exactly once,
 * the generated project builds, and its own test suite (the official client listing the tools and calling every
 * action against a local mock of the API) passes.
 */
describe.each(CORPUS)('$name', (entry) => {
  it('generates a project that builds and passes its own tests', async () => {
    const dir = await tempDir(`corpus-${entry.name}`);
    const result = await generateProject({
      ...corpusOptions(entry),
      out: dir,
    });
    const plan = result.plan!;
    const operations = result.model!.operations.map((operation) => operation.key);
    expect(operations).toHaveLength(entry.operations);
    expect(toolRuleViolations(plan, operations)).toEqual([]);
    await linkDependencies(dir);
    await buildProject(dir);
    const tests = await runProjectTests(dir);
    expect(tests.code, `${tests.stdout}\n${tests.stderr}`.slice(-4000)).toBe(0);
  });
});
