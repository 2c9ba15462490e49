import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { emitProject } from '../../src/emit/emit-project.js';
import { openapi, planOf } from '../helpers/inline.js';
import { prettierFormat } from '../helpers/prettier.js';

const ok = { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };
const SPEC = openapi(
  {
    '/pets': { get: { operationId: 'listPets', summary: 'List pets', responses: ok }, post: { operationId: 'addPet', responses: ok } },
    '/pets/{id}': { delete: { operationId: 'deletePet', parameters: [{ name: 'id', in: 'path', required: true }], responses: ok } },
  },
  {
    components: {
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' }, basic: { type: 'http', scheme: 'basic' } },
    },
    security: [{ key: [] }, { basic: [] }],
  },
);

/** The value at a path of plain data, or undefined. */
function dig(value: unknown, ...path: Array<string | number>): unknown {
  let node = value;
  for (const key of path) node = typeof node === 'object' && node !== null ? (node as Record<string | number, unknown>)[key] : undefined;
  return node;
}

async function files(target?: 'node' | 'workers', deploy = true) {
  const { plan } = await planOf(SPEC);
  const emitted = await emitProject(plan, { ...(target ? { target } : {}), deploy });
  return Object.fromEntries(emitted.map((file) => [file.path, file.content]));
}

const DEPLOYMENT_FILES = ['.dockerignore', '.mcpbignore', 'Dockerfile', 'deploy/kubernetes.yaml', 'manifest.json'];

