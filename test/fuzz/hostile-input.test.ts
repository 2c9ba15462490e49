import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DiagnosticCode } from '../../src/diagnostics/codes.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { runGenerate, runPlan } from '../../src/pipeline.js';
import { crashSigns, runBin, type CliResult } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { buildProject, linkDependencies, tempDir } from '../helpers/project.js';

/**
 * Malformed and hostile descriptions through the real CLI: each ends in exit 0 with a project, or exit 1 with
 * diagnostics that name the place (code and JSON pointer, or line and column) — never a stack trace, a hang, or a
 * half-written output folder.
 */

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/hostile');

const PLACELESS = new Set<DiagnosticCode>(['OTM_INPUT_TOO_LARGE', 'OTM_CONFIG_INVALID', 'OTM_VALIDATION', 'OTM_BUDGET_EXCEEDED']);

type Expected = { code: DiagnosticCode; pointer?: string; line?: number; column?: number };

const placeOf = (diagnostic: Diagnostic): Expected => ({
  code: diagnostic.code,
  ...(diagnostic.pointer !== undefined ? { pointer: diagnostic.pointer } : {}),
  ...(diagnostic.line !== undefined ? { line: diagnostic.line, column: diagnostic.column as number } : {}),
});

const severity = (result: CliResult, level: Diagnostic['severity']) =>
  (result.json?.diagnostics ?? []).filter((diagnostic) => diagnostic.severity === level && diagnostic.code !== 'OTM_VALIDATION');

/** The tools of a built project as the server lists them: the definitions its compiled modules export. */
async function listedTools(out: string): Promise<unknown[]> {
  const { tools } = (await import(pathToFileURL(path.join(out, 'dist/tools/index.js')).href)) as { tools: unknown[] };
  return tools;
}

/** Generates into a fresh folder and checks what every run must hold, whatever the input. */
async function generate(spec: string, extra: string[] = [], input?: string): Promise<CliResult & { out: string }> {
  const parent = await tempDir('hostile');
  await mkdir(parent, { recursive: true });
  const out = path.join(parent, 'out');
  const result = await runBin([spec, '-o', out, '--json', ...extra], input !== undefined ? { input } : {});
  expect(crashSigns(result), result.stderr).toEqual([]);
  expect(result.json, result.stdout + result.stderr).toBeDefined();
  for (const diagnostic of result.json?.diagnostics ?? []) {
    expect(diagnostic.message.length).toBeGreaterThan(10);
    // Problems in the description say where they are; problems with the run as a whole (options, sizes) cannot.
    if (!PLACELESS.has(diagnostic.code)) expect(diagnostic.pointer ?? diagnostic.line, diagnostic.message).toBeDefined();
  }
  if (result.code !== 0) {
    // A failed first generation leaves nothing behind: no output folder, no temporary sibling.
    expect(existsSync(out)).toBe(false);
    expect(await readdir(path.dirname(out))).toEqual([]);
  }
  return { ...result, out };
}

