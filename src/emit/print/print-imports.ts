import type { ImportDeclarationStructure, OptionalKind } from 'ts-morph';

/**
 * Names and module paths the emitters write: identifiers; relative `.js` paths of safe characters, and package names
 * (`@modelcontextprotocol/server`, optionally with a subpath), which need no escaping either.
 */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PLAIN_SPECIFIER = /^(?:\.{1,2}\/[A-Za-z0-9_./-]+|(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*(?:\/[A-Za-z0-9_./-]+)?)$/;

/**
 * An import declaration as ts-morph prints it from its structure (single quotes), for the plain shape every
 * generated module uses: named imports of identifiers, optionally type-only, from a relative path or a package of
 * safe characters. Anything else (default or namespace imports, aliases, attributes, paths needing escapes) is
 * `undefined`: ts-morph prints it. Unit tests compare this printer with ts-morph's output.
 */
export function plainImport(structure: OptionalKind<ImportDeclarationStructure>): string | undefined {
  const { isTypeOnly, moduleSpecifier, namedImports, defaultImport, namespaceImport, attributes, leadingTrivia, trailingTrivia } =
    structure;
  if (defaultImport !== undefined || namespaceImport !== undefined || attributes !== undefined) return undefined;
  if (leadingTrivia !== undefined || trailingTrivia !== undefined) return undefined;
  if (!PLAIN_SPECIFIER.test(moduleSpecifier) || !Array.isArray(namedImports) || namedImports.length === 0) return undefined;
  if (!namedImports.every((name) => typeof name === 'string' && IDENTIFIER.test(name))) return undefined;
  return `import ${isTypeOnly ? 'type ' : ''}{ ${namedImports.join(', ')} } from '${moduleSpecifier}';`;
}