describe('the generated project explains and deploys itself', () => {
  it('has a README with the tool table, every client set-up (stdio and HTTP), Docker and Kubernetes', async () => {
    const readme = (await files())['README.md'] as string;
    for (const text of [
      '| `pets_read` | read-only | List pets | 1 |',
      '`src/tools/<tool>.ts` holds',
      '"mcpServers"',
      // The key or Basic: the set-ups fill in the one with fewer variables to type.
      '--env TEST_KEY=… -- node /path/to/test-mcp/dist/main.js',
      'claude mcp add --transport http test-mcp http://127.0.0.1:3000/mcp',
      '.vscode/mcp.json',
      '"type": "http",\n      "url": "http://127.0.0.1:3000/mcp"',
      '.cursor/mcp.json',
      '~/.codex/config.toml',
      '~/.gemini/settings.json',
      '"httpUrl": "http://127.0.0.1:3000/mcp"',
      '~/.codeium/windsurf/mcp_config.json',
      '"serverUrl": "http://127.0.0.1:3000/mcp"',
      'cline_mcp_settings.json',
      '"type": "streamableHttp"',
      'npx @anthropic-ai/mcpb pack',
      'docker build',
      'kubectl apply -f deploy/kubernetes.yaml',
    ])
      expect(readme, text).toContain(text);
    expect(readme).not.toContain('Cloudflare Workers');
  });

  it('writes the deployment files only when asked, and says in the README how to get them', async () => {
    const lean = await files(undefined, false);
    for (const file of DEPLOYMENT_FILES) expect(lean[file], file).toBeUndefined();
    const readme = lean['README.md'] as string;
    expect(readme).toContain('Regenerate with `--deploy` (or `deploy: true` in the configuration)');
    expect(readme).not.toContain('docker build');
    expect(readme).not.toContain('manifest.json');
    // The by-hand set-ups stay.
    expect(readme).toContain('"mcpServers"');
    const full = await files();
    for (const file of DEPLOYMENT_FILES) expect(full[file], file).toBeDefined();
    expect(
      Object.keys(full)
        .filter((file) => !(file in lean))
        .sort(),
    ).toEqual(DEPLOYMENT_FILES);
  });

  it('writes an MCP bundle manifest whose user_config feeds the environment', async () => {
    const manifest = JSON.parse((await files())['manifest.json'] as string) as Record<string, unknown> & {
      server: { mcp_config: { env: Record<string, string> } };
      user_config: Record<string, { sensitive?: boolean }>;
    };
    expect(manifest).toMatchObject({
      manifest_version: '0.3',
      name: 'test-mcp',
      version: '1.0.0',
      server: { type: 'node', entry_point: 'dist/main.js', mcp_config: { command: 'node', args: ['${__dirname}/dist/main.js'] } },
      compatibility: { runtimes: { node: '>=20.19' } },
    });
    expect(manifest.server.mcp_config.env).toStrictEqual({
      TEST_BASE_URL: '${user_config.base_url}',
      TEST_KEY: '${user_config.test_key}',
      TEST_BASIC_USERNAME: '${user_config.test_basic_username}',
      TEST_BASIC_PASSWORD: '${user_config.test_basic_password}',
    });
    expect(manifest.user_config['test_key']?.sensitive).toBe(true);
    expect(manifest.user_config['test_basic_username']?.sensitive).toBe(false);
    expect(manifest['tools']).toHaveLength(3);
  });

  it('ships a Kubernetes Deployment and Service: probes on /healthz, non-root, env from a Secret', async () => {
    const documents = parseAllDocuments((await files())['deploy/kubernetes.yaml'] as string).map((document) => document.toJS() as unknown);
    expect(documents.map((document) => dig(document, 'kind'))).toStrictEqual(['Deployment', 'Service']);
    const [deployment, service] = documents;
    const pod = dig(deployment, 'spec', 'template', 'spec');
    const container = dig(pod, 'containers', 0);
    expect(dig(pod, 'securityContext')).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(dig(container, 'securityContext')).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    expect(dig(container, 'readinessProbe', 'httpGet')).toStrictEqual({ path: '/healthz', port: 'http' });
    expect(dig(container, 'livenessProbe', 'httpGet')).toStrictEqual({ path: '/healthz', port: 'http' });
    expect(dig(container, 'envFrom')).toStrictEqual([{ secretRef: { name: 'test-mcp-env', optional: true } }]);
    expect(dig(container, 'args')).toStrictEqual(['--http']);
    expect(dig(service, 'spec', 'selector')).toStrictEqual(dig(deployment, 'spec', 'selector', 'matchLabels'));
  });

  it('adds a Workers entry only for --target workers', async () => {
    const node = await files();
    expect(node['wrangler.toml']).toBeUndefined();
    expect(node['src/worker.ts']).toBeUndefined();
    const workers = await files('workers');
    // The compiled Worker, built with its argument checks as code (a Worker may not generate code while serving).
    expect(workers['wrangler.toml']).toContain('main = "dist/worker.js"');
    expect(workers['wrangler.toml']).toContain('command = "npm run build:worker"');
    expect(workers['wrangler.toml']).toContain('compatibility_flags = ["nodejs_compat"]');
    expect(workers['src/worker.ts']).toContain('createFetchHandler');
    expect(workers['src/worker.ts']).toContain("from './argument-validators.js'");
    expect(workers['src/argument-validators.d.ts']).toContain('argumentValidators');
    expect(workers['scripts/argument-validators.mjs']).toContain("'../dist/argument-validators.js'");
    expect(node['scripts/argument-validators.mjs']).toBeUndefined();
    const packageJson = JSON.parse(workers['package.json'] as string) as {
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(packageJson.scripts['dev:worker']).toBe('wrangler dev');
    expect(packageJson.scripts['build:worker']).toBe('tsc -p tsconfig.json && node scripts/argument-validators.mjs');
    expect(packageJson.devDependencies['wrangler']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(workers['README.md']).toContain('### Cloudflare Workers');
  });
});

describe('the Workers entry template', () => {
  it.each(['worker.ts', 'argument-validators.d.ts', 'argument-validators.mjs'])(
    '%s is stored formatted exactly as prettier formats it',
    async (name) => {
      const { readTemplate } = await import('../../src/emit/templates.js');
      const { GENERATED_HEADER } = await import('../../src/emit/source-files.js');
      const source = `${GENERATED_HEADER}\n${readTemplate(`workers/${name}`)}`;
      expect(await prettierFormat(name.endsWith('.mjs') ? 'x.mjs' : 'x.ts', source)).toBe(source);
    },
  );
});