describe('descriptions that are refused: exit 1, the exact diagnostics, nothing written', () => {
  const cases: Array<{ name: string; spec: string; errors: Expected[] }> = [
    { name: 'invalid JSON', spec: 'invalid-json.json', errors: [{ code: 'OTM_PARSE_ERROR', line: 3, column: 31 }] },
    { name: 'invalid YAML', spec: 'invalid-yaml.yaml', errors: [{ code: 'OTM_PARSE_ERROR', line: 10, column: 3 }] },
    { name: 'not an OpenAPI document', spec: 'not-openapi.yaml', errors: [{ code: 'OTM_NOT_OPENAPI', pointer: '#' }] },
    { name: 'a root that is not an object', spec: 'array-root.json', errors: [{ code: 'OTM_NOT_OPENAPI', pointer: '#' }] },
    { name: 'OpenAPI 4.0', spec: 'unsupported-openapi-4.yaml', errors: [{ code: 'OTM_UNSUPPORTED_VERSION', pointer: '#/openapi' }] },
    { name: 'Swagger 1.2', spec: 'unsupported-swagger-1.2.json', errors: [{ code: 'OTM_UNSUPPORTED_VERSION', pointer: '#/swagger' }] },
    { name: 'missing paths', spec: 'missing-paths.yaml', errors: [{ code: 'OTM_NO_PATHS', pointer: '#' }] },
    { name: 'paths that are not an object', spec: 'paths-not-object.yaml', errors: [{ code: 'OTM_NOT_OPENAPI', pointer: '#/paths' }] },
    {
      name: 'dangling $refs',
      spec: 'ref-dangling.yaml',
      errors: [
        { code: 'OTM_REF_UNRESOLVED', pointer: '#/paths/~1pets/get/parameters/0' },
        { code: 'OTM_REF_UNRESOLVED', pointer: '#/paths/~1pets/get/responses/200/content/application~1json/schema' },
      ],
    },
    {
      name: 'looping $refs',
      spec: 'ref-loop.yaml',
      errors: [
        { code: 'OTM_REF_LOOP', pointer: '#/paths/~1pets/get/parameters/0' },
        { code: 'OTM_REF_LOOP', pointer: '#/paths/~1pets/get/responses/200/content/application~1json/schema' },
      ],
    },
    {
      name: 'a remote $ref (cloud metadata address)',
      spec: 'ref-remote.yaml',
      errors: [{ code: 'OTM_REF_REMOTE_BLOCKED', pointer: '#/paths/~1pets/get/responses/200/content/application~1json/schema' }],
    },
    {
      name: '$refs that leave the folder (a sibling file, an absolute path)',
      spec: 'refs-outside/spec/api.yaml',
      errors: [
        { code: 'OTM_REF_OUTSIDE_ROOT', pointer: '#/paths/~1a/get/responses/200/content/application~1json/schema' },
        { code: 'OTM_REF_OUTSIDE_ROOT', pointer: '#/paths/~1b/get/responses/200/content/application~1json/schema' },
      ],
    },
    {
      name: 'a YAML alias bomb',
      spec: 'yaml-alias-bomb.yaml',
      errors: [{ code: 'OTM_INPUT_TOO_COMPLEX', pointer: '#/components/schemas/Lol/x-l6' }],
    },
    {
      name: 'a YAML alias that contains itself',
      spec: 'yaml-alias-cycle.yaml',
      errors: [{ code: 'OTM_INPUT_TOO_COMPLEX', pointer: '#/x-loop/again' }],
    },
  ];

  it.concurrent.each(cases)('$name', async ({ spec, errors }) => {
    const result = await generate(path.join(FIXTURES, spec));
    expect(result.code).toBe(1);
    expect(severity(result, 'error').map(placeOf)).toEqual(errors);
  });

  it('never reads a remote $ref: the server it names sees no request', async () => {
    let requests = 0;
    const server = createServer((_request, response) => {
      requests++;
      response.end('{"type": "string"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dir = await tempDir('hostile-remote');
    await mkdir(dir, { recursive: true });
    const spec = path.join(dir, 'api.yaml');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema.json`;
    await writeFile(
      spec,
      `openapi: 3.0.3\ninfo: {title: R, version: '1'}\npaths:\n  /a:\n    get:\n      parameters: [{name: q, in: query, schema: {$ref: '${url}'}}]\n      responses: {'200': {description: ok}}\n`,
    );
    const result = await generate(spec);
    server.close();
    expect(result.code).toBe(1);
    expect(severity(result, 'error').map(placeOf)).toEqual([
      { code: 'OTM_REF_REMOTE_BLOCKED', pointer: '#/paths/~1a/get/parameters/0/schema' },
    ]);
    expect(requests).toBe(0);
  });

  it('never reads a pipe or device a $ref names (it would block or fill memory)', async () => {
    const dir = await tempDir('hostile-fifo');
    await mkdir(dir, { recursive: true });
    execFileSync('mkfifo', [path.join(dir, 'pipe.yaml')]);
    const spec = path.join(dir, 'api.yaml');
    await writeFile(
      spec,
      `openapi: 3.0.3\ninfo: {title: F, version: '1'}\npaths:\n  /a:\n    get:\n      parameters: [{name: q, in: query, schema: {$ref: './pipe.yaml'}}]\n      responses: {'200': {description: ok}}\n`,
    );
    const result = await generate(spec);
    expect(result.code).toBe(1);
    expect(severity(result, 'error').map(placeOf)).toEqual([
      { code: 'OTM_REF_UNRESOLVED', pointer: '#/paths/~1a/get/parameters/0/schema' },
    ]);
  });

  it('refuses a document nested 100,000 levels deep without overflowing the stack', async () => {
    const dir = await tempDir('hostile-deep');
    await mkdir(dir, { recursive: true });
    const spec = path.join(dir, 'deep.json');
    await writeFile(
      spec,
      `{"openapi":"3.0.3","info":{"title":"D","version":"1"},"paths":{},"x-deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    );
    const result = await generate(spec);
    expect(result.code).toBe(1);
    const [error] = severity(result, 'error');
    expect(error?.code).toBe('OTM_INPUT_TOO_COMPLEX');
    expect(error?.pointer).toMatch(/^#\/x-deep(\/0)+$/);
  });

  describe('a 50 MB description', () => {
    let big: string;
    let text: string;
    beforeAll(async () => {
      const dir = await tempDir('hostile-big');
      await mkdir(dir, { recursive: true });
      big = path.join(dir, 'big.json');
      const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(900);
      const paths: Record<string, object> = {};
      const doc = {
        openapi: '3.0.3',
        info: { title: 'Big', version: '1', description: filler },
        servers: [{ url: 'https://x.example' }],
        paths,
      };
      for (let index = 0; index < 520; index++) {
        paths[`/r${index}/{id}`] = {
          get: {
            operationId: `get${index}`,
            summary: `Get thing ${index}`,
            description: filler,
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: filler } },
          },
        };
      }
      text = JSON.stringify(doc);
      expect(text.length).toBeGreaterThan(50 * 1024 * 1024);
      expect(text.length).toBeLessThan(55 * 1024 * 1024);
      await writeFile(big, text);
    });

    it('is refused before it is read, with the size in the message', async () => {
      const out = path.join(await tempDir('hostile-big-out'), 'out');
      const result = await runBin([big, '-o', out], { measureMemory: true });
      expect(crashSigns(result)).toEqual([]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/error\[OTM_INPUT_TOO_LARGE\] The description is 5\d\.\d MB, over the limit of 32 MB/);
      expect(result.stderr).toContain('--max-input-mb');
      expect(result.maxRssMb).toBeLessThan(400);
      expect(existsSync(out)).toBe(false);
    });

    it('is refused from standard input after reading no more than the limit', async () => {
      const result = await runBin(['plan', '-'], { input: text, measureMemory: true });
      expect(crashSigns(result)).toEqual([]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/error\[OTM_INPUT_TOO_LARGE\] The description is larger than the limit of 32 MB/);
      expect(result.maxRssMb).toBeLessThan(400);
    });

    it('is planned within bounded memory when the limit is raised', { timeout: 180_000 }, async () => {
      const result = await runBin(['plan', big, '--max-input-mb', '64', '--json'], { measureMemory: true, timeoutMs: 170_000 });
      expect(crashSigns(result)).toEqual([]);
      expect(result.code).toBe(0);
      expect(result.maxRssMb).toBeLessThan(1024);
    });
  });
});

describe('descriptions that are generated with warnings: exit 0, a project that builds', () => {
  it('makes duplicate operationIds unique, pointing at each duplicate', async () => {
    const result = await generate(path.join(FIXTURES, 'duplicate-operation-ids.yaml'));
    expect(result.code).toBe(0);
    expect(severity(result, 'warning').map(placeOf)).toEqual([
      { code: 'OTM_DUPLICATE_OPERATION_ID', pointer: '#/paths/~1pets/get/operationId' },
      { code: 'OTM_DUPLICATE_OPERATION_ID', pointer: '#/paths/~1pets/post/operationId' },
    ]);
  });

  it('skips parameters in impossible locations, each at its pointer', async () => {
    const result = await generate(path.join(FIXTURES, 'parameter-locations.yaml'));
    expect(result.code).toBe(0);
    expect(severity(result, 'warning').map(placeOf)).toEqual([
      { code: 'OTM_PARAMETER_LOCATION', pointer: '#/paths/~1things/get/parameters/0/in' },
      { code: 'OTM_PARAMETER_LOCATION', pointer: '#/paths/~1things/get/parameters/1/in' },
      { code: 'OTM_PARAMETER_LOCATION', pointer: '#/paths/~1things/get/parameters/2/in' },
      { code: 'OTM_PARAMETER_LOCATION', pointer: '#/paths/~1things/get/parameters/3/in' },
      { code: 'OTM_PARAMETER_LOCATION', pointer: '#/paths/~1things/get/parameters/4/in' },
      { code: 'OTM_INVALID_OBJECT', pointer: '#/paths/~1things/get/parameters/5' },
      { code: 'OTM_PATH_PARAMETER_MISSING', pointer: '#/paths/~1things~1{id}~1{missing}/get' },
    ]);
  });

  it('warns about a description without operations', async () => {
    const result = await generate(path.join(FIXTURES, 'empty-paths.yaml'));
    expect(result.code).toBe(0);
    expect(severity(result, 'warning').map(placeOf)).toEqual([{ code: 'OTM_NO_PATHS', pointer: '#/paths' }]);
  });

  it('cuts a schema nested 100 levels deep at 64, saying where', async () => {
    const result = await generate(path.join(FIXTURES, 'deep-schema.json'));
    expect(result.code).toBe(0);
    const levels = Array.from({ length: 65 }, (_, index) => `/properties/level${index}`).join('');
    expect(severity(result, 'warning').map(placeOf)).toEqual([
      { code: 'OTM_SCHEMA_LIMIT', pointer: `#/paths/~1deep/post/requestBody/content/application~1json/schema${levels}` },
    ]);
    await linkDependencies(result.out);
    await buildProject(result.out);
  });

  it('keeps recursive and mutually recursive schemas as $defs references, and builds', async () => {
    const result = await generate(path.join(FIXTURES, 'recursive-schema.yaml'));
    expect(result.code).toBe(0);
    await linkDependencies(result.out);
    await buildProject(result.out);
    const tools = (await listedTools(result.out)) as Array<{ inputSchema: { $defs?: Record<string, unknown> } }>;
    expect(tools.some((tool) => tool.inputSchema.$defs?.['Tree'] !== undefined)).toBe(true);
  });

  it('turns empty, 300-character, non-ASCII and __proto__/constructor names into valid, unique names, and builds', async () => {
    const result = await generate(path.join(FIXTURES, 'names.json'));
    expect(result.code).toBe(0);
    expect(severity(result, 'error')).toEqual([]);
    await linkDependencies(result.out);
    await buildProject(result.out);
    const tools = (await listedTools(result.out)) as Array<{
      name: string;
      inputSchema: { properties: Record<string, { properties?: Record<string, unknown> }> };
    }>;
    const names = tools.map((tool) => tool.name);
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/);
      expect(Object.prototype).not.toHaveProperty(tool.name);
      for (const key of Object.keys(tool.inputSchema.properties)) expect(key).toMatch(/^[a-zA-Z0-9_.-]{1,64}$/);
    }
    // A nested property named __proto__ is data: it survives into the tool list as an own property.
    const nested = tools.flatMap((tool) => Object.values(tool.inputSchema.properties)).find((schema) => schema.properties?.['constructor']);
    expect(Object.keys(nested?.properties ?? {})).toEqual(expect.arrayContaining(['__proto__', 'constructor']));
  });

  it('takes objects whose own toString or valueOf is not a function, anywhere, as data', async () => {
    // String({"toString": "x"}) throws; a template literal does too. Found by the fuzzer (swaggerio-petstore-v3-299135981).
    const result = await generate(path.join(FIXTURES, 'primitive-traps.json'));
    expect(result.code).toBe(0);
    await linkDependencies(result.out);
    await buildProject(result.out);
  });

  it('plans enormous enums in linear time, without listing them', { timeout: 60_000 }, async () => {
    const dir = await tempDir('hostile-enum');
    await mkdir(dir, { recursive: true });
    const values = (prefix: string) => Array.from({ length: 100_000 }, (_, index) => `${prefix}${index}`);
    const parameter = (prefix: string) => ({ name: 'kind', in: 'query', schema: { type: 'string', enum: values(prefix) } });
    const spec = path.join(dir, 'enum.json');
    await writeFile(
      spec,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Enums', version: '1' },
        servers: [{ url: 'https://x.example' }],
        paths: {
          '/things': { get: { operationId: 'listThings', parameters: [parameter('a')], responses: { '200': { description: 'ok' } } } },
          '/things/{id}': {
            get: {
              operationId: 'getThing',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, parameter('b')],
              responses: { '200': { description: 'ok' } },
            },
          },
        },
      }),
    );
    const result = await generate(spec);
    expect(result.code).toBe(0);
    expect(result.elapsedMs).toBeLessThan(45_000);
    // What tools/list shows: the plan's tools as the generated modules hold them.
    const planned = await runPlan({ spec });
    const tools = JSON.stringify(
      planned.plan?.tools.map(({ name, title, description, inputSchema, annotations }) => ({
        name,
        title,
        description,
        inputSchema,
        annotations,
      })),
    );
    // 200,000 values would crowd out everything else a model reads: the tool list stays small.
    expect(tools).not.toContain('"a99999"');
    expect(tools.length).toBeLessThan(20_000);
  });
});

