import { describe, expect, it } from 'vitest';
import { compilerFlags, failureDiagnostic, workerHeapLimits } from '../../src/cli/cli-thread.js';

describe('the command line’s worker thread', () => {
  it('sets a small young generation and an old-generation limit unless Node flags already size them', () => {
    expect(workerHeapLimits('')).toEqual({ maxYoungGenerationSizeMb: 12, maxOldGenerationSizeMb: 2000 });
    expect(workerHeapLimits('--max-old-space-size=8192 ')).toEqual({ maxYoungGenerationSizeMb: 12 });
    expect(workerHeapLimits(' --max-semi-space-size=64')).toEqual({ maxOldGenerationSizeMb: 2000 });
    expect(workerHeapLimits('--enable-source-maps --max-heap-size=4096 --max-young-generation-size=64')).toEqual({});
  });

  it('waits longer before optimizing a function than V8 does, unless the command that started Node says how long', () => {
    expect(compilerFlags('')).toEqual(['--interrupt-budget=1081344']);
    expect(compilerFlags('--enable-source-maps')).toEqual(['--interrupt-budget=1081344']);
    expect(compilerFlags('--interrupt-budget=67584')).toEqual([]);
    expect(compilerFlags('', '11.3.244.8-node.38')).toEqual(['--interrupt-budget=1081344']);
    expect(compilerFlags('', '12.4.254.21-node.57')).toEqual([]);
  });

  it('says how to raise the limit when a description needs more memory, and leaves anything else to be reported as a bug', () => {
    const outOfMemory = Object.assign(new Error('Worker terminated due to reaching memory limit'), { code: 'ERR_WORKER_OUT_OF_MEMORY' });
    expect(failureDiagnostic(outOfMemory, workerHeapLimits(''))).toEqual({
      severity: 'error',
      code: 'OTM_OUT_OF_MEMORY',
      message: 'Generating from this description needs more memory than the 2000 MB the generator gives itself.',
      hint: 'Raise the limit: NODE_OPTIONS=--max-old-space-size=8192 npx openapi-to-mcp …',
    });
    expect(failureDiagnostic(outOfMemory, workerHeapLimits('--max-old-space-size=4096'))?.message).toContain("Node's heap limit");
    expect(failureDiagnostic(new TypeError('x is undefined'), {})).toBeUndefined();
  });
});
