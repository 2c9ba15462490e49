import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchFiles } from '../../src/cli/watch-files.js';
import { TMP } from '../helpers/paths.js';

describe('watchFiles', () => {
  it('runs again for a save made as a run ends, before the new watches are in place', async () => {
    const dir = path.join(TMP, 'watch-files-race');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // The file's folder does not exist at first, so it is polled. The second run ends with a save: the poll stops and
    // the folder's new watch starts after it, so only a look once the watches are in place can see it.
    const file = path.join(dir, 'api/spec.yaml');
    const stop = new AbortController();
    const runs: string[][] = [];
    const watching = watchFiles(
      async (changed) => {
        runs.push(changed);
        if (runs.length === 2) writeFileSync(file, 'saved as the run ended');
        if (runs.length === 3) stop.abort();
        return [file];
      },
      [file],
      stop.signal,
    );
    while (runs.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    mkdirSync(path.dirname(file));
    writeFileSync(file, 'first');
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`runs: ${JSON.stringify(runs)}`)), 10_000));
    await Promise.race([watching, timeout]);
    expect(runs).toEqual([[], [file], [file]]);
  });
});
