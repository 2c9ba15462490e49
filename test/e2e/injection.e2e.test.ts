import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Node, Project } from 'ts-morph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolPlan } from '../../src/plan/tool-plan.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { buildProject, generateProject, linkDependencies, run, tempDir, textOf } from '../helpers/project.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/**
 * A description whose every text field (titles, summaries, descriptions, names, enum values, examples, defaults,
 * server URLs and variables, tags, security schemes) carries code-shaped payloads: comment terminators, template
 * literals, quotes, line breaks, U+2028, `</script>`, handlebars, shell substitutions, `require('child_process')`.
 * The generated project must hold them only as data, build, and run without executing any of them.
 */
const SPEC = path.join(REPO_ROOT, 'test/fixtures/hostile/injection.json');
/** Every shell and child_process payload of the fixture touches this file. */
const MARKER = '/tmp/otm-pwned';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // The regeneration cache is data only the generator reads back (JSON.parse), never code a runtime loads.
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === '.openapi-to-mcp-cache') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}

describe('a description full of injection payloads', () => {
  let dir: string;
  let plan: ToolPlan;
  let upstream: Upstream;

  beforeAll(async () => {
    await rm(MARKER, { force: true });
    dir = await tempDir('injection');
    plan = (await generateProject({ spec: SPEC, out: dir, deploy: true })).plan as ToolPlan;
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
  });

  afterAll(async () => {
    await upstream?.close();
  });

  it('generates code where the payloads are only string literals and comments', async () => {
    // Generated tool and API files hold one import, one type alias and one constant of literals: no call but the
    // tool module's own `defineTool(…)` around its literal, no template literal, no statement a payload could have opened.
    const project = new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true });
    const generated = [
      path.join(dir, 'src/api.ts'),
      ...(await readdir(path.join(dir, 'src/tools'))).map((name) => path.join(dir, 'src/tools', name)),
    ];
    const isDefineTool = (node: Node) =>
      Node.isCallExpression(node) &&
      node.getExpression().getText() === 'defineTool' &&
      node.getArguments().length === 1 &&
      Node.isObjectLiteralExpression(node.getArguments()[0]) &&
      Node.isVariableDeclaration(node.getParent());
    for (const file of generated) {
      const source = project.createSourceFile(file, await readFile(file, 'utf8'), { overwrite: true });
      const forbidden = source
        .getDescendants()
        .filter((node) => Node.isCallExpression(node) || Node.isTemplateExpression(node) || Node.isNoSubstitutionTemplateLiteral(node))
        .filter((node) => !isDefineTool(node))
        .map((node) => node.getText().slice(0, 80));
      const calls = source.getDescendants().filter(isDefineTool).length;
      if (calls > 0) {
        expect(calls, file).toBe(1);
        expect(
          source.getImportDeclarations().map((declaration) => declaration.getModuleSpecifierValue()),
          file,
        ).toEqual(['../runtime/core/define-tool.js']);
      }
      expect(forbidden, file).toEqual([]);
      const statements = source.getStatements().map((statement) => statement.getKindName());
      if (file.endsWith('index.ts')) expect(new Set(statements)).toEqual(new Set(['ImportDeclaration', 'VariableStatement']));
      else if (file.endsWith('routed.ts')) expect(statements).toEqual(['ExportDeclaration']);
      else
        expect(statements.filter((kind) => kind !== 'ImportDeclaration')).toEqual(
          file.endsWith('api.ts') ? ['VariableStatement'] : ['TypeAliasDeclaration', 'VariableStatement'],
        );
    }
    for (const file of await filesUnder(dir)) {
      const text = await readFile(file, 'utf8');
      expect(text, file).not.toMatch(/[\u2028\u2029]/);
      // Line comments carry one line each: a payload's line break never starts a line of code.
      if (file.endsWith('.ts')) expect(text, file).not.toMatch(/^\s*process\.exit\(7\)/m);
    }
  });

  it('writes package.json, .env.example, the Dockerfile and the README with the payloads as inert text', async () => {
    const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
      name: string;
      description: string;
      scripts: Record<string, string>;
    };
    expect(pkg.name).toMatch(/^[a-z0-9][a-z0-9._-]*$/);
    expect(pkg.description).toContain('${process.exit(7)}');
    expect(Object.values(pkg.scripts).join(' ')).not.toMatch(/process|touch|require/);

    const env = await readFile(path.join(dir, '.env.example'), 'utf8');
    for (const line of env.split('\n')) expect(line, line).toMatch(/^(#.*|[A-Z][A-Z0-9_]*=|)$/);

    const dockerfile = await readFile(path.join(dir, 'Dockerfile'), 'utf8');
    expect(dockerfile).not.toMatch(/\$\(|touch|require\(/);
    for (const line of dockerfile.split('\n').filter((candidate) => /_(HOST|PORT)=/.test(candidate)))
      expect(line).toMatch(/^\s+[A-Z][A-Z0-9_]*_(HOST|PORT)=[0-9.]+( \\)?$/);

    const readme = await readFile(path.join(dir, 'README.md'), 'utf8');
    expect(readme).not.toMatch(/<\/?(script|img)\b/i);
    expect(readme).toContain('&lt;/script&gt;');
    expect(readme).not.toMatch(/^process\.exit/m);
    expect(readme).not.toMatch(/\u001b/);
    // Handlebars never saw description text as a template: the braces arrive as text.
    expect(readme).toContain('\\{\\{process.exit 7\\}\\}');

    JSON.parse(await readFile(path.join(dir, 'test/cases.json'), 'utf8'));
    for (const line of (await readFile(path.join(dir, 'test/action-cases.jsonl'), 'utf8')).split('\n').filter(Boolean)) JSON.parse(line);
    JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'));
  });

  describe('the built server', () => {
    let client: Client;
    let stderr: () => string;

    beforeAll(async () => {
      const credentials = Object.fromEntries(
        plan.api.credentials.flatMap((credential) => credential.env.map((name) => [name, 'canary-key-0123456789'])),
      );
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [path.join(dir, 'dist/main.js')],
        env: { PATH: process.env['PATH'] ?? '', [`${plan.api.envPrefix}_BASE_URL`]: `${upstream.url}/v1`, ...credentials },
        stderr: 'pipe',
      });
      let log = '';
      transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
      stderr = () => log;
      client = new Client({ name: 'injection-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(transport);
    });

    afterAll(async () => {
      await client?.close();
    });

    it('starts and lists its tools with the payloads as text', async () => {
      const listed = await client.listTools();
      expect(listed.tools.length).toBe(plan.tools.length);
      const text = JSON.stringify(listed.tools);
      expect(text).toContain('process.exit(7)');
      expect(text).toContain("require('child_process')");
      expect(existsSync(MARKER)).toBe(false);
    });

    it('sends payload arguments as data and stays up', async () => {
      upstream.requests.length = 0;
      upstream.reply = () => ({ body: JSON.stringify({ echo: '${process.exit(7)} */ `x` </script>' }) });
      const tool = plan.tools.find((candidate) =>
        candidate.actions.some((action) => action.route.arguments.some((argument) => argument.in === 'query')),
      );
      expect(tool).toBeDefined();
      const action = tool!.actions.find((candidate) => candidate.route.arguments.some((argument) => argument.in === 'query'))!;
      const query = action.route.arguments.find((argument) => argument.in === 'query') as { arg: string; name: string };
      // The description's own rules for the argument (the schema a model sees may leave an optional one out).
      const rules = action.argumentsSchema?.['properties'] as Record<string, { enum?: string[] }> | undefined;
      const payload = rules?.[query.arg]?.enum?.[0] ?? '${process.exit(7)}';
      const result = await client.callTool({
        name: tool!.name,
        arguments: { ...(tool!.actions.length > 1 ? { action: action.name } : {}), id: '${process.exit(7)}', [query.arg]: payload },
      });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(textOf(result)).toContain('${process.exit(7)}');
      const [request] = upstream.requests;
      expect(decodeURIComponent(request?.path ?? '')).toContain('${process.exit(7)}');
      expect(request?.query.get(query.name)).toBe(payload);
      expect((await client.listTools()).tools.length).toBe(plan.tools.length);
      expect(existsSync(MARKER)).toBe(false);
      expect(stderr()).not.toMatch(/process\.exit|SyntaxError/);
    });
  });

  it("passes the generated project's own test suite", async () => {
    const result = await run(process.execPath, [path.join(dir, 'node_modules/vitest/vitest.mjs'), 'run'], { cwd: dir });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(existsSync(MARKER)).toBe(false);
  });
});
