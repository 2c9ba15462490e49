import path from 'node:path';

export type MovedImport = { specifier: string; module: string; replacement: string };

/**
 * The imports of a file of the user's that name a generated module the project no longer has, where a generated
 * module of the same name is now: a user-owned file is never rewritten, so one written by an earlier version (the
 * runtime was one flat folder, `../runtime/types.js`) would stop the project's build once the old module is removed.
 * Relative imports only, found by their quoted specifier; an import of a module the user added is none of these.
 */
export function movedImports(file: string, content: string, generated: ReadonlySet<string>): MovedImport[] {
  const moved: MovedImport[] = [];
  const folder = path.posix.dirname(file);
  for (const [, specifier] of content.matchAll(/(?:\bfrom|\bimport\s*\()\s*['"](\.{1,2}\/[^'"]+)\.js['"]/g)) {
    const target = path.posix.join(folder, specifier!);
    if (generated.has(`${target}.ts`)) continue;
    const name = `/${path.posix.basename(target)}.ts`;
    // Within the folder the module was in (src/runtime/ for the runtime), as the move kept names.
    const within = `${path.posix.dirname(target)}/`;
    const candidates = [...generated].filter((module) => module.startsWith(within) && module.endsWith(name));
    if (candidates.length !== 1) continue;
    const module = candidates[0]!;
    const relative = path.posix.relative(folder, module).replace(/\.ts$/, '.js');
    moved.push({ specifier: `${specifier}.js`, module, replacement: relative.startsWith('.') ? relative : `./${relative}` });
  }
  return moved;
}
