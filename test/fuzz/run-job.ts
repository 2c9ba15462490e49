import { emitProject } from '../../src/emit/emit-project.js';
import { runGenerate, runPlan } from '../../src/pipeline.js';
import type { Job, Report } from './sandbox.js';

/** The sandbox's job, in-process on the TypeScript sources: replays known inputs in the unit suite. */
export async function runJob(job: Job): Promise<Report> {
  const started = performance.now();
  try {
    const options = { spec: job.spec, ...(job.refRoot ? { refRoot: job.refRoot } : {}) };
    const result = job.out ? await runGenerate({ ...options, out: job.out }) : await runPlan(options);
    const files = !job.out && result.ok && result.plan ? (await emitProject(result.plan)).map((file) => file.path) : undefined;
    return {
      kind: 'done',
      ok: result.ok,
      diagnostics: result.diagnostics,
      ...(result.plan ? { plan: result.plan } : {}),
      ...(result.model ? { operations: result.model.operations.map((operation) => operation.key) } : {}),
      ...(files ? { files } : {}),
      elapsedMs: performance.now() - started,
    };
  } catch (error) {
    return { kind: 'threw', error: String((error as Error).stack ?? error), elapsedMs: performance.now() - started };
  }
}
