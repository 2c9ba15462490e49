import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { ToolPlan } from '../../src/plan/tool-plan.js';
import { REPO_ROOT } from '../helpers/paths.js';

const require = createRequire(import.meta.url);

/** One generation to try: plan and emit in memory, or (with `out`) the whole pipeline, writing the project. */
export type Job = { spec: string; refRoot?: string; out?: string };

export type Report =
  | {
      kind: 'done';
      ok: boolean;
      diagnostics: Diagnostic[];
      plan?: ToolPlan;
      operations?: string[];
      files?: string[];
      /** Input schemas the generated server's validator (the SDK's Ajv) cannot compile: the server would not start. */
      schemaErrors?: string[];
      elapsedMs: number;
    }
  | { kind: 'threw'; error: string; elapsedMs: number }
  | { kind: 'hung'; elapsedMs: number }
  | { kind: 'crashed'; error: string; elapsedMs: number };

/**
 * The job in a worker thread, on the built generator (dist/, which `npm ci` and `npm run build` produce): a worker can
 * be terminated when a description makes the generator spin (a synchronous loop cannot be interrupted otherwise) and
 * has its own heap limit, so a runaway allocation is reported instead of killing the test run. Plain JavaScript,
 * because a worker cannot load TypeScript; it mirrors `runJob` in run-job.ts, which replays regressions in-process.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { runPlan, runGenerate } = await import(workerData.pipeline);
  const { emitProject } = await import(workerData.emit);
  const { AjvJsonSchemaValidator } = await import(workerData.ajv);
  const validator = new AjvJsonSchemaValidator();
  parentPort.on('message', async (job) => {
    const started = performance.now();
    try {
      const options = { spec: job.spec, ...(job.refRoot ? { refRoot: job.refRoot } : {}) };
      const result = job.out ? await runGenerate({ ...options, out: job.out }) : await runPlan(options);
      let files;
      if (!job.out && result.ok && result.plan) files = (await emitProject(result.plan)).map((file) => file.path);
      const schemaErrors = [];
      for (const tool of (result.ok && result.plan ? result.plan.tools : [])) {
        try {
          validator.getValidator(tool.inputSchema);
        } catch (error) {
          schemaErrors.push(tool.name + ': ' + String((error && error.message) || error));
        }
      }
      parentPort.postMessage({
        kind: 'done',
        ok: result.ok,
        diagnostics: result.diagnostics,
        plan: result.plan,
        operations: result.model ? result.model.operations.map((operation) => operation.key) : undefined,
        files,
        schemaErrors,
        elapsedMs: performance.now() - started,
      });
    } catch (error) {
      parentPort.postMessage({ kind: 'threw', error: String((error && error.stack) || error), elapsedMs: performance.now() - started });
    }
  });
  parentPort.postMessage({ ready: true });
})();
`;

export class Sandbox {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;

  constructor(private readonly heapMb = 3072) {}

  private start(): Promise<void> {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        pipeline: pathToFileURL(path.join(REPO_ROOT, 'dist/pipeline.js')).href,
        emit: pathToFileURL(path.join(REPO_ROOT, 'dist/emit/emit-project.js')).href,
        ajv: pathToFileURL(require.resolve('@modelcontextprotocol/server/validators/ajv')).href,
      },
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb },
    });
    this.worker = worker;
    return new Promise((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
  }

  /** Runs a job; a job that takes longer than `timeoutMs` is reported as hung and its worker replaced. */
  async run(job: Job, timeoutMs: number): Promise<Report> {
    if (!this.worker) this.ready = this.start();
    await this.ready;
    const worker = this.worker as Worker;
    const started = performance.now();
    return new Promise<Report>((resolve) => {
      const finish = (report: Report) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        resolve(report);
      };
      const onMessage = (report: Report) => finish(report);
      const onError = (error: Error) => {
        this.worker = undefined;
        finish({ kind: 'crashed', error: error.message, elapsedMs: performance.now() - started });
      };
      const timer = setTimeout(() => {
        this.worker = undefined;
        void worker.terminate();
        finish({ kind: 'hung', elapsedMs: performance.now() - started });
      }, timeoutMs);
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }
}
