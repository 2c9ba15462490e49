import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dump } from 'js-yaml';
import type { JsonValue } from '../../src/kernel/json.js';
import { REPO_ROOT } from '../helpers/paths.js';

/** Every input the fuzzer ever broke the generator with, replayed by test/unit/fuzz-regressions.test.ts. */
export const REGRESSIONS = path.join(REPO_ROOT, 'test/fixtures/fuzz-regressions');

export type Regression = {
  /** Seed of the iteration that found it (`FUZZ_SEED` and the iteration number reproduce it as well). */
  seed: number;
  runSeed: number;
  iteration: number;
  /** The corpus description it was mutated from. */
  source: string;
  mutations: string[];
  /** What went wrong when it was found. */
  failure: string;
  /** What was changed so that it no longer does (written by hand when the bug is fixed). */
  fix: string;
  format: 'json' | 'yaml';
  /** The input, minimised: a document, or raw text when the damage was to the text itself. */
  document?: JsonValue;
  text?: string;
};

export async function readRegressions(): Promise<Array<{ file: string; regression: Regression }>> {
  const files = (await readdir(REGRESSIONS).catch(() => [] as string[])).filter((file) => file.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (file) => ({ file, regression: JSON.parse(await readFile(path.join(REGRESSIONS, file), 'utf8')) as Regression })),
  );
}

export async function saveRegression(regression: Regression): Promise<string> {
  await mkdir(REGRESSIONS, { recursive: true });
  const file = path.join(REGRESSIONS, `${regression.source}-${regression.seed}.json`);
  await writeFile(file, `${JSON.stringify(regression, null, 2)}\n`);
  return file;
}

/** The text a regression's input is fed to the generator as. */
export function inputText(regression: Pick<Regression, 'document' | 'text' | 'format'>): string {
  if (regression.text !== undefined) return regression.text;
  return serialize(regression.document ?? null, regression.format);
}

export function serialize(document: JsonValue, format: 'json' | 'yaml'): string {
  if (format === 'json') return JSON.stringify(document, null, 1);
  try {
    return dump(document, { noRefs: true, lineWidth: -1 });
  } catch {
    // A value YAML cannot dump (a lone surrogate) goes in as JSON, which is YAML too.
    return JSON.stringify(document);
  }
}
