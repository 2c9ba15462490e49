import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGenerate } from '../../src/pipeline.js';
import { LOCK_FILE } from '../../src/write/lock-file.js';
import { fixtureSpec } from '../helpers/paths.js';
import { tempDir } from '../helpers/project.js';

async function tree(dir: string, base = dir): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(out, await tree(full, base));
    else out[path.relative(base, full)] = await readFile(full, 'utf8');
  }
  return out;
}

const spec = fixtureSpec('oai-petstore.yaml');

describe('write', () => {
  it('generates byte-identical trees twice, and --check is clean afterwards', async () => {
    const a = await tempDir('write-a');
    const b = await tempDir('write-b');
    expect((await runGenerate({ spec, out: a })).ok).toBe(true);
    expect((await runGenerate({ spec, out: b })).ok).toBe(true);
    expect(await tree(b)).toEqual(await tree(a));
    const check = await runGenerate({ spec, out: a, check: true });
    expect(check.ok).toBe(true);
    expect(check.stale).toEqual([]);
  });

  it('--check names the files a changed description would rewrite, and writes nothing', async () => {
    const dir = await tempDir('write-check');
    await runGenerate({ spec, out: dir });
    const before = await tree(dir);
    const check = await runGenerate({ spec: fixtureSpec('oai-petstore-expanded.json'), out: dir, check: true });
    expect(check.stale).toEqual(expect.arrayContaining(['src/api.ts', LOCK_FILE]));
    expect(await tree(dir)).toEqual(before);
  });

  it('keeps user-owned files, refuses to overwrite hand-edited generated files without --force', async () => {
    const dir = await tempDir('write-edits');
    await runGenerate({ spec, out: dir });
    await writeFile(path.join(dir, 'src/custom/hooks.ts'), '// mine\nexport const hooks = {};\n');
    await writeFile(path.join(dir, 'src/api.ts'), '// edited by hand\n');
    const refused = await runGenerate({ spec: fixtureSpec('oai-petstore-expanded.json'), out: dir });
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.find((item) => item.code === 'OTM_OUTPUT_EDITED')?.message).toContain('src/api.ts');
    expect(await readFile(path.join(dir, 'src/api.ts'), 'utf8')).toBe('// edited by hand\n');
    const forced = await runGenerate({ spec: fixtureSpec('oai-petstore-expanded.json'), out: dir, force: true });
    expect(forced.ok).toBe(true);
    expect(await readFile(path.join(dir, 'src/api.ts'), 'utf8')).not.toBe('// edited by hand\n');
    expect(await readFile(path.join(dir, 'src/custom/hooks.ts'), 'utf8')).toBe('// mine\nexport const hooks = {};\n');
  });

  it('warns when a file of the user’s still imports a generated module by the path it had before it moved', async () => {
    const dir = await tempDir('write-moved-import');
    await runGenerate({ spec, out: dir });
    // As an earlier version wrote the starters, when the runtime was one flat folder; and an import of the user's own.
    const hooks = "import type { Hooks } from '../runtime/types.js';\nimport { sign } from './sign.js';\nexport const hooks: Hooks = {};\n";
    await writeFile(path.join(dir, 'src/custom/hooks.ts'), hooks);
    await writeFile(path.join(dir, 'src/custom/tools.ts'), "import type { Settings } from '../runtime/config/settings.js';\n");
    const again = await runGenerate({ spec, out: dir });
    expect(again.ok).toBe(true);
    const moved = again.diagnostics.filter((item) => item.code === 'OTM_CUSTOM_IMPORT_MOVED');
    expect(moved.map(({ severity, message, hint }) => ({ severity, message, hint }))).toEqual([
      {
        severity: 'warning',
        message: 'src/custom/hooks.ts imports ../runtime/types.js, which is now src/runtime/core/types.ts.',
        hint: "Change the import to '../runtime/core/types.js': your files are never rewritten, and the old module is removed.",
      },
    ]);
    expect(await readFile(path.join(dir, 'src/custom/hooks.ts'), 'utf8')).toBe(hooks);
  });

  it('removes generated files that no longer belong, unless edited', async () => {
    const dir = await tempDir('write-stale');
    await runGenerate({ spec: fixtureSpec('swaggerio-petstore-v3.yaml'), out: dir });
    expect(await readdir(path.join(dir, 'src/tools'))).toContain('pet-read.ts');
    await runGenerate({ spec, out: dir, force: false });
    expect(await readdir(path.join(dir, 'src/tools'))).not.toContain('pet-read.ts');
  });

  it('refuses a folder it did not generate, and leaves no folder behind when the first generation fails', async () => {
    const foreign = await tempDir('write-foreign');
    await mkdir(foreign, { recursive: true });
    await writeFile(path.join(foreign, 'notes.txt'), 'mine');
    const refused = await runGenerate({ spec, out: foreign });
    expect(refused.diagnostics[0]?.code).toBe('OTM_OUTPUT_NOT_GENERATED');
    expect(await readdir(foreign)).toEqual(['notes.txt']);
    const missing = await tempDir('write-failed');
    const failed = await runGenerate({ spec: fixtureSpec('no-such.yaml'), out: missing });
    expect(failed.ok).toBe(false);
    await expect(readdir(missing)).rejects.toThrow();
    await rm(foreign, { recursive: true, force: true });
  });

  it('reports an output path that is a file, or runs through one, as a diagnostic and leaves the file alone', async () => {
    const dir = await tempDir('write-through-file');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'notes.txt');
    await writeFile(file, 'mine');
    const cases = [
      { out: file, reason: 'it is a file' },
      { out: path.join(file, 'server'), reason: `it runs through ${file}, which is a file` },
      { out: path.join(file, 'a', 'b'), reason: `it runs through ${file}, which is a file` },
    ];
    for (const { out, reason } of cases) {
      for (const check of [false, true]) {
        const result = await runGenerate({ spec, out, check });
        expect(result.ok).toBe(false);
        expect(result.diagnostics.map(({ code, message }) => ({ code, message }))).toEqual([
          { code: 'OTM_WRITE_FAILED', message: `${out} cannot be the output folder: ${reason}.` },
        ]);
        expect(result.diagnostics[0]?.hint).toContain('nothing was changed');
      }
    }
    expect(await readdir(dir)).toEqual(['notes.txt']);
    expect(await readFile(file, 'utf8')).toBe('mine');
    await rm(dir, { recursive: true, force: true });
  });
});
