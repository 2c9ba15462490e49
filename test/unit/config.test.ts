import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA } from '../../src/config/config-schema.js';
import { loadConfigFile } from '../../src/config/load-config.js';
import { mergeConfigs, resolveConfigPaths, toRunOptions } from '../../src/config/resolve-config.js';
import { resolveOptions } from '../../src/config/resolve-options.js';
import { validateConfig } from '../../src/config/validate-config.js';
import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import { closestName, editDistance } from '../../src/diagnostics/did-you-mean.js';
import { starterConfig } from '../../src/cli/run-init.js';
import { applyOverrides } from '../../src/model/apply-overrides.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { modelOf, openapi } from '../helpers/inline.js';
import { tempDir } from '../helpers/project.js';

const ok = { 200: { description: 'ok' } };

describe('did you mean', () => {
  it('suggests close names only', () => {
    expect(editDistance('max-tool', 'max-tools')).toBe(1);
    expect(editDistance('stategy', 'strategy')).toBe(1);
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(closestName('max-tool', ['max-tools', 'max-tool-tokens', 'prefix'])).toBe('max-tools');
    expect(closestName('pln', ['plan', 'diff', 'init'])).toBe('plan');
    expect(closestName('out', ['prefix', 'strategy'])).toBeUndefined();
  });
});

describe('configuration schema', () => {
  it('accepts a full configuration and reports each problem with its path and a suggestion', () => {
    expect(
      validateConfig(
        {
          spec: 'openapi.yaml',
          target: 'workers',
          maxTools: 10,
          include: { tags: ['pets'], methods: ['GET', 'post'] },
          exclude: { deprecated: true },
          operations: { listPets: { tool: 'pets', annotations: { readOnlyHint: true } } },
          headers: { add: [{ property: 'region', header: 'Region' }], remove: [{ tool: 'x', property: 'y' }] },
          renameTools: { a: 'b' },
        },
        CONFIG_SCHEMA,
      ),
    ).toStrictEqual([]);
    expect(
      validateConfig(
        { maxTols: 3, strategy: 'by-tags', maxTools: 0, include: { methods: ['gett'] }, headers: { add: [{}] } },
        CONFIG_SCHEMA,
      ),
    ).toStrictEqual([
      { path: ['maxTols'], message: 'maxTols is not a configuration option.', hint: 'Did you mean "maxTools"?' },
      {
        path: ['strategy'],
        message: 'strategy must be one of auto, per-operation, by-tag, not "by-tags".',
        hint: 'Did you mean "by-tag"?',
      },
      { path: ['maxTools'], message: 'maxTools must be at least 1, not 0.' },
      {
        path: ['include', 'methods', 0],
        message: 'include.methods[0] must be one of get, put, post, delete, options, head, patch, trace, not "gett".',
        hint: 'Did you mean "get"?',
      },
      { path: ['headers', 'add', 0], message: 'headers.add[0] needs "property".' },
    ]);
    expect(validateConfig({ operations: { x: { hidden: 'yes' } } }, CONFIG_SCHEMA)).toStrictEqual([
      { path: ['operations', 'x', 'hidden'], message: 'operations.x.hidden must be true or false, not "yes".' },
    ]);
  });

  it('is shipped as openapi-to-mcp.config.schema.json, current with the source (npm run schema:update)', async () => {
    const shipped = JSON.parse(await readFile(path.join(REPO_ROOT, 'openapi-to-mcp.config.schema.json'), 'utf8')) as unknown;
    expect(shipped).toStrictEqual(JSON.parse(JSON.stringify(CONFIG_SCHEMA)));
    const packageJson = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(packageJson.files).toContain('openapi-to-mcp.config.schema.json');
  });

  it('every option is documented in the README configuration reference and listed in the starter', async () => {
    const readme = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const reference = readme.slice(readme.indexOf('## Configuration reference'));
    const starter = starterConfig('openapi.yaml', undefined);
    for (const key of Object.keys(CONFIG_SCHEMA.properties).filter((name) => name !== '$schema')) {
      expect(reference, key).toContain(`\`${key}\``);
      expect(starter, key).toMatch(new RegExp(`^#? ?${key.replace('$', '\\$')}:`, 'm'));
    }
  });

  it('applies the schema defaults, and only those, to options a caller leaves out', () => {
    const resolved = resolveOptions({ spec: 'openapi.yaml' });
    const { properties } = CONFIG_SCHEMA;
    expect(resolved).toMatchObject({
      strategy: properties.strategy.default,
      maxTools: properties.maxTools.default,
      budget: {
        maxToolTokens: properties.maxToolTokens.default,
        tokensPerOperation: properties.tokensPerOperation.default,
        maxTotalTokens: properties.maxTotalTokens.default,
      },
      outputSchema: properties.outputSchema.default,
      surface: properties.surface.default,
      target: properties.target.default,
      headers: { enabled: properties.headers.properties.enabled.default },
      maxInputBytes: properties.maxInputMb.default * 1024 * 1024,
      allowRemoteRefs: properties.allowRemoteRefs.default,
      validate: properties.validate.default,
    });
    // The starter shows the same defaults, commented out.
    const starter = starterConfig('openapi.yaml', undefined);
    for (const key of ['strategy', 'maxTools', 'maxToolTokens', 'tokensPerOperation', 'maxTotalTokens', 'surface', 'maxInputMb'] as const)
      expect(starter).toMatch(new RegExp(`^# ${key}: ${properties[key].default}$`, 'm'));
    expect(resolveOptions({ spec: 'x', maxTools: 7, budget: { maxTotalTokens: 9000 } })).toMatchObject({
      maxTools: 7,
      budget: { maxTotalTokens: 9000, maxToolTokens: properties.maxToolTokens.default },
    });
  });
});

