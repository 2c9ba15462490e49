import { IndentationText, Project, QuoteKind, StructureKind, type ImportDeclarationStructure, type OptionalKind } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { plainImport } from '../../../src/emit/print/print-imports.js';
import { GENERATED_HEADER, moduleText, namedImport, typeImport } from '../../../src/emit/source-files.js';

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
    ];
    for (const structure of cases) {
      expect(plainImport(structure)).toBeUndefined();
      expect(head([], [structure])).toBe(morphed([], [structure]));
    }
  });
});
