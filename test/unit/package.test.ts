import { readdir, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sources(full)));
    else if (entry.name.endsWith('.ts')) out.push(full);
  }
  return out;
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('the published package', () => {
  it('declares every package its code imports at run time as a dependency (not a devDependency)', async () => {
    const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      name: string;
      dependencies: Record<string, string>;
      files: string[];
      bin: Record<string, string>;
      engines: { node: string };
      exports: Record<string, unknown>;
    };
    const imported = new Set<string>();
    for (const file of await sources(path.join(REPO_ROOT, 'src'))) {
      const text = await readFile(file, 'utf8');
      // Type-only imports vanish at compile time; everything else is loaded when the CLI runs.
      for (const match of text.matchAll(/^import (?!type )[^'"]*?from '([^'.][^']*)'/gm)) imported.add(packageOf(match[1] as string));
      // Packages loaded on first use: `await import('x')` and `require('x')` (a `typeof import('x')` is a type).
      for (const match of text.matchAll(/(?<!typeof )\b(?:import|require)\('([^'.][^']*)'\)/g)) imported.add(packageOf(match[1] as string));
    }
    const runtime = [...imported].filter((name) => !name.startsWith('node:') && !builtinModules.includes(name)).sort();
    expect(runtime.length).toBeGreaterThan(3);
    expect(runtime.filter((name) => !(name in manifest.dependencies))).toStrictEqual([]);
    expect(manifest.files).toStrictEqual(['bin', 'dist', 'templates', 'openapi-to-mcp.config.schema.json']);
    expect(manifest.bin).toStrictEqual({ 'openapi-to-mcp': 'bin/openapi-to-mcp.js' });
    // The npm name openapi-to-mcp belongs to an unrelated package; ours installs the openapi-to-mcp command.
    expect(manifest.name).toBe('openapi-mcp-planner');
    expect(manifest.engines.node).toMatch(/^>=20/);
    expect(Object.keys(manifest.exports)).toStrictEqual(['.', './package.json']);
  });
});
