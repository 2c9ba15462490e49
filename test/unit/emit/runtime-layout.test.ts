import path from 'node:path';
import { parseSync } from '@swc/core';
import { describe, expect, it } from 'vitest';
import { emitProject, type EmitOptions } from '../../../src/emit/emit-project.js';
import type { EmittedFile } from '../../../src/emit/file-set.js';
import { runPlan } from '../../../src/pipeline.js';
import { fixtureSpec, REPO_ROOT } from '../../helpers/paths.js';

/**
 * The generated runtime is what users read and check in: its folders by concern (src/runtime/<folder>/) must form
 * layers, and no module may import itself back, through the generated modules (api.ts, tools/, search/) included.
 * The order of the layers is the one the generated README's table gives, so the README's claim is what is checked.
 */
const PROJECTS: Array<{ name: string; spec: string; surface?: 'search'; target?: EmitOptions['target'] }> = [
  // OpenAPI 3.0 with an API key and OAuth: the per-user modes and their sign-in modules.
  { name: 'petstore', spec: path.join(REPO_ROOT, 'samples/petstore/openapi.yaml') },
  { name: 'petstore, search surface', spec: path.join(REPO_ROOT, 'samples/petstore/openapi.yaml'), surface: 'search' },
  // Basic auth only: no scheme a user's token could stand for.
  { name: 'museum', spec: path.join(REPO_ROOT, 'samples/museum/openapi.yaml') },
  { name: 'museum, search surface', spec: path.join(REPO_ROOT, 'samples/museum/openapi.yaml'), surface: 'search' },
  // An OAuth authorization code flow, served as a Cloudflare Worker.
  { name: 'tic-tac-toe on Workers', spec: fixtureSpec('oai-tictactoe.yaml'), target: 'workers' },
];

async function projectOf(project: (typeof PROJECTS)[number]): Promise<EmittedFile[]> {
  const result = await runPlan({ spec: project.spec, ...(project.surface ? { surface: project.surface } : {}) });
  expect(result.diagnostics.filter((item) => item.severity === 'error')).toEqual([]);
  const search = result.surface?.search;
  return emitProject(result.plan!, { ...(search ? { search } : {}), ...(project.target ? { target: project.target } : {}) });
}

/** Every module of src/ and the modules it imports (static, re-exported and dynamic imports), by path. */
function importGraph(files: EmittedFile[]): Map<string, string[]> {
  const modules = new Set(files.map((file) => file.path).filter((file) => file.startsWith('src/') && file.endsWith('.ts')));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    if (!modules.has(file.path)) continue;
    const imported = specifiers(file.content)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => {
        const target = path.posix.join(path.posix.dirname(file.path), specifier).replace(/\.js$/, '');
        const found = [`${target}.ts`, `${target}.d.ts`].find((candidate) => modules.has(candidate));
        // An import of a module the project lacks would fail its build: every one must resolve.
        expect(found, `${file.path} imports ${specifier}`).toBeDefined();
        return found!;
      });
    graph.set(file.path, imported);
  }
  return graph;
}

/** The module specifiers a TypeScript module names: imports, `export … from` and `import('…')` with a literal. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    const source = record['source'] as { type?: string; value?: string } | undefined;
    if (
      (record['type'] === 'ImportDeclaration' ||
        record['type'] === 'ExportAllDeclaration' ||
        record['type'] === 'ExportNamedDeclaration') &&
      source?.type === 'StringLiteral'
    )
      found.push(source.value!);
    if (record['type'] === 'CallExpression' && (record['callee'] as { type?: string } | undefined)?.type === 'Import') {
      const [first] = record['arguments'] as Array<{ expression?: { type?: string; value?: string } }>;
      if (first?.expression?.type === 'StringLiteral') found.push(first.expression.value!);
    }
    Object.values(record).forEach(visit);
  };
  visit(parseSync(source, { syntax: 'typescript' }).body);
  return found;
}

/** The modules of one import cycle, in order, or undefined when there is none. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (module: string): string[] | undefined => {
    if (onStack.has(module)) return [...stack.slice(stack.indexOf(module)), module];
    if (done.has(module)) return undefined;
    stack.push(module);
    onStack.add(module);
    for (const next of graph.get(module) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    onStack.delete(module);
    done.add(module);
    return undefined;
  };
  for (const module of graph.keys()) {
    const cycle = visit(module);
    if (cycle) return cycle;
  }
  return undefined;
}

/** The runtime folders in the order of the README's layout table. */
function readmeLayers(readme: string): string[] {
  const layout = readme.slice(readme.indexOf('## Layout'), readme.indexOf('## Your own code'));
  return [...layout.matchAll(/^\| `([a-z-]+)\/` \|/gm)].map((match) => match[1]!);
}

