import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { emitProject } from '../../../src/emit/emit-project.js';
import { serverVersion } from '../../../src/emit/server-version.js';
import { envCase } from '../../../src/plan/text/words.js';
import { addCredentials } from '../../../src/model/add-credentials.js';
import { planTools } from '../../../src/plan/plan-tools.js';
import { modelOf, openapi, planOf } from '../../helpers/inline.js';
import { withDefaults } from '../../helpers/options.js';
import { fixtureSpec } from '../../helpers/paths.js';

async function stripeShaped(options: { deploy?: boolean } = {}) {
  const { plan } = await planOf(await readFile(fixtureSpec('stripe-shaped.yaml'), 'utf8'));
  const emitted = await emitProject(plan, { deploy: options.deploy ?? true });
  return { plan, files: Object.fromEntries(emitted.map((file) => [file.path, file.content])) as Record<string, string> };
}

/** The fenced blocks of a Markdown text that follow a line starting with `heading`, in order. */
function blocksAfter(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}`);
  if (start < 0) throw new Error(`no ${heading}`);
  const rest = markdown.slice(start + 1);
  const next = rest.slice(1).search(/\n\*\*[A-Z]/);
  const section = next < 0 ? rest : rest.slice(0, next + 1);
  return [...section.matchAll(/```[a-z]*\n([\s\S]*?)\n```/g)].map((match) => match[1] ?? '');
}

describe('security alternatives (security: [basicAuth, bearerAuth]) are one of, not all', () => {
  it('.env.example numbers them as alternatives and says to fill in one', async () => {
    const env = (await stripeShaped()).files['.env.example'] ?? '';
    expect(env).toContain('# The API accepts any one of the 2 alternatives below: fill in one, leave the others empty.');
    expect(env).toMatch(
      /# Alternative 1 of 2: basicAuth \(user name and password\)[^\n]*\nSTRIPE_BASIC_AUTH_USERNAME=\nSTRIPE_BASIC_AUTH_PASSWORD=\n/,
    );
    expect(env).toMatch(/# Alternative 2 of 2: bearerAuth \(bearer token\)[^\n]*\n(#[^\n]*\n)?STRIPE_BEARER_AUTH=\n/);
  });

  it('the README marks each variable as one alternative and names the others', async () => {
    const readme = (await stripeShaped()).files['README.md'] ?? '';
    expect(readme).toContain('| `STRIPE_BASIC_AUTH_USERNAME` | **Alternative 1 of 2** (or instead `STRIPE_BEARER_AUTH`): basicAuth');
    expect(readme).toContain(
      '| `STRIPE_BEARER_AUTH` | **Alternative 2 of 2** (or instead `STRIPE_BASIC_AUTH_USERNAME` and `STRIPE_BASIC_AUTH_PASSWORD`): bearerAuth',
    );
    expect(readme.replace(/\s+/g, ' ')).toContain(
      'Where the API asks for them, it accepts any one of these 2 credentials, so set one of them, not all: `STRIPE_BASIC_AUTH_USERNAME` and `STRIPE_BASIC_AUTH_PASSWORD` (user name and password), or `STRIPE_BEARER_AUTH` (bearer token).',
    );
  });

  it('every client set-up fills in one alternative (the bearer token), never the Basic pair beside it', async () => {
    const readme = (await stripeShaped()).files['README.md'] ?? '';
    const clients = readme.slice(readme.indexOf('## Use it from a client'), readme.indexOf('## Your own code'));
    expect(clients.replace(/\s+/g, ' ')).toContain('The set-ups below fill in `STRIPE_BEARER_AUTH`.');
    expect(clients).not.toMatch(/STRIPE_BASIC_AUTH_(USERNAME|PASSWORD)["=\s]+(…|\$\{input)/);
    for (const heading of ['**Claude Desktop** (', '**Cursor**', '**Gemini CLI**', '**Windsurf**', '**Cline**']) {
      const [stdio] = blocksAfter(clients, heading);
      const servers = (
        JSON.parse(stdio ?? '') as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> }
      ).mcpServers;
      expect(servers['stripe-mcp'], heading).toMatchObject({ command: 'node', args: ['/path/to/stripe-mcp/dist/main.js'] });
      expect(servers['stripe-mcp']?.env, heading).toEqual({ STRIPE_BEARER_AUTH: '…' });
    }
    const [codex, codexHttp] = blocksAfter(clients, '**Codex**');
    expect(codex).toBe(
      '[mcp_servers.stripe-mcp]\ncommand = "node"\nargs = ["/path/to/stripe-mcp/dist/main.js"]\n\n[mcp_servers.stripe-mcp.env]\nSTRIPE_BEARER_AUTH = "…"',
    );
    expect(codexHttp).toBe('[mcp_servers.stripe-mcp]\nurl = "http://127.0.0.1:3000/mcp"');
    const [claudeCode] = blocksAfter(clients, '**Claude Code**');
    expect(claudeCode).toBe('claude mcp add stripe-mcp --env STRIPE_BEARER_AUTH=… -- node /path/to/stripe-mcp/dist/main.js');
  });

  it('VS Code asks for the secret through an input (password) instead of holding it in .vscode/mcp.json', async () => {
    const readme = (await stripeShaped()).files['README.md'] ?? '';
    const [stdio, http] = blocksAfter(readme, '**VS Code**');
    const config = JSON.parse(stdio ?? '') as {
      inputs: Array<{ type: string; id: string; password: boolean }>;
      servers: Record<string, { type: string; env: Record<string, string> }>;
    };
    expect(config.inputs).toEqual([
      { type: 'promptString', id: 'stripe-bearer-auth', description: 'STRIPE_BEARER_AUTH (bearer token)', password: true },
    ]);
    expect(config.servers['stripe-mcp']).toMatchObject({ type: 'stdio', env: { STRIPE_BEARER_AUTH: '${input:stripe-bearer-auth}' } });
    expect(JSON.parse(http ?? '')).toEqual({ servers: { 'stripe-mcp': { type: 'http', url: 'http://127.0.0.1:3000/mcp' } } });
  });

  it('a user name is asked for in plain text, its password as a secret', async () => {
    const spec = openapi(
      { '/me': { get: { operationId: 'me', responses: { 200: { description: 'ok' } } } } },
      { components: { securitySchemes: { basic: { type: 'http', scheme: 'basic' } } }, security: [{ basic: [] }] },
    );
    const { plan } = await planOf(spec);
    const readme = (await emitProject(plan, {})).find((file) => file.path === 'README.md')?.content ?? '';
    const [stdio] = blocksAfter(readme, '**VS Code**');
    const inputs = (JSON.parse(stdio ?? '') as { inputs: Array<{ id: string; password: boolean }> }).inputs;
    expect(inputs.map((input) => [input.id, input.password])).toEqual([
      ['test-basic-username', false],
      ['test-basic-password', true],
    ]);
    // A lone credential is no alternative: nothing in the README or .env.example says "one of".
    expect(readme).not.toContain('Alternative 1');
    expect(readme).not.toContain('accepts any one of');
  });

  it("says nothing of the token's form where the description only shows the Bearer prefix the server adds", async () => {
    const { plan, files } = await stripeShaped();
    expect(plan.api.credentials.find((credential) => credential.kind === 'httpBearer')?.format).toBeUndefined();
    expect(files['.env.example']).not.toContain('The value has the form Bearer');
    expect(files['README.md']).not.toContain('The value has the form Bearer');
  });

  it('the MCP bundle manifest says which fields are alternatives of which', async () => {
    const manifest = JSON.parse((await stripeShaped()).files['manifest.json'] ?? '') as {
      user_config: Record<string, { description: string; required: boolean }>;
    };
    expect(manifest.user_config['stripe_bearer_auth']?.description).toMatch(
      /^Alternative 2 of 2, or fill in STRIPE_BASIC_AUTH_USERNAME and STRIPE_BASIC_AUTH_PASSWORD instead\. /,
    );
    expect(manifest.user_config['stripe_basic_auth_password']?.description).toMatch(
      /^Alternative 1 of 2, or fill in STRIPE_BEARER_AUTH instead\. /,
    );
    for (const field of Object.values(manifest.user_config)) expect(field.required).toBe(false);
  });

  it('a credential the configuration adds is sent with every alternative, so it is no alternative itself', async () => {
    const { model, diagnostics } = await modelOf(await readFile(fixtureSpec('stripe-shaped.yaml'), 'utf8'));
    const added = addCredentials(model, [{ type: 'apiKey', in: 'header', name: 'Stripe-Account', env: 'STRIPE_ACCOUNT' }], diagnostics);
    const plan = planTools(added, withDefaults(), diagnostics);
    const files = Object.fromEntries((await emitProject(plan, {})).map((file) => [file.path, file.content]));
    expect(files['.env.example']).toContain('# The API accepts any one of the 2 alternatives below');
    expect(files['README.md']).toContain('| `STRIPE_ACCOUNT` | stripe\\_account \\(API key\\)');
    expect(files['README.md']).toContain('"STRIPE_ACCOUNT": "…"');
  });
});

describe('what the generated server reports about itself', () => {
  it('is semver, whatever info.version holds; the description’s own version stays in src/api.ts and the README', async () => {
    expect(serverVersion('1.2.1')).toBe('1.2.1');
    expect(serverVersion('2.0.0-beta.1')).toBe('2.0.0-beta.1');
    expect(serverVersion('1.0')).toBe('1.0.0');
    expect(serverVersion('v2')).toBe('2.0.0');
    expect(serverVersion('2024-01-05')).toBe('2024.1.5');
    expect(serverVersion('2022-11-28T00:00:00Z')).toBe('2022.11.28');
    expect(serverVersion('Wed Oct 15 2025 13:53:19 GMT+0000 (Coordinated Universal Time)')).toBe('2025.10.15');
    expect(serverVersion('01.2.3')).toBe('1.2.3');
    expect(serverVersion('latest')).toBe('0.1.0');
    const { files } = await stripeShaped();
    expect(files['src/api.ts']).toContain("version: '2025.10.15',");
    expect(files['src/api.ts']).toContain('// Version 2025.10.15, from the description\'s "Wed Oct 15 2025 13:53:19');
    expect(JSON.parse(files['package.json'] ?? '').version).toBe('2025.10.15');
    expect(JSON.parse(files['manifest.json'] ?? '').version).toBe('2025.10.15');
    expect(files['README.md']).toContain('(API version Wed Oct 15 2025 13:53:19 GMT\\+0000');
  });
});

describe('environment variable names', () => {
  it('spell OAuth, OpenAPI, OpenID and GitHub as one word', async () => {
    expect(envCase('OAuth')).toBe('OAUTH');
    expect(envCase('ZoomOAuth')).toBe('ZOOM_OAUTH');
    expect(envCase('OAuth2')).toBe('OAUTH2');
    expect(envCase('OpenAPI key')).toBe('OPENAPI_KEY');
    expect(envCase('OpenIDConnect')).toBe('OPENID_CONNECT');
    expect(envCase('GitHubApp')).toBe('GITHUB_APP');
    expect(envCase('HTTPServer')).toBe('HTTP_SERVER');
    expect(envCase('bearerAuth')).toBe('BEARER_AUTH');
    const spec = openapi(
      { '/meetings': { get: { operationId: 'listMeetings', responses: { 200: { description: 'ok' } } } } },
      {
        info: { title: 'Zoom API', version: '2' },
        components: {
          securitySchemes: {
            OAuth: {
              type: 'oauth2',
              flows: {
                authorizationCode: {
                  authorizationUrl: 'https://zoom.us/oauth/authorize',
                  tokenUrl: 'https://zoom.us/oauth/token',
                  scopes: {},
                },
              },
            },
          },
        },
        security: [{ OAuth: [] }],
      },
    );
    const { plan } = await planOf(spec);
    expect(plan.api.credentials.map((credential) => credential.env)).toEqual([['ZOOM_OAUTH_ACCESS_TOKEN']]);
  });
});
