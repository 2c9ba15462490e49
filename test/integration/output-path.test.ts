import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { crashSigns, runBin } from '../helpers/cli.js';
import { PETSTORE_SAMPLE } from '../helpers/paths.js';
import { tempDir } from '../helpers/project.js';

describe('an output path where no project can be written', () => {
  it('through a file: a diagnostic and exit 1 from the bin, the file untouched', async () => {
    const dir = await tempDir('output-through-file');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'spec.yaml');
    await writeFile(file, 'mine');
    const result = await runBin([PETSTORE_SAMPLE, '-o', path.join(file, 'server')]);
    expect(crashSigns(result)).toEqual([]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error[OTM_WRITE_FAILED] ${path.join(file, 'server')} cannot be the output folder: it runs through`);
    expect(await readFile(file, 'utf8')).toBe('mine');
    expect(await readdir(dir)).toEqual(['spec.yaml']);
  });

  // /proc answers ENOENT to mkdir below it: Node's recursive mkdir then retried forever at full CPU.
  it.skipIf(!existsSync('/proc/self'))(
    'on a file system that refuses folders (/proc): a diagnostic, not a process that never ends',
    async () => {
      for (const out of ['/proc/openapi-to-mcp-test', '/proc/openapi-to-mcp-test/a/b']) {
        const result = await runBin([PETSTORE_SAMPLE, '-o', out], { timeoutMs: 30_000 });
        expect(crashSigns(result)).toEqual([]);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`error[OTM_WRITE_FAILED] Writing ${out} failed: ENOENT`);
      }
    },
  );
});
