import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitProject } from '../../src/emit/emit-project.js';
import { runPlan } from '../../src/pipeline.js';
import { fixtureSpec, REPO_ROOT } from '../helpers/paths.js';

/**
 * Golden files: the emitted project of small vendored descriptions, file by file, under test/golden/<name>/. A
 * change to emitted code shows as a diff of these files in review; `npx vitest run --project unit
 * test/unit/golden.test.ts --update` rewrites them after a deliberate change (`-u` before the file name would take
 * it as its value and update every snapshot of the suite). Runtime modules copied verbatim from
 * templates/runtime are listed, not copied: the samples type-check them, and their source is reviewed where it is.
 */
const DESCRIPTIONS = ['oai-tictactoe.yaml', 'xero-webhooks.yaml', 'sentry-shaped.yaml'];

describe('golden files of emitted projects', () => {
  for (const description of DESCRIPTIONS) {
    it(`${description} emits the project in test/golden`, async () => {
      const result = await runPlan({ spec: fixtureSpec(description) });
      expect(result.diagnostics.filter((item) => item.severity === 'error')).toEqual([]);
      const files = await emitProject(result.plan!);
      const golden = path.join(REPO_ROOT, 'test/golden', description.replace(/\.[a-z]+$/, ''));
      const listing: string[] = [];
      for (const file of files) {
        const copied = await isRuntimeCopy(file.path, file.content);
        listing.push(`${file.path} ${file.ownership}${copied ? ' (copy of templates/runtime)' : ''}`);
        if (!copied) await expect(file.content).toMatchFileSnapshot(path.join(golden, file.path));
      }
      await expect(`${listing.join('\n')}\n`).toMatchFileSnapshot(path.join(golden, 'FILES.txt'));
    });
  }
});

async function isRuntimeCopy(file: string, content: string): Promise<boolean> {
  if (!file.startsWith('src/runtime/')) return false;
  const template = await readFile(path.join(REPO_ROOT, 'templates/runtime', file.slice('src/runtime/'.length)), 'utf8').catch(
    () => undefined,
  );
  // The copy starts with the generated-file header line; everything after it must be the template as it is.
  return template !== undefined && content.slice(content.indexOf('\n') + 1) === template;
}
