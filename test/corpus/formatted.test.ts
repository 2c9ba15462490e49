import { describe, expect, it } from 'vitest';
import { emitProject } from '../../src/emit/emit-project.js';
import { runPlan } from '../../src/pipeline.js';
import { CORPUS, corpusOptions } from '../helpers/corpus.js';
import { prettierFormat } from '../helpers/prettier.js';

/**
 * The emitter prints generated modules and JSON files in their final form instead of running prettier over them
 * (which took most of a generation's time). For every vendor description, prettier must leave every generated
 * TypeScript and JSON file exactly as it is.
 */
describe.each(CORPUS)('$name', (entry) => {
  it('emits files prettier leaves unchanged', async () => {
    const result = await runPlan(corpusOptions(entry));
    expect(result.plan, JSON.stringify(result.diagnostics.slice(0, 3))).toBeDefined();
    const files = await emitProject(result.plan!);
    for (const file of files.filter((candidate) => /\.(ts|json)$/.test(candidate.path))) {
      expect(file.content, file.path).toBe(await prettierFormat(file.path, file.content));
    }
  });
});
