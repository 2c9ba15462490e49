import type { JsonSchemaType } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { emitProject } from '../../src/emit/emit-project.js';
import { runGenerate, runPlan } from '../../src/pipeline.js';
import type { Job, Report } from './sandbox.js';

/** The generated server's validator: what it cannot compile, the server cannot start with. */
const validator = new AjvJsonSchemaValidator();

/** The sandbox's job, in-process on the TypeScript sources: replays known inputs in the unit suite. */
export async function runJob(job: Job): Promise<Report> {
  const started = performance.now();
  try {
    const options = { spec: job.spec, ...(job.refRoot ? { refRoot: job.refRoot } : {}) };
    const result = job.out ? await runGenerate({ ...options, out: job.out }) : await runPlan(options);
    const files = !job.out && result.ok && result.plan ? (await emitProject(result.plan)).map((file) => file.path) : undefined;
    const schemaErrors: string[] = [];
    for (const tool of result.ok && result.plan ? result.plan.tools : []) {
      try {
        validator.getValidator(tool.inputSchema as JsonSchemaType);
      } catch (error) {
        schemaErrors.push(`${tool.name}: ${(error as Error).message}`);
      }
    }
    return {
      kind: 'done',
      ok: result.ok,
      diagnostics: result.diagnostics,
      ...(result.plan ? { plan: result.plan } : {}),
      ...(result.model ? { operations: result.model.operations.map((operation) => operation.key) } : {}),
      ...(files ? { files } : {}),
      schemaErrors,
      elapsedMs: performance.now() - started,
    };
  } catch (error) {
    return { kind: 'threw', error: String((error as Error).stack ?? error), elapsedMs: performance.now() - started };
  }
}
