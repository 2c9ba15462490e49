import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { IndentationText, Project, QuoteKind, StructureKind, type ImportDeclarationStructure, type OptionalKind } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { plainImport } from '../../../src/emit/print/print-imports.js';
import { GENERATED_HEADER, moduleText, namedImport, typeImport } from '../../../src/emit/source-files.js';
import { fixtureSpec, REPO_ROOT } from '../../helpers/paths.js';

/** The head of a module as ts-morph prints it from structures: the reference the plain-import printer must match. */
function morphed(headerLines: string[], imports: Array<OptionalKind<ImportDeclarationStructure>>): string {
  const project = new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Single },
  });
  const header = [GENERATED_HEADER, ...headerLines.map((line) => `// ${line}`)].join('\n');
  const statements = [
    header,
    ...(imports.length > 0 ? [(writer: { blankLineIfLastNot(): void }) => writer.blankLineIfLastNot()] : []),
    ...imports.map((structure) => ({ ...structure, kind: StructureKind.ImportDeclaration }) as const),
  ];
  return project.createSourceFile('m.ts', { statements }).getFullText().trimEnd();
}

const head = (headerLines: string[], imports: Array<OptionalKind<ImportDeclarationStructure>>) =>
  moduleText('src/m.ts', headerLines, imports, ['export const x = 1;']).replace(/\n\nexport const x = 1;\n$/, '');

describe('module heads', () => {
  it('prints plain imports exactly as ts-morph does', () => {
    const cases: Array<[string[], Array<OptionalKind<ImportDeclarationStructure>>]> = [
      [[], []],
      [['API: Example 1.0'], []],
      [[], [namedImport('../runtime/core/define-tool.js', 'defineTool')]],
      [['Two', 'lines'], [typeImport('./runtime/core/types.js', 'ApiDefinition')]],
      [
        [],
        [
          typeImport('../runtime/core/types.js', 'ToolDefinition'),
          ...Array.from({ length: 120 }, (_, index) => namedImport(`./tool-${index}.js`, `tool${index}Tool`)),
        ],
      ],
      [[], [{ moduleSpecifier: '../a/b.js', namedImports: ['one', 'two', '$three'] }]],
      // Packages, as the icons module imports the SDK's types.
      [[], [typeImport('@modelcontextprotocol/server', 'Icon')]],
      [[], [namedImport('zod', 'z'), namedImport('@scope/pkg.name/sub/path.js', 'thing')]],
    ];
    for (const [headerLines, imports] of cases) {
      expect(imports.every((structure) => plainImport(structure) !== undefined)).toBe(true);
      expect(head(headerLines, imports)).toBe(morphed(headerLines, imports));
    }
  });

  it('leaves every other import shape to ts-morph', () => {
    const cases: Array<OptionalKind<ImportDeclarationStructure>> = [
      { moduleSpecifier: 'node:fs', defaultImport: 'fs' },
      { moduleSpecifier: './x.js', namespaceImport: 'x' },
      { moduleSpecifier: "./it's.js", namedImports: ['a'] },
      { moduleSpecifier: './x.js', namedImports: [{ name: 'a', alias: 'b' }] },
      { moduleSpecifier: './x.js', namedImports: [] },
      { moduleSpecifier: '@Scope/x', namedImports: ['a'] },
      { moduleSpecifier: 'pkg\\x', namedImports: ['a'] },
      { moduleSpecifier: 'a b', namedImports: ['a'] },
    ];
    for (const structure of cases) {
      expect(plainImport(structure)).toBeUndefined();
      expect(head([], [structure])).toBe(morphed([], [structure]));
    }
  });

  it('leaves ts-morph unloaded in a whole generation, whose imports are all plain', () => {
    // Requiring it (TypeScript's compiler inside) costs about 0.3 s and 30 MB at the peak of a GitHub generation:
    // one module with an import outside the plain shape brings that back. The built generator, in a process of its own.
    const out = mkdtempSync(path.join(tmpdir(), 'otm-heads-'));
    try {
      const script = `
        import { createRequire } from 'node:module';
        const { generate } = await import(${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'dist/index.js')).href)});
        const result = await generate({ spec: ${JSON.stringify(fixtureSpec('oai-tictactoe.yaml'))}, out: ${JSON.stringify(out)} });
        const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('/ts-morph/'));
        console.log(JSON.stringify({ ok: result.ok, loaded }));
      `;
      const report = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as {
        ok: boolean;
        loaded: string[];
      };
      expect(report.ok).toBe(true);
      expect(report.loaded).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
