import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/kernel/json.js';
import { crashSigns, runBin } from '../helpers/cli.js';
import { TMP } from '../helpers/paths.js';
import { buildProject, linkDependencies } from '../helpers/project.js';
import { loadSeeds, slice, type Seed } from './corpus.js';
import { minimize } from './minimize.js';
import { damageText, mutate } from './mutate.js';
import { problemsOf } from './oracle.js';
import { iterationSeed, Random } from './random.js';
import { saveRegression, serialize, type Regression } from './regressions.js';
import { Sandbox, type Job } from './sandbox.js';

/**
 * Seeded mutation fuzzing of the generator on the vendor corpus. Each iteration takes a corpus description (sliced to
 * a few paths when large), applies a few mutations, and asserts the generator either generates (a plan that keeps
 * the tool rules, an emitted project; a sample is written and compiled with tsc, a sample goes through the real CLI)
 * or refuses with catalogued error diagnostics — never throws, hangs or crashes. Failures are minimised and saved to
 * test/fixtures/fuzz-regressions/, which the unit suite replays.
 *
 *   FUZZ_SEED=…        run seed (default fixed: every run checks the same inputs)
 *   FUZZ_ITERATIONS=…  iterations (default 800, about four minutes on two cores)
 *   FUZZ_SECONDS=…     stop early after this long (default 240), reported, not a failure
 *   FUZZ_ITERATION=…   run only this iteration (to reproduce a failure)
 *   FUZZ_BUILD_EVERY / FUZZ_CLI_EVERY  compile every Nth generated project / run every Nth input through the bin
 */

const env = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && process.env[name] !== '' && process.env[name] !== undefined ? value : fallback;
};
const RUN_SEED = env('FUZZ_SEED', 20261129);
const ITERATIONS = env('FUZZ_ITERATIONS', 800);
const MAX_SECONDS = env('FUZZ_SECONDS', 240);
const BUILD_EVERY = env('FUZZ_BUILD_EVERY', 25);
const CLI_EVERY = env('FUZZ_CLI_EVERY', 150);
const TIMEOUT_MS = env('FUZZ_TIMEOUT_MS', 60_000);
const ONLY = process.env['FUZZ_ITERATION'] === undefined ? undefined : Number(process.env['FUZZ_ITERATION']);

type Input = {
  index: number;
  seed: number;
  source: Seed;
  document: JsonObject;
  mutations: string[];
  format: 'json' | 'yaml';
  text?: string;
};

/** The input of iteration `index`: a pure function of the run seed and the index. */
function inputOf(index: number, seeds: Seed[]): Input {
  const seed = iterationSeed(RUN_SEED, index);
  const random = new Random(seed);
  const source = random.pick(seeds);
  const document = slice(random, source);
  const mutations = mutate(random, document);
  const format = random.chance(0.15) ? (source.format === 'json' ? 'yaml' : 'json') : source.format;
  if (random.chance(0.08)) {
    const damaged = damageText(random, serialize(document, format));
    return { index, seed, source, document, mutations: [...mutations, damaged.what], format, text: damaged.text };
  }
  return { index, seed, source, document, mutations, format };
}