describe('text built to make pattern matching slow', () => {
  it('is cleaned in linear time: markup that never closes, endless capitals, braces and bullets', { timeout: 60_000 }, async () => {
    const dir = await tempDir('hostile-redos');
    await mkdir(dir, { recursive: true });
    const slow = [
      '[a]('.repeat(100_000),
      '<script '.repeat(50_000),
      '<'.repeat(200_000),
      '\n- '.repeat(100_000),
      `${' '.repeat(500_000)}x`,
      '<!--'.repeat(100_000),
      '|-'.repeat(200_000),
    ].join('\n');
    const spec = path.join(dir, 'slow.json');
    await writeFile(
      spec,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Slow', version: '1', description: slow },
        servers: [{ url: 'https://x.example' }],
        tags: [{ name: 'A'.repeat(200_000), description: slow }],
        paths: {
          [`/items/${'{'.repeat(50_000)}/{id}`]: {
            get: {
              operationId: 'A'.repeat(200_000),
              summary: slow,
              description: slow,
              tags: ['A'.repeat(200_000)],
              parameters: [{ name: 'id', in: 'path', required: true, description: slow, schema: { type: 'string', description: slow } }],
              responses: { '200': { description: slow } },
            },
          },
        },
      }),
    );
    const result = await generate(spec);
    expect([0, 1]).toContain(result.code);
    expect(result.elapsedMs).toBeLessThan(30_000);
  });
});

