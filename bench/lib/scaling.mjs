// How each stage grows with the number of operations: GitHub's description cut to 5 … 1,223 operations.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runOurs, STAGES } from './generation.mjs';
import { growthExponent, median } from './stats.mjs';
import { operationsOf, subsetDocument } from './subset.mjs';

export const SIZES = [5, 10, 20, 50, 100, 200, 400, 800, 1223];

export async function measureScaling({ repo, github, work, runs, log }) {
  const document = JSON.parse(readFileSync(github, 'utf8'));
  const total = operationsOf(document).length;
  const dir = path.join(work, 'scaling');
  mkdirSync(dir, { recursive: true });
  const rows = [];
  for (const size of SIZES.filter((value) => value <= total)) {
    const spec = path.join(dir, `github-${size}.json`);
    const text = JSON.stringify(subsetDocument(document, size));
    writeFileSync(spec, text);
    const results = [];
    for (let run = 0; run < runs; run++) {
      const out = path.join(dir, `out-${size}`);
      rmSync(out, { recursive: true, force: true });
      const result = await runOurs(repo, spec, out);
      if (!result.ok) throw new Error(`generation of ${size} operations failed:\n${result.stderr.slice(-2000)}`);
      results.push(result);
    }
    const row = {
      operations: size,
      bytes: Buffer.byteLength(text),
      wallMs: median(results.map((result) => result.wallMs)),
      stages: Object.fromEntries(STAGES.map((stage) => [stage, median(results.map((result) => result.timings[stage]))])),
      // The fastest run of each stage, for the growth fit: other work on the machine and garbage-collection steps
      // only ever add time, so minimums show how the work itself grows.
      fastest: Object.fromEntries(
        [...STAGES, 'wall'].map((stage) => [
          stage,
          Math.min(...results.map((result) => (stage === 'wall' ? result.wallMs : result.timings[stage]))),
        ]),
      ),
      tools: results[0].tools,
    };
    rows.push(row);
    log(`  ${size} operations: ${Math.round(row.wallMs)} ms`);
  }
  // Growth exponents from 100 operations up, where fixed start-up costs no longer dominate.
  const upper = rows.filter((row) => row.operations >= 100);
  const exponents = Object.fromEntries(
    [...STAGES, 'wall'].map((stage) => [stage, growthExponent(upper.map((row) => [row.operations, row.fastest[stage]]))]),
  );
  return { rows, exponents };
}
