import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, REPO_ROOT, fixtureSpec } from '../helpers/paths.js';
import { run, tempDir } from '../helpers/project.js';

const cli = (args: string[], input?: string) =>
  run(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, ...(input !== undefined ? { input } : {}), env: { NO_COLOR: '1' } });

describe('cli (through the real bin)', () => {
  it('prints help and version, exit 0', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('openapi-to-mcp [spec]');
    expect(help.stdout).toContain('plan [spec]');
    expect(help.stdout).toContain('init [spec]');
    expect(help.stdout).toContain('Examples:');
    const version = await cli(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('exits 2 on usage errors, without a stack trace', async () => {
    const result = await cli(['--max-tools']);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 1 with a diagnostic (code, pointer, hint) for a bad description', async () => {
    const result = await cli(
      ['plan', '-'],
      'openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      parameters: [{$ref: "#/components/parameters/Missing"}]\n      responses: {"200": {description: ok}}\n',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error[OTM_REF_UNRESOLVED]');
    expect(result.stderr).toContain('at #/paths/~1a/get/parameters/0');
    expect(result.stderr).toContain('hint:');
  });

  it('prints diagnostics as JSON with --json', async () => {
    const result = await cli(['plan', '-', '--json'], '{"openapi": "3.0.0", "info": ');
    expect(result.code).toBe(1);
    const output = JSON.parse(result.stdout) as { ok: boolean; diagnostics: Array<{ code: string; line: number }> };
    expect(output.ok).toBe(false);
    expect(output.diagnostics[0]).toMatchObject({ code: 'OTM_PARSE_ERROR', line: 1 });
  });

  it('plan --json gives the documented shape', async () => {
    const result = await cli(['plan', fixtureSpec('oai-petstore.yaml'), '--json']);
    expect(result.code).toBe(0);
    const plan = JSON.parse(result.stdout) as {
      tools: Array<Record<string, unknown>>;
      totals: Record<string, unknown>;
      warnings: unknown[];
    };
    expect(Object.keys(plan.tools[0]!)).toEqual(
      expect.arrayContaining(['name', 'title', 'description', 'annotations', 'inputSchema', 'operations', 'tokens']),
    );
    expect(plan.tools[0]!['operations']).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: expect.any(String), path: expect.any(String), operationId: expect.any(String) }),
      ]),
    );
    expect(plan.totals).toMatchObject({ tools: 2, operations: 3 });
  });

  it('generates, then --check exits 0 on fresh output and 1 after a change', async () => {
    const out = await tempDir('cli-check');
    expect((await cli([fixtureSpec('oai-petstore.yaml'), '-o', out])).code).toBe(0);
    expect((await cli([fixtureSpec('oai-petstore.yaml'), '-o', out, '--check'])).code).toBe(0);
    const stale = await cli([fixtureSpec('oai-petstore-expanded.json'), '-o', out, '--check']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('src/api.ts');
  });

  it('writes the deployment files with --deploy, and names them when a regeneration without it removes them', async () => {
    const out = await tempDir('cli-deploy');
    expect((await cli([fixtureSpec('oai-petstore.yaml'), '-o', out, '--deploy'])).code).toBe(0);
    expect(existsSync(path.join(out, 'Dockerfile'))).toBe(true);
    expect((await cli([fixtureSpec('oai-petstore.yaml'), '-o', out, '--deploy', '--check'])).code).toBe(0);
    const lean = await cli([fixtureSpec('oai-petstore.yaml'), '-o', out]);
    expect(lean.code).toBe(0);
    expect(lean.stderr).toContain(
      '5 removed (no longer generated): .dockerignore, .mcpbignore, Dockerfile, deploy/kubernetes.yaml, manifest.json',
    );
    expect(existsSync(path.join(out, 'Dockerfile'))).toBe(false);
  });

  it('reads a description from stdin', async () => {
    const result = await cli(
      ['plan', '-'],
      'openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      responses: {"200": {description: ok}}\n',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('get_a');
  });
});
