import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * The runtime modules in templates/runtime/<concern>/ import the generated `../../api.js`, which exists only in a generated
 * project; unit tests of those modules get a fixture in its place.
 */
const runtimeApiFixture: Plugin = {
  name: 'runtime-api-fixture',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source === '../../api.js' && importer?.startsWith(path.join(root, 'templates/runtime/')))
      return path.join(root, 'test/unit/runtime/fixture/api.ts');
    return undefined;
  },
};

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [runtimeApiFixture],
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // Generous for a loaded machine: tests that generate whole projects take seconds each there.
          testTimeout: 90_000,
          // Vitest's default (one worker less than the cores) is a single worker on two cores; two keep both busy.
          maxWorkers: Math.max(2, availableParallelism() - 1),
          // Files share a module cache per worker: importing the stages once instead of in every file saves a third
          // of the suite's CPU time. No unit test depends on module state another file leaves behind.
          isolate: false,
        },
      },
      {
        // What `npm test` leaves to CI for its time: the real bin in child processes (commands, --watch, the worker
        // thread) and the regeneration cache's proof, fifteen generations each made twice. `.ci/run` runs it next.
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 300_000,
          // The processes these tests start do the work: two files at a time keep both cores busy.
          maxWorkers: Math.max(2, availableParallelism() - 1),
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'fuzz',
          include: ['test/fuzz/**/*.test.ts'],
          testTimeout: 900_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'soak',
          include: ['test/soak/**/*.test.ts'],
          testTimeout: 900_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'corpus',
          include: ['test/corpus/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'contract',
          include: ['test/contract/**/*.test.ts'],
          testTimeout: 900_000,
          maxConcurrency: 2,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
