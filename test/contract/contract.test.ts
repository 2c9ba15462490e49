import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS, type CorpusEntry } from '../helpers/corpus.js';
import { REPO_ROOT, TMP } from '../helpers/paths.js';
import { expectationFor, staleEntries } from './expected-failures.js';
import { renderReport } from './report.js';
import { runDescription, type DescriptionResult } from './run-description.js';

/**
 * The contract run: every description with operations, its generated server started against Prism mocking the same
 * description, every action called (required arguments, then all). A call passes when Prism accepts the request it
 * caused; the rest must be listed, with the defect in the description, in expected-failures.ts.
 * CONTRACT_ONLY=name,name limits the run to some descriptions while working on them; CONTRACT_EXTRA=file,file adds
 * descriptions outside the corpus (held-out ones), checked the same way, with no expected failures.
 */
const only = (process.env['CONTRACT_ONLY'] ?? '').split(',').filter(Boolean);
const extra: CorpusEntry[] = (process.env['CONTRACT_EXTRA'] ?? '')
  .split(',')
  .filter(Boolean)
  .map((file) => ({ name: path.basename(file).replace(/\.(ya?ml|json)$/, ''), spec: path.resolve(file), operations: 1 }));
// Largest first, two at a time (vitest.config.ts: maxConcurrency): the run is bound by Prism's CPU time, and two
// cores keep two descriptions busy.
const entries = [
  ...CORPUS.filter((entry) => entry.operations > 0 && !entry.noContract && (only.length === 0 || only.includes(entry.name))).sort(
    (a, b) => b.operations - a.operations,
  ),
  ...extra,
];
const results: DescriptionResult[] = [];
const REPORT = path.join(REPO_ROOT, 'test/contract/results.md');

afterAll(async () => {
  if (results.length === 0) return;
  const report = renderReport(
    [...results].sort((a, b) => a.name.localeCompare(b.name)),
    (name, outcome) => expectationFor(name, outcome),
  );
  // The checked-in report is only rewritten by a full run; partial runs write next to the other scratch output.
  const target = only.length === 0 && extra.length === 0 ? REPORT : path.join(TMP, 'contract-results.md');
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, report);
  await writeFile(path.join(TMP, 'contract-outcomes.json'), JSON.stringify(results, null, 1));
  process.stdout.write(`\n${report}\nWritten to ${path.relative(REPO_ROOT, target)}\n`);
});

describe.concurrent.each(entries)('$name', (entry) => {
  it('sends requests the description accepts, for every action', async () => {
    const result = await runDescription(entry);
    results.push(result);
    const unexpected = result.outcomes
      .filter((outcome) => outcome.verdict !== 'accepted' && !expectationFor(entry.name, outcome))
      .map((outcome) => `${outcome.operation} (${outcome.pass}): ${outcome.verdict}: ${outcome.reason ?? outcome.text ?? ''}`);
    const protocolErrors = result.outcomes
      .filter((outcome) => outcome.protocolError !== undefined)
      .map((outcome) => `${outcome.operation} (${outcome.pass}): ${outcome.protocolError}`);
    const stale = staleEntries(entry.name, result.outcomes).map((text) => `${text}: remove it from expected-failures.ts`);
    expect({ unexpected, protocolErrors, stale }).toEqual({ unexpected: [], protocolErrors: [], stale: [] });
  });
});