describe('fuzzing the generator with mutated corpus descriptions', () => {
  const work = path.join(TMP, `fuzz-${process.pid}`);
  const sandbox = new Sandbox();
  let seeds: Seed[];

  beforeAll(async () => {
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    seeds = await loadSeeds(work);
  });

  afterAll(async () => {
    await sandbox.close();
    await rm(work, { recursive: true, force: true });
  });

  it(`never throws, hangs or crashes (seed ${RUN_SEED})`, { timeout: (MAX_SECONDS + 600) * 1000 }, async () => {
    const started = Date.now();
    const stats = { iterations: 0, generated: 0, refused: 0, built: 0, cli: 0, slowestMs: 0, slowest: '' };
    const failures: string[] = [];
    const specFile = (input: Input) => path.join(input.source.entryDir, `fuzz-input.${input.format}`);
    const judge = async (input: Input, text: string, job: Omit<Job, 'spec'> = {}) => {
      await writeFile(specFile(input), text);
      return sandbox.run({ spec: specFile(input), refRoot: input.source.refRoot, ...job }, TIMEOUT_MS);
    };
    const indices = ONLY !== undefined ? [ONLY] : Array.from({ length: ITERATIONS }, (_, index) => index);
    for (const index of indices) {
      if ((Date.now() - started) / 1000 > MAX_SECONDS) break;
      const input = inputOf(index, seeds);
      const text = input.text ?? serialize(input.document, input.format);
      // Written first: if the whole run dies, this names the input that killed it.
      await writeFile(
        path.join(TMP, 'fuzz-progress.json'),
        JSON.stringify({ runSeed: RUN_SEED, iteration: index, seed: input.seed, source: input.source.name }),
      );
      const report = await judge(input, text);
      stats.iterations++;
      if (report.elapsedMs > stats.slowestMs)
        Object.assign(stats, { slowestMs: Math.round(report.elapsedMs), slowest: `${index} (${input.source.name})` });
      const problems = problemsOf(report);
      if (report.kind === 'done' && report.ok) {
        stats.generated++;
        if (stats.generated % BUILD_EVERY === 0) {
          const out = path.join(work, 'build');
          await rm(out, { recursive: true, force: true });
          const written = await judge(input, text, { out });
          problems.push(...problemsOf(written).map((problem) => `generate: ${problem}`));
          if (written.kind === 'done' && written.ok) {
            await linkDependencies(out);
            await buildProject(out).catch((error: Error) => problems.push(`tsc: ${error.message.slice(0, 2000)}`));
            stats.built++;
          }
        }
      } else if (report.kind === 'done') stats.refused++;
      if (index % CLI_EVERY === 0) {
        const cli = await runBin(['plan', specFile(input), '--json', '--ref-root', input.source.refRoot]);
        problems.push(...crashSigns(cli).map((sign) => `cli: ${sign}: ${cli.stderr.slice(0, 500)}`));
        stats.cli++;
      }
      if (problems.length === 0) continue;
      failures.push(await record(input, text, problems, judge));
    }
    const seconds = Math.round((Date.now() - started) / 1000);
    const summary = `fuzz: seed ${RUN_SEED}, ${stats.iterations} iterations in ${seconds} s: ${stats.generated} generated, ${stats.refused} refused, ${stats.built} compiled with tsc, ${stats.cli} through the CLI, ${failures.length} failures; slowest ${stats.slowestMs} ms (iteration ${stats.slowest})`;
    console.log(summary);
    await writeFile(path.join(TMP, 'fuzz-summary.txt'), `${summary}\n${failures.join('\n')}\n`);
    expect(failures).toEqual([]);
  });
});

/** Minimises a failing input (documents only; a hang is kept as it was) and saves it as a regression. */
async function record(
  input: Input,
  text: string,
  problems: string[],
  judge: (input: Input, text: string) => Promise<import('./sandbox.js').Report>,
): Promise<string> {
  const signature = (problem: string | undefined) => (problem ?? '').replace(/\d+/g, '#').slice(0, 80);
  const wanted = signature(problems[0]);
  const minimal =
    input.text === undefined && !problems[0]?.startsWith('hang') && !problems[0]?.startsWith('crash')
      ? await minimize(
          input.document,
          async (candidate) =>
            problemsOf(await judge(input, serialize(candidate, input.format))).some((problem) => signature(problem) === wanted),
          { attempts: 300, deadlineMs: Date.now() + 120_000 },
        )
      : input.document;
  const regression: Regression = {
    seed: input.seed,
    runSeed: RUN_SEED,
    iteration: input.index,
    source: input.source.name,
    mutations: input.mutations,
    failure: problems.join('\n'),
    fix: '',
    format: input.format,
    ...(input.text !== undefined ? { text } : { document: minimal }),
  };
  const file = await saveRegression(regression);
  return `iteration ${input.index} (seed ${input.seed}, ${input.source.name}; ${input.mutations.join('; ')}): ${problems.join(' / ')} → ${path.basename(file)}`;
}