const runtimeFolder = (module: string) => /^src\/runtime\/([^/]+)\//.exec(module)?.[1];
const text = (files: EmittedFile[], file: string) => files.find((candidate) => candidate.path === file)?.content ?? '';

describe('the runtime of a generated project', () => {
  for (const project of PROJECTS) {
    it(`has no import cycle, and its folders import only from those the README lists before them (${project.name})`, async () => {
      const files = await projectOf(project);
      const graph = importGraph(files);
      expect(findCycle(graph)).toBeUndefined();

      const layers = readmeLayers(text(files, 'README.md'));
      const folders = new Set([...graph.keys()].map(runtimeFolder).filter((folder) => folder !== undefined));
      // The table lists exactly the folders the project has, and every runtime module is in one of them.
      expect(layers.toSorted()).toEqual([...folders].sort());
      expect([...graph.keys()].filter((module) => module.startsWith('src/runtime/') && !runtimeFolder(module))).toEqual([]);
      const upward: string[] = [];
      for (const [module, imported] of graph) {
        const from = runtimeFolder(module);
        if (!from) continue;
        for (const target of imported) {
          const to = runtimeFolder(target);
          if (to && layers.indexOf(to) > layers.indexOf(from)) upward.push(`${module} → ${target}`);
        }
      }
      expect(upward).toEqual([]);
    });
  }

  it('finds a cycle where there is one, through dynamic imports too', () => {
    const files = (modules: Record<string, string>) =>
      Object.entries(modules).map(([file, content]): EmittedFile => ({ path: file, content, ownership: 'generated' }));
    const graph = importGraph(
      files({
        'src/a.ts': "import { b } from './runtime/core/b.js';\nexport const a = b;",
        'src/runtime/core/b.ts': "export const b = 1;\nexport const c = () => import('../../a.js');",
      }),
    );
    expect(findCycle(graph)).toEqual(['src/a.ts', 'src/runtime/core/b.ts', 'src/a.ts']);
    expect(findCycle(importGraph(files({ 'src/a.ts': "export * from './b.js';", 'src/b.ts': 'export const b = 1;' })))).toBeUndefined();
  });
});

describe('what a project leaves out', () => {
  it('has no sign-in modules or OAuth authorization server without a user scheme, and the README says so', async () => {
    const files = await projectOf({ name: 'museum', spec: path.join(REPO_ROOT, 'samples/museum/openapi.yaml') });
    const paths = files.map((file) => file.path);
    expect(paths.filter((file) => /^src\/runtime\/(sign-in\/|.*(oauth|sealed|store|token-exchange))/.test(file))).toEqual([]);
    // What the HTTP server asks of the per-user modes is there, refusing them.
    expect(text(files, 'src/runtime/serving/user-access.ts')).toContain('generated without the per-user modes');
    const readme = text(files, 'README.md');
    expect(readme).toContain('There is no `src/runtime/sign-in/`');
    expect(readme).not.toContain('| `sign-in/` |');
    // Static tools: no search modules or index library either, and the README says so.
    expect(paths.filter((file) => file.includes('/search/'))).toEqual([]);
    expect(readme).toContain('There is no `src/runtime/search/`');
    expect(Object.keys((JSON.parse(text(files, 'package.json')) as { dependencies: object }).dependencies)).not.toContain('minisearch');
  });

  it('keeps the sign-in and search modules where the description and the surface use them, and says nothing is left out', async () => {
    const files = await projectOf({ name: 'petstore', spec: path.join(REPO_ROOT, 'samples/petstore/openapi.yaml'), surface: 'search' });
    const paths = files.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['src/runtime/sign-in/oauth-server.ts', 'src/runtime/search/search-surface.ts']));
    expect(text(files, 'src/runtime/serving/user-access.ts')).toContain('createOAuthServer');
    const readme = text(files, 'README.md');
    expect(readme).not.toContain('There is no `src/runtime/');
    expect(readmeLayers(readme)).toEqual(expect.arrayContaining(['sign-in', 'search']));
  });
});
