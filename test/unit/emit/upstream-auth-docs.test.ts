import { describe, expect, it } from 'vitest';
import { emitProject } from '../../../src/emit/emit-project.js';
import { readTemplate } from '../../../src/emit/templates.js';
import { openapi, planOf } from '../../helpers/inline.js';

const ok = { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };
const signIn = {
  components: {
    securitySchemes: {
      users: {
        type: 'oauth2',
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://auth.example.com/authorize',
            tokenUrl: 'https://auth.example.com/token',
            scopes: { 'notes:read': 'Read notes', 'notes:write': 'Write notes', admin: 'Everything' },
          },
        },
      },
    },
  },
};

describe('the per-user upstream modes in a generated project', () => {
  it('carry the description’s sign-in into api.ts, and document every variable the runtime reads', async () => {
    const { plan } = await planOf(
      openapi({ '/notes': { get: { operationId: 'listNotes', security: [{ users: ['notes:read'] }], responses: ok } } }, signIn),
    );
    const files = await emitProject(plan);
    const text = (path: string) => files.find((file) => file.path === path)?.content ?? '';
    expect(text('src/api.ts')).toContain(
      "userAuth: {\n    scheme: 'users',\n    authorizationUrl: 'https://auth.example.com/authorize',\n    tokenUrl: 'https://auth.example.com/token',\n    scopes: ['notes:read'],\n  },",
    );
    const runtime = readTemplate('runtime/config/upstream-auth.ts');
    const variables = [
      ...new Set([...runtime.matchAll(/'((?:UPSTREAM|OAUTH)_[A-Z_]+|PUBLIC_URL|STORE_URL)'/g)].map((match) => match[1] ?? '')),
    ];
    expect(variables.length).toBeGreaterThan(10);
    for (const variable of variables) {
      expect(text('.env.example'), variable).toContain(`# TEST_${variable}=`);
      expect(text('README.md'), variable).toMatch(new RegExp(`TEST_${variable}|\`_${variable.replace(/^UPSTREAM_/, '')}\``));
    }
    // The defaults come from the description: the flow's URLs, and only the scopes the operations need.
    expect(text('.env.example')).toContain('default https://auth.example.com/token');
    expect(text('.env.example')).toContain('(default: notes:read)');
    expect(text('README.md')).toContain("the description's `users` scheme");
    // The modes come with their libraries and modules.
    const manifest = JSON.parse(text('package.json')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies)).toEqual(expect.arrayContaining(['jose', 'oauth4webapi', 'cookie', '@redis/client']));
    for (const module of ['sealed', 'oauth-server', 'oauth-upstream', 'store', 'token-exchange'])
      expect(text(`src/runtime/sign-in/${module}.ts`), module).not.toBe('');
    expect(text('src/runtime/serving/user-access.ts')).toContain('createOAuthServer');
  });

  it('are left out, with their libraries, where no scheme could carry a user’s token, and the README says why', async () => {
    const { plan } = await planOf(
      openapi(
        { '/notes': { get: { operationId: 'listNotes', responses: ok } } },
        { components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } }, security: [{ key: [] }] },
      ),
    );
    const files = await emitProject(plan);
    const paths = files.map((file) => file.path);
    const text = (path: string) => files.find((file) => file.path === path)?.content ?? '';
    const manifest = JSON.parse(text('package.json')) as { dependencies: Record<string, string> };
    for (const library of ['jose', 'oauth4webapi', 'cookie', '@redis/client']) expect(manifest.dependencies).not.toHaveProperty(library);
    for (const module of [
      'sealed',
      'oauth-server',
      'oauth-upstream',
      'oauth-clients',
      'store',
      'token-exchange',
      'upstream-token-endpoint',
    ])
      expect(paths).not.toContain(`src/runtime/sign-in/${module}.ts`);
    expect(text('src/runtime/serving/user-access.ts')).toContain('generated without the per-user modes');
    expect(text('README.md')).toContain('The per-user modes (`TEST_UPSTREAM_AUTH=oauth` or `token-exchange`');
    expect(text('README.md')).toContain('--credential bearer=VARIABLE');
    expect(text('.env.example')).not.toContain('UPSTREAM_AUTH');
    // The public URL still names the audience of introspected tokens.
    expect(text('.env.example')).toContain('# TEST_PUBLIC_URL=');
  });
});