describe('options that reach generated files', () => {
  it.concurrent.each([
    { option: ['--env-prefix', 'X; rm -rf /'], text: '--env-prefix' },
    { option: ['--package-name', '../../evil'], text: '--package-name' },
    { option: ['--rename-tool', 'pets_read=../../evil'], text: '--rename-tool' },
  ])('refuses $text with a value of the wrong shape (a usage error, exit 2)', async ({ option, text }) => {
    const parent = await tempDir('hostile-option');
    const result = await runBin([path.join(FIXTURES, 'duplicate-operation-ids.yaml'), '-o', path.join(parent, 'out'), '--json', ...option]);
    expect(result.code).toBe(2);
    expect(result.stderr + result.stdout).not.toMatch(/internal error|^\s+at /m);
    const [error] = result.json?.diagnostics ?? [];
    expect(error?.code).toBe('OTM_CONFIG_INVALID');
    expect(error?.message).toContain(text);
    expect(existsSync(parent)).toBe(false);
  });

  it('refuses them through the programmatic API and configuration as well', async () => {
    const parent = await tempDir('hostile-option-api');
    const result = await runGenerate({
      spec: path.join(FIXTURES, 'duplicate-operation-ids.yaml'),
      out: path.join(parent, 'out'),
      envPrefix: 'X; rm -rf /',
      packageName: '../../evil',
      renameTools: { pets_read: '../../evil' },
    });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      'OTM_CONFIG_INVALID',
      'OTM_CONFIG_INVALID',
      'OTM_CONFIG_INVALID',
    ]);
    expect(existsSync(parent)).toBe(false);
  });
});