describe('configuration files', () => {
  it('the starter written by init is valid YAML and a valid configuration, also with every option uncommented', () => {
    const starter = starterConfig('api/openapi.yaml', 'server');
    expect(validateConfig(parseYaml(starter), CONFIG_SCHEMA)).toStrictEqual([]);
    expect(parseYaml(starter)).toStrictEqual({ spec: 'api/openapi.yaml', out: 'server' });
    // Commented-out settings are `# key: value`, `#   key: value` or `#     - item`; prose comments are dropped.
    const setting = /^# (\s*)([A-Za-z$][A-Za-z0-9_]*|[A-Z]+ \/[^:]*|- .*)(:(\s.*)?)?$/;
    const uncommented = starter
      .split('\n')
      .filter((line) => !line.startsWith('#') || (setting.test(line) && /^# (\s*)(- |\S+:)/.test(line)))
      .map((line) => line.replace(/^# /, '').replace(/\s+# .*$/, ''))
      .filter((line) => !line.startsWith('out:'))
      .join('\n');
    expect(validateConfig(parseYaml(uncommented), CONFIG_SCHEMA)).toStrictEqual([]);
  });

  it('reports a bad value with a pointer, the file and the line', async () => {
    const dir = await tempDir('config-file');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'openapi-to-mcp.config.yaml');
    await writeFile(file, 'spec: openapi.yaml\ninclude:\n  tags: [pets]\n  methods: [get, fetch]\n');
    const diagnostics = new Diagnostics();
    expect(await loadConfigFile(file, dir, diagnostics)).toBeUndefined();
    expect(diagnostics.items).toStrictEqual([
      expect.objectContaining({
        code: 'OTM_CONFIG_INVALID',
        severity: 'error',
        pointer: '#/include/methods/1',
        file: 'openapi-to-mcp.config.yaml',
        line: 4,
        column: 18,
      }),
    ]);
    await writeFile(file, 'spec: a\nspec: b\n');
    const duplicate = new Diagnostics();
    expect(await loadConfigFile(file, dir, duplicate)).toBeUndefined();
    expect(duplicate.items[0]).toMatchObject({ code: 'OTM_CONFIG_INVALID', line: 2 });
  });

  it('reads JSON, resolves paths against the file, and lets flags win key by key', async () => {
    const dir = await tempDir('config-json');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'openapi-to-mcp.config.json');
    await writeFile(file, JSON.stringify({ spec: 'specs/api.yaml', out: 'out', maxTools: 5, include: { tags: ['a'], paths: ['/x/**'] } }));
    const loaded = await loadConfigFile(file, dir, new Diagnostics());
    const fromFile = resolveConfigPaths(loaded!.config, dir);
    expect(fromFile).toMatchObject({ spec: path.join(dir, 'specs/api.yaml'), out: path.join(dir, 'out') });
    const merged = mergeConfigs(fromFile, { maxTools: 40, include: { tags: ['b'] } });
    const options = toRunOptions({ ...merged, spec: merged.spec! });
    expect(options.maxTools).toBe(40);
    expect(options.select).toStrictEqual({ includeTags: ['b'], includePaths: ['/x/**'] });
    expect(resolveConfigPaths({ spec: 'https://example.com/a.json' }, dir).spec).toBe('https://example.com/a.json');
  });
});

describe('per-operation overrides', () => {
  it('apply to the model like x-mcp, win over it, and name the closest operation when one is unknown', async () => {
    const { model } = await modelOf(
      openapi({
        '/pets': {
          get: { operationId: 'listPets', 'x-mcp': { annotations: { openWorldHint: false } }, responses: ok },
          post: { operationId: 'addPet', responses: ok },
        },
        '/pets/{id}': { delete: { operationId: 'deletePet', parameters: [{ name: 'id', in: 'path', required: true }], responses: ok } },
      }),
    );
    const diagnostics = new Diagnostics();
    const { model: changed } = applyOverrides(
      model,
      {
        overrides: {
          listPets: { tool: 'pets', annotations: { readOnlyHint: true } },
          'delete /pets/{id}': { hidden: true },
          listPet: { hidden: true },
        },
        file: 'openapi-to-mcp.config.yaml',
      },
      diagnostics,
    );
    const byId = Object.fromEntries(changed.operations.map((operation) => [operation.id, operation.extension]));
    expect(byId['listPets']).toStrictEqual({ tool: 'pets', annotations: { openWorldHint: false, readOnlyHint: true } });
    expect(byId['deletePet']).toStrictEqual({ hidden: true });
    expect(byId['addPet']).toStrictEqual({});
    expect(model.operations.find((operation) => operation.id === 'deletePet')?.extension).toStrictEqual({});
    expect(diagnostics.items).toStrictEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'OTM_CONFIG_INVALID',
        pointer: '#/operations/listPet',
        file: 'openapi-to-mcp.config.yaml',
        hint: 'Did you mean listPets?',
      }),
    ]);
  });
});
