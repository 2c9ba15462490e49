import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolPlan } from '../../src/plan/tool-plan.js';
import { fixtureSpec } from '../helpers/paths.js';
import {
  buildProject,
  connectHttp,
  connectStdio,
  generateProject,
  linkDependencies,
  startHttpServer,
  tempDir,
  textOf,
  type HttpServer,
} from '../helpers/project.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/** The `env` of the README's Claude Desktop set-up, as a user pastes it. */
async function readmeClientEnv(dir: string): Promise<Record<string, string>> {
  const readme = await readFile(path.join(dir, 'README.md'), 'utf8');
  const block = /\*\*Claude Desktop\*\* \(`claude_desktop_config\.json`\):\n\n```json\n([\s\S]*?)\n```/.exec(readme)?.[1];
  if (!block) throw new Error('the README has no Claude Desktop set-up');
  const servers = (JSON.parse(block) as { mcpServers: Record<string, { env: Record<string, string> }> }).mcpServers;
  return Object.values(servers)[0]?.env ?? {};
}

/**
 * Stripe's shape: `security: [basicAuth, bearerAuth]`. Before, every client set-up asked for the Basic user, the
 * password and the token; a user who filled in only the token and left the others as `…` got `Authorization: Basic
 * 4oCmOuKApg==` (base64 of `…:…`) sent. A generated server, built and started the way its README says, over stdio and
 * HTTP, against a recording upstream.
 */
describe('Basic or bearer (Stripe-shaped): one alternative filled in, the other left as its placeholder', () => {
  let dir: string;
  let plan: ToolPlan;
  let upstream: Upstream;
  const clients: Client[] = [];
  const servers: HttpServer[] = [];

  beforeAll(async () => {
    dir = await tempDir('credential-alternatives');
    plan = (await generateProject({ spec: fixtureSpec('stripe-shaped.yaml'), out: dir })).plan as ToolPlan;
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    for (const server of servers) await server.stop();
    await upstream?.close();
  });

  const balance = () => {
    const tool = plan.tools.find((candidate) => candidate.actions.some((action) => action.operation.id === 'GetBalance'));
    const action = tool?.actions.find((candidate) => candidate.operation.id === 'GetBalance');
    if (!tool || !action) throw new Error('no action for GetBalance');
    return { name: tool.name, arguments: action.name ? { action: action.name } : {} };
  };

  it("the README's set-up, token filled in, beside Basic's placeholders: the token is sent, Basic never (stdio)", async () => {
    const env = await readmeClientEnv(dir);
    expect(env).toEqual({ STRIPE_BEARER_AUTH: '…' });
    // What users did with the old set-ups: the token filled in, the Basic pair left as the README had it.
    const client = await connectStdio(dir, {
      ...env,
      STRIPE_BEARER_AUTH: 'sk_test_filled_in',
      STRIPE_BASIC_AUTH_USERNAME: '…',
      STRIPE_BASIC_AUTH_PASSWORD: '…',
      STRIPE_BASE_URL: upstream.url,
    });
    clients.push(client);
    const result = await client.callTool(balance());
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(upstream.requests.at(-1)?.path).toBe('/v1/balance');
    expect(upstream.requests.at(-1)?.headers['authorization']).toBe('Bearer sk_test_filled_in');
  });

  it('every placeholder left as it is: no credential is sent at all (HTTP)', async () => {
    const server = await startHttpServer(dir, {
      STRIPE_BEARER_AUTH: '…',
      STRIPE_BASIC_AUTH_USERNAME: '…',
      STRIPE_BASIC_AUTH_PASSWORD: '...',
      STRIPE_BASE_URL: upstream.url,
    });
    servers.push(server);
    const client = await connectHttp(server.url);
    clients.push(client);
    const before = upstream.requests.length;
    const result = await client.callTool(balance());
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(upstream.requests.length).toBe(before + 1);
    expect(upstream.requests.at(-1)?.headers['authorization']).toBeUndefined();
    for (const name of ['STRIPE_BEARER_AUTH', 'STRIPE_BASIC_AUTH_USERNAME', 'STRIPE_BASIC_AUTH_PASSWORD'])
      expect(server.stderr()).toContain(`${name} holds the placeholder`);
  });

  it('the other alternative filled in (Basic), the token left as its placeholder: Basic is sent (HTTP)', async () => {
    const server = await startHttpServer(dir, {
      STRIPE_BEARER_AUTH: '…',
      STRIPE_BASIC_AUTH_USERNAME: 'sk_test_basic',
      STRIPE_BASIC_AUTH_PASSWORD: '',
      STRIPE_BASE_URL: upstream.url,
    });
    servers.push(server);
    const client = await connectHttp(server.url);
    clients.push(client);
    await client.callTool(balance());
    expect(upstream.requests.at(-1)?.headers['authorization']).toBe(`Basic ${Buffer.from('sk_test_basic:').toString('base64')}`);
  });

  it("the server reports a semver version made of the description's date", async () => {
    const client = clients[0];
    expect(client?.getServerVersion()).toMatchObject({ name: 'stripe-mcp', version: '2025.10.15' });
  });
});
