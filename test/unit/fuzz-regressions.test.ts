import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_NAMES } from '../helpers/corpus-lists.js';
import { tempDir } from '../helpers/project.js';
import { placeFor } from '../fuzz/place.js';
import { problemsOf } from '../fuzz/oracle.js';
import { inputText, readRegressions } from '../fuzz/regressions.js';
import { runJob } from '../fuzz/run-job.js';

/**
 * Every input the fuzzer (npm run test:fuzz) ever broke the generator with, from test/fixtures/fuzz-regressions/:
 * each must now be handled — generated, or refused with diagnostics — on the current sources.
 */
const regressions = await readRegressions();

describe('fuzz regressions', () => {
  it('are recorded with their seed, source, failure and fix', () => {
    for (const { file, regression } of regressions) {
      expect(Number.isInteger(regression.seed), file).toBe(true);
      expect(CORPUS_NAMES, file).toContain(regression.source);
      expect(regression.failure.length, file).toBeGreaterThan(0);
      expect(regression.fix.length, `${file}: say what fixed it`).toBeGreaterThan(10);
      expect(regression.document !== undefined || regression.text !== undefined, file).toBe(true);
    }
  });

  it.each(regressions.map(({ file, regression }) => ({ file, regression })))('$file is handled now', async ({ regression }) => {
    const dir = await tempDir('fuzz-regression');
    await mkdir(dir, { recursive: true });
    const { entryDir, refRoot } = await placeFor(dir, regression.source);
    const spec = path.join(entryDir, `input.${regression.format}`);
    await writeFile(spec, inputText(regression));
    const report = await runJob({ spec, refRoot });
    expect(problemsOf(report)).toEqual([]);
    // Several were hangs: each takes well under a second now.
    expect(report.elapsedMs).toBeLessThan(10_000);
  });
});