describe('a hostile lock file in the output folder', () => {
  it('cannot make regeneration delete or write files outside the folder', async () => {
    const base = await tempDir('hostile-lock');
    const out = path.join(base, 'project');
    const victim = path.join(base, 'victim.txt');
    await mkdir(base, { recursive: true });
    await writeFile(victim, 'precious');
    const spec = path.join(FIXTURES, 'duplicate-operation-ids.yaml');
    expect((await runBin([spec, '-o', out])).code).toBe(0);
    const lockPath = path.join(out, 'openapi-to-mcp.lock.json');
    const lock = JSON.parse(await readFile(lockPath, 'utf8')) as {
      files: Record<string, string>;
      tools: Record<string, unknown>;
    };
    // The hash of the victim as it is: the lock claims the generator wrote it, so it would be removed as stale.
    lock.files['../victim.txt'] = `sha256-${createHash('sha256').update('precious').digest('base64')}`;
    const [first] = Object.keys(lock.tools);
    lock.tools['../../escape'] = lock.tools[first as string];
    lock.tools['constructor'] = lock.tools[first as string];
    delete lock.tools[first as string];
    await writeFile(lockPath, JSON.stringify(lock));
    const result = await runBin([spec, '-o', out, '--force']);
    expect(crashSigns(result), result.stderr).toEqual([]);
    expect(result.code).toBe(0);
    expect(await readFile(victim, 'utf8')).toBe('precious');
    expect((await readdir(base)).sort()).toEqual(['project', 'victim.txt']);
    for (const name of await readdir(path.join(out, 'src/tools'))) expect(name).toMatch(/^[a-z0-9-]+\.ts$/);
  });
});

describe('text from a description printed to a terminal', () => {
  it('has its escape sequences and line breaks shown, not obeyed', async () => {
    const result = await runBin(['plan', '-'], {
      input:
        'openapi: 3.0.3\ninfo: {title: "T\\e[2J", version: "1"}\npaths:\n  "/a\\e[31m":\n    get:\n      operationId: "x\\ny"\n      parameters: [{name: "bad\\e[1A\\nerror[OTM_FAKE] forged", in: header, schema: {type: string}}]\n      responses: {"200": {description: ok}}\n',
    });
    expect(crashSigns(result)).toEqual([]);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/\u001b/);
    expect(result.stderr).not.toMatch(/^error\[OTM_FAKE\]/m);
    expect(result.stderr).toContain('\\u001b[1A');
    expect(result.stdout).toContain('/a\\u001b[31m');
  });
});
