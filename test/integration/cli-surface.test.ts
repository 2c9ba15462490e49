import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { PETSTORE_SAMPLE } from '../helpers/paths.js';
import { tempDir } from '../helpers/project.js';

describe('--surface on the command line', () => {
  it('plan shows the search surface: its tools, their tokens and the index (table, JSON and HTML)', async () => {
    const dir = await tempDir('cli-surface');
    await mkdir(dir, { recursive: true });
    const html = path.join(dir, 'plan.html');
    const table = await runBin(['plan', PETSTORE_SAMPLE, '--surface', 'search', '--html', html]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain('Served: the search surface; the tools above are not listed, they route the calls.');
    expect(table.stdout).toMatch(/call_delete_action +\d+ +destructive/);
    expect(table.stdout).toMatch(/4 tools reach 19 actions; [\d,]+ tokens of 10,000 budgeted\./);
    expect(table.stdout).toMatch(/Search index: [\d,]+ kB \([\d,]+ terms\)/);
    const page = await readFile(html, 'utf8');
    expect(page).toContain('Surface: search');
    expect(page.match(/data-testid="surface-tool"/g)).toHaveLength(4);

    const json = await runBin(['plan', PETSTORE_SAMPLE, '--surface', 'auto', '--max-tools', '2', '--json']);
    const body = JSON.parse(json.stdout) as {
      surface: { mode: string; requested: string; reason: string; tools: Array<{ name: string; tokens: number }>; tokens: number };
      tools: unknown[];
    };
    expect(body.surface).toMatchObject({ mode: 'search', requested: 'auto' });
    expect(body.surface.reason).toContain('misses its budget');
    expect(body.surface.tools.map((tool) => tool.name)).toEqual([
      'search_actions',
      'call_read_action',
      'call_write_action',
      'call_delete_action',
    ]);
    expect(body.surface.tokens).toBe(body.surface.tools.reduce((sum, tool) => sum + tool.tokens, 0));
    expect(body.tools.length).toBeGreaterThan(2);
  });

  it('takes `surface` from the configuration file, and a bad value is a usage error', async () => {
    const dir = await tempDir('cli-surface-config');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'openapi-to-mcp.config.json'), JSON.stringify({ spec: PETSTORE_SAMPLE, surface: 'search' }));
    const fromFile = await runBin(['plan', '--json'], { cwd: dir });
    expect((JSON.parse(fromFile.stdout) as { surface: { mode: string } }).surface.mode).toBe('search');
    const wrong = await runBin(['plan', PETSTORE_SAMPLE, '--surface', 'everything']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Argument: surface, Given: "everything", Choices: "static", "search", "auto"');
  });

  it('the generate summary says which surface was served and why', async () => {
    const out = await tempDir('cli-surface-generate');
    const result = await runBin([PETSTORE_SAMPLE, '-o', out, '--surface', 'auto', '--max-tools', '2']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /generated a search surface: 4 tools reaching 19 actions for 19 operations, [\d,]+ of 10,000 tokens, because the static plan misses its budget/,
    );
    const manifest = JSON.parse(await readFile(path.join(out, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies)).toEqual(expect.arrayContaining(['minisearch', 'stemmer']));
  });
});
