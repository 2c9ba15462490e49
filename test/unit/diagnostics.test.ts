import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CATALOG } from '../../src/diagnostics/codes.js';
import { childPointer, parsePointer, pointerOf, resolvePointer } from '../../src/diagnostics/json-pointer.js';
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

describe('diagnostics', () => {
  it('every code used in the source is documented in the catalog, and every documented code is used', async () => {
    const used = new Set<string>();
    for (const file of await sources(path.join(REPO_ROOT, 'src'))) {
      if (file.endsWith('codes.ts')) continue;
      for (const match of (await readFile(file, 'utf8')).matchAll(/'(OTM_[A-Z_]+)'/g)) used.add(match[1] as string);
    }
    const documented = Object.keys(DIAGNOSTIC_CATALOG);
    expect([...used].filter((code) => !documented.includes(code))).toEqual([]);
    expect(documented.filter((code) => !used.has(code))).toEqual([]);
    for (const entry of Object.values(DIAGNOSTIC_CATALOG)) {
      expect(entry.title.length).toBeGreaterThan(10);
      expect(entry.fix.length).toBeGreaterThan(10);
    }
  });

  it('builds and resolves RFC 6901 pointers', () => {
    expect(pointerOf('paths', '/pets/{id}', 'get')).toBe('#/paths/~1pets~1{id}/get');
    expect(childPointer('#/a', 'b~c')).toBe('#/a/b~0c');
    expect(parsePointer('#/paths/~1pets')).toEqual(['paths', '/pets']);
    expect(resolvePointer({ a: { 'b/c': 1 } }, '#/a/b~1c')).toBe(1);
    expect(resolvePointer({ a: {} }, '#/a/__proto__')).toBeUndefined();
  });

  it('escapes, decodes and unescapes only where a token needs it', () => {
    expect(childPointer('#', 'a', 0, 'plain')).toBe('#/a/0/plain');
    expect(childPointer('#/', '~/', '/~1')).toBe('#/~0~1/~1~01');
    expect(childPointer('#/x')).toBe('#/x');
    expect(parsePointer('#/~0~1/~1~01')).toEqual(['~/', '/~1']);
    expect(parsePointer('#/a%20b/%7E1')).toEqual(['a b', '/']);
    expect(parsePointer('#/a%zz')).toBeUndefined();
    expect(parsePointer('#/plain/0')).toEqual(['plain', '0']);
  });
});

describe('README', () => {
  it('documents every diagnostic code', async () => {
    const readme = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8');
    for (const code of Object.keys(DIAGNOSTIC_CATALOG)) expect(readme, code).toContain(`\`${code}\``);
  });
});
