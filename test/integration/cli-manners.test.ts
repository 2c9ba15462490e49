import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, fixtureSpec } from '../helpers/paths.js';
import { run, tempDir } from '../helpers/project.js';

const PETSTORE = fixtureSpec('oai-petstore.yaml');

async function workDir(name: string): Promise<string> {
  const dir = await tempDir(name);
  await mkdir(dir, { recursive: true });
  return dir;
}

const cli = (cwd: string, args: string[], env: Record<string, string> = { NO_COLOR: '1' }) =>
  run(process.execPath, [BIN, ...args], { cwd, env: { FORCE_COLOR: '', ...env } });

describe('cli manners (through the real bin)', () => {
  it('suggests the closest flag and command for a typo, exit 2', async () => {
    const dir = await workDir('cli-typo');
    const flag = await cli(dir, [PETSTORE, '--max-tool', '3']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('Unknown option --max-tool. Did you mean --max-tools?');
    const command = await cli(dir, ['pln', PETSTORE]);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('Unknown command pln. Did you mean plan?');
    const value = await cli(dir, ['plan', PETSTORE, '--strategy', 'by-tags']);
    expect(value.code).toBe(2);
    const json = await cli(dir, ['plan', PETSTORE, '--max-tool', '3', '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'OTM_CONFIG_INVALID', message: 'Unknown option --max-tool. Did you mean --max-tools?' }],
    });
  });

  it('writes no colour and no progress into pipes; colour when FORCE_COLOR asks', async () => {
    const dir = await workDir('cli-colour');
    const plain = await cli(dir, ['plan', PETSTORE]);
    expect(plain.stdout + plain.stderr).not.toContain('\u001b[');
    const forced = await cli(dir, ['plan', PETSTORE], { FORCE_COLOR: '1' });
    expect(forced.stdout).toContain('\u001b[1m');
  });

  it('ends a generation with a summary: tools, actions, tokens, where, what next', async () => {
    const dir = await workDir('cli-summary');
    const result = await cli(dir, [PETSTORE, '-o', 'server']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/generated 2 tools \(3 actions for 3 operations, [\d,]+ of 10,000 tokens\) for Swagger Petstore/);
    expect(result.stderr).toContain('in server');
    expect(result.stderr).toContain('cd server');
    expect(result.stderr).toContain('npm install && npm run build && npm test');
  });

  it('init writes a commented starter that plan then reads; flags win over it', async () => {
    const dir = await workDir('cli-init');
    const init = await cli(dir, ['init', PETSTORE, '--out', 'petstore-server']);
    expect(init.code).toBe(0);
    const starter = await readFile(path.join(dir, 'openapi-to-mcp.config.yaml'), 'utf8');
    expect(starter).toContain('# maxTools: 128');
    expect((await cli(dir, ['init'])).code).toBe(2);
    await writeFile(path.join(dir, 'openapi-to-mcp.config.yaml'), `${starter}\nstrategy: per-operation\n`);
    const fromFile = JSON.parse((await cli(dir, ['plan', '--json'])).stdout) as { tools: unknown[] };
    expect(fromFile.tools).toHaveLength(3);
    const overridden = JSON.parse((await cli(dir, ['plan', '--json', '--strategy', 'auto'])).stdout) as { tools: unknown[] };
    expect(overridden.tools).toHaveLength(2);
    const generated = await cli(dir, ['--json']);
    expect(JSON.parse(generated.stdout)).toMatchObject({ ok: true, outDir: path.join(dir, 'petstore-server') });
  });

  it('reports configuration errors with the file, line and pointer, as text or JSON; exit 2', async () => {
    const dir = await workDir('cli-config-error');
    await writeFile(path.join(dir, 'custom.yaml'), `spec: ${JSON.stringify(PETSTORE)}\nmaxTools: many\n`);
    const text = await cli(dir, ['plan', '--config', 'custom.yaml']);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('error[OTM_CONFIG_INVALID] maxTools must be a whole number, not "many".');
    expect(text.stderr).toContain('at #/maxTools (custom.yaml line 2, column 1)');
    const json = await cli(dir, ['plan', '--config', 'custom.yaml', '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, diagnostics: [{ code: 'OTM_CONFIG_INVALID', pointer: '#/maxTools' }] });
    const missing = await cli(dir, ['plan']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No OpenAPI description given.');
  });

  it('applies per-operation overrides from the configuration', async () => {
    const dir = await workDir('cli-overrides');
    await writeFile(
      path.join(dir, 'openapi-to-mcp.config.json'),
      JSON.stringify({ spec: PETSTORE, operations: { createPets: { hidden: true }, showPetById: { tool: 'pet_lookup' } } }),
    );
    const plan = JSON.parse((await cli(dir, ['plan', '--json'])).stdout) as { tools: Array<{ name: string }>; excluded: unknown[] };
    expect(plan.tools.map((tool) => tool.name)).toContain('pet_lookup');
    expect(plan.excluded).toStrictEqual([{ key: 'POST /pets', reason: 'hidden by x-mcp' }]);
  });
});
