import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getMcpConfigForManifest } from '@anthropic-ai/mcpb';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_CASES_FILE, type ActionCase } from '../../src/emit/test-cases.js';
import type { ToolPlan } from '../../src/plan/tool-plan.js';
import { runBin } from '../helpers/cli.js';
import { fixtureSpec, REPO_ROOT } from '../helpers/paths.js';
import { buildProject, connectStdio, generateProject, linkDependencies, tempDir, textOf } from '../helpers/project.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/** A generated server started as a bundle host starts it: `mcp_config` of manifest.json, expanded by the mcpb library. */
async function startFromBundle(dir: string, userConfig: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Parameters<
    typeof getMcpConfigForManifest
  >[0]['manifest'];
  const config = await getMcpConfigForManifest({ manifest, extensionPath: dir, systemDirs: {}, userConfig, pathSeparator: '/' });
  if (!config) throw new Error('the bundle tool gave no server configuration');
  const transport = new StdioClientTransport({
    command: config.command === 'node' ? process.execPath : config.command,
    args: config.args ?? [],
    env: { PATH: process.env['PATH'] ?? '', ...config.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'bundle-host', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** The tool and action that run an operation. */
function callFor(plan: ToolPlan, operationId: string): { name: string; action: string } {
  for (const tool of plan.tools)
    for (const action of tool.actions) if (action.operation.id === operationId) return { name: tool.name, action: action.name };
  throw new Error(`no action for ${operationId}`);
}

/** Starts `node dist/main.js` and waits for it to exit (a configuration error) or to be killed after a while. */
function startAndWait(dir: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(dir, 'dist/main.js')], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('MCP bundle: optional credentials left blank', () => {
  let dir: string;
  let plan: ToolPlan;
  let upstream: Upstream;
  const clients: Client[] = [];

  beforeAll(async () => {
    dir = await tempDir('bundle-placeholders');
    plan = (await generateProject({ spec: fixtureSpec('swaggerio-petstore-v3.yaml'), out: dir, deploy: true })).plan as ToolPlan;
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await upstream?.close();
  });

  it('reach the server as unexpanded ${user_config.…}: treated as unset, one warning each, no credential sent', async () => {
    const { client, stderr } = await startFromBundle(dir, { base_url: upstream.url });
    clients.push(client);
    const { name, action } = callFor(plan, 'getPetById');
    const result = await client.callTool({ name, arguments: { action, petId: 7 } });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const request = upstream.requests.at(-1);
    expect(request?.path).toBe('/pet/7');
    expect(request?.headers['api_key']).toBeUndefined();
    expect(request?.headers['authorization']).toBeUndefined();
    for (const credential of plan.api.credentials) {
      const warnings = stderr()
        .split('\n')
        .filter((line) => line.startsWith(`warn: ${credential.env[0]} holds the placeholder \${user_config.`));
      expect(warnings, stderr()).toHaveLength(1);
    }
    expect(stderr()).not.toMatch(/BASE_URL holds/);
  });

  it('a credential filled in at install is sent', async () => {
    const apiKey = plan.api.credentials.find((credential) => credential.kind === 'apiKey');
    const { client, stderr } = await startFromBundle(dir, { base_url: upstream.url, [apiKey!.env[0]!.toLowerCase()]: 'key-0123456789' });
    clients.push(client);
    const { name, action } = callFor(plan, 'getPetById');
    await client.callTool({ name, arguments: { action, petId: 8 } });
    expect(upstream.requests.at(-1)?.headers['api_key']).toBe('key-0123456789');
    expect(stderr()).not.toContain(`${apiKey!.env[0]} holds`);
  });
});

describe('Sentry-shaped description: a generic title and {region} in the host', () => {
  let dir: string;
  let plan: ToolPlan;
  let upstream: Upstream;

  beforeAll(async () => {
    dir = await tempDir('sentry-shaped');
    plan = (await generateProject({ spec: fixtureSpec('sentry-shaped.yaml'), out: dir, deploy: true })).plan as ToolPlan;
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
  });
  afterAll(async () => {
    await upstream?.close();
  });

  it('is named after Sentry, and the README and .env.example list the server variable', async () => {
    expect(plan.api.title).toBe('API Reference');
    expect(plan.api.slug).toBe('sentry');
    expect(plan.api.envPrefix).toBe('SENTRY');
    expect(JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')).name).toBe('sentry-mcp');
    const readme = await readFile(path.join(dir, 'README.md'), 'utf8');
    expect(readme).toContain('| `SENTRY_SERVER_REGION` | Server variable `region` of the base URL (default `us`; one of us, de)');
    expect(await readFile(path.join(dir, '.env.example'), 'utf8')).toContain('# SENTRY_SERVER_REGION=');
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'));
    expect(manifest.server.mcp_config.env['SENTRY_SERVER_REGION']).toBe('${user_config.server_region}');
  });

  it('fills {variables} of a configured base URL, host included, from their variables or defaults', async () => {
    const { name, action } = callFor(plan, 'Retrieve a Project');
    const port = new URL(upstream.url).port;
    for (const [region, expected] of [
      [undefined, 'us'],
      ['de', 'de'],
    ] as const) {
      const client = await connectStdio(dir, {
        SENTRY_BASE_URL: `http://{apihost}:${port}/{region}`,
        SENTRY_SERVER_APIHOST: '127.0.0.1',
        ...(region ? { SENTRY_SERVER_REGION: region } : {}),
        SENTRY_AUTH_TOKEN: 'sntrys-token',
      });
      const result = await client.callTool({
        name,
        arguments: { ...(action ? { action } : {}), organization_id_or_slug: 'acme', project_id_or_slug: 'web' },
      });
      await client.close();
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const request = upstream.requests.at(-1);
      expect(request?.headers['host']).toBe(`127.0.0.1:${port}`);
      expect(request?.path).toBe(`/${expected}/api/0/projects/acme/web/`);
      expect(request?.headers['authorization']).toBe('Bearer sntrys-token');
    }
  });

  it("fills Sentry's default https://{region}.sentry.io, as the bundle passes it, with the chosen region", async () => {
    const { client } = await startFromBundle(dir, { server_region: 'de' });
    const { name, action } = callFor(plan, 'Retrieve a Project');
    const result = await client.callTool({
      name,
      arguments: { ...(action ? { action } : {}), organization_id_or_slug: 'acme', project_id_or_slug: 'web' },
    });
    await client.close();
    // No network here: the call fails, and the failure names the host the server filled in.
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('de.sentry.io');
    expect(textOf(result)).not.toContain('{region}');
  });

  it('stops at start, naming the variable, when a {variable} has no value', async () => {
    const stopped = await startAndWait(dir, { SENTRY_BASE_URL: `${upstream.url}/{tenant}` });
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toContain('needs a value for {tenant}: set SENTRY_SERVER_TENANT');
    const wrong = await startAndWait(dir, { SENTRY_SERVER_REGION: 'mars' });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('SENTRY_SERVER_REGION');
    expect(wrong.stderr).toContain('one of us, de');
  });
});

describe('A credential format the description shows (Discord: Bot <token>)', () => {
  let dir: string;
  let upstream: Upstream;

  beforeAll(async () => {
    dir = await tempDir('credential-format');
    const spec = path.join(dir, '..', `${path.basename(dir)}.json`);
    await writeFile(
      spec,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Chat Bots', version: '10' },
        servers: [{ url: 'https://chat.example.com/api/v10' }],
        security: [{ BotToken: [] }],
        components: {
          securitySchemes: {
            BotToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Send `Bot <token>` with your bot token.' },
          },
        },
        paths: { '/users/@me': { get: { operationId: 'getMyUser', responses: { 200: { description: 'ok' } } } } },
      }),
    );
    await generateProject({ spec, out: dir });
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
  });
  afterAll(async () => {
    await upstream?.close();
  });

  it('is documented in .env.example and the README, and the server adds the prefix when the value lacks it', async () => {
    const example = await readFile(path.join(dir, '.env.example'), 'utf8');
    expect(example).toContain('# The value has the form Bot <token>; the server adds "Bot " when the value does not start with it.');
    // Markdown text is escaped: `<token>` is written &lt;token&gt;.
    expect(await readFile(path.join(dir, 'README.md'), 'utf8')).toContain('The value has the form Bot &lt;token&gt;; the server adds');
    for (const [value, sent] of [
      ['abc.def', 'Bot abc.def'],
      ['Bot abc.def', 'Bot abc.def'],
    ]) {
      const client = await connectStdio(dir, { CHAT_BOTS_BASE_URL: upstream.url, CHAT_BOTS_BOT_TOKEN: value as string });
      const result = await client.callTool({ name: 'users_me_read', arguments: {} });
      await client.close();
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(upstream.requests.at(-1)?.headers['authorization']).toBe(sent);
    }
  });
});

/**
 * GitHub's description declares no credentials. Generated as the README shows (`--credential bearer=GITHUB_TOKEN`),
 * every one of its 1,223 operations, called through the official client, reaches the API with the token.
 */
describe('GitHub with --credential bearer=GITHUB_TOKEN', () => {
  let dir: string;
  let upstream: Upstream;
  let client: Client;

  beforeAll(async () => {
    dir = await tempDir('github-credential');
    const spec = path.join(REPO_ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json');
    const generated = await runBin([spec, '-o', dir, '--credential', 'bearer=GITHUB_TOKEN', '--quiet'], { cwd: REPO_ROOT });
    expect(generated.code, generated.stderr).toBe(0);
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
    client = await connectStdio(dir, {
      GITHUB_BASE_URL: upstream.url,
      GITHUB_TOKEN: 'ghp_test0123456789abcdef',
      GITHUB_TOKEN_QUERY: 'package-token-42',
      GITHUB_RATE_LIMIT: '0',
    });
  }, 600_000);
  afterAll(async () => {
    await client?.close();
    await upstream?.close();
  });

  it('lists GITHUB_TOKEN in .env.example and the README', async () => {
    expect(await readFile(path.join(dir, '.env.example'), 'utf8')).toMatch(/^GITHUB_TOKEN=$/m);
    expect(await readFile(path.join(dir, 'README.md'), 'utf8')).toContain('| `GITHUB_TOKEN` | github\\_token \\(bearer token\\)');
  });

  it('sends the token as a bearer credential on every call, and the package token on each restore operation', async () => {
    const cases = (await readFile(path.join(dir, ACTION_CASES_FILE), 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as ActionCase);
    expect(cases.length).toBe(1223);
    const failed: string[] = [];
    for (const entry of cases) {
      const before = upstream.requests.length;
      // The cases leave out the action selector, which a client sends for a tool with several actions.
      const args = entry.action === '' ? entry.arguments : { action: entry.action, ...entry.arguments };
      const result = await client.callTool({ name: entry.tool, arguments: args });
      if (result.isError || upstream.requests.length !== before + 1) failed.push(`${entry.tool}/${entry.action}: ${textOf(result)}`);
    }
    expect(failed).toEqual([]);
    expect(upstream.requests).toHaveLength(1223);
    const unauthenticated = upstream.requests.filter((request) => request.headers['authorization'] !== 'Bearer ghp_test0123456789abcdef');
    expect(unauthenticated.map((request) => `${request.method} ${request.path}`)).toEqual([]);
    const restores = upstream.requests.filter((request) => /\/packages\/[^/]+\/[^/]+\/restore$/.test(request.path));
    expect(restores).toHaveLength(3);
    for (const request of restores) expect(request.query.get('token')).toBe('package-token-42');
  }, 600_000);
});
