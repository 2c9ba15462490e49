import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { applyCredentials } from '../../../templates/runtime/credentials/auth.js';
import type { Caller } from '../../../templates/runtime/credentials/callers.js';
import { SubjectRateLimiters } from '../../../templates/runtime/credentials/callers.js';
import { consentPage } from '../../../templates/runtime/sign-in/oauth-pages.js';
import { redactSecrets, registerCallerSecret, scrubBytes } from '../../../templates/runtime/core/redact.js';
import { Sealer } from '../../../templates/runtime/sign-in/sealed.js';
import { parseSealingKeys } from '../../../templates/runtime/config/sealing-keys.js';
import { loadSettings } from '../../../templates/runtime/config/settings.js';
import type { ActionRoute } from '../../../templates/runtime/core/types.js';

const key = () => new Uint8Array(randomBytes(32));

describe('sealed tokens', () => {
  it('open with the keys that sealed them, for the kind they were sealed as, until they expire', async () => {
    const sealer = new Sealer([key()]);
    const token = await sealer.seal('access', { sub: 'alice', at: 'upstream-token' }, 60);
    expect(token.split('.')).toHaveLength(5);
    expect(token).not.toContain('upstream-token');
    const opened = await sealer.open<{ sub: string; at: string }>('access', token);
    expect(opened).toMatchObject({ ok: true, payload: { sub: 'alice', at: 'upstream-token' } });
    expect(await sealer.open('refresh', token)).toEqual({ ok: false, reason: 'invalid' });
    const expired = await sealer.seal('code', { n: 1 }, -1);
    expect(await sealer.open('code', expired)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuse any changed byte, another deployment’s keys and nonsense', async () => {
    const sealer = new Sealer([key()]);
    const token = await sealer.seal('access', { sub: 'alice' }, 60);
    const parts = token.split('.');
    for (const index of [0, 2, 3, 4]) {
      const part = parts[index] ?? '';
      const changed = [...parts];
      changed[index] = `${part.slice(0, 5)}${part[5] === 'A' ? 'B' : 'A'}${part.slice(6)}`;
      expect(await sealer.open('access', changed.join('.'))).toEqual({ ok: false, reason: 'invalid' });
    }
    expect(await new Sealer([key()]).open('access', token)).toEqual({ ok: false, reason: 'invalid' });
    for (const nonsense of ['', 'a.b.c', '....', 'x'.repeat(20_000)])
      expect(await sealer.open('access', nonsense)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('rotate: the newest key seals, every listed key still opens', async () => {
    const [older, newer] = [key(), key()];
    const before = await new Sealer([older]).seal('refresh', { sub: 'bob' }, 60);
    const rotated = new Sealer([newer, older]);
    expect(await rotated.open('refresh', before)).toMatchObject({ ok: true });
    const after = await rotated.seal('refresh', { sub: 'bob' }, 60);
    expect(await new Sealer([newer]).open('refresh', after)).toMatchObject({ ok: true });
    expect(await new Sealer([older]).open('refresh', after)).toMatchObject({ ok: false });
    const secret = await new Sealer([older]).digest('client-secret', 'client-1');
    expect(await rotated.verifyDigest('client-secret', 'client-1', secret)).toBe(true);
    expect(await rotated.verifyDigest('client-secret', 'client-2', secret)).toBe(false);
  });

  it('take keys of 32 bytes in base64 or base64url, and say how to make one otherwise', () => {
    const keys = parseSealingKeys(`${randomBytes(32).toString('base64')}, ${randomBytes(32).toString('base64url')}`, 'X_KEYS');
    expect(keys.map((item) => item.length)).toEqual([32, 32]);
    expect(() => parseSealingKeys(randomBytes(16).toString('base64'), 'X_KEYS')).toThrow(/key 1 is not 32 bytes.*openssl rand -base64 32/);
    expect(() => parseSealingKeys(' , ', 'X_KEYS')).toThrow(/X_KEYS is empty/);
  });
});

describe('<PREFIX>_UPSTREAM_AUTH settings', () => {
  const sealing = randomBytes(32).toString('base64');
  const oauth = {
    FIXTURE_UPSTREAM_AUTH: 'oauth',
    FIXTURE_PUBLIC_URL: 'https://mcp.example.com',
    FIXTURE_OAUTH_SEALING_KEYS: sealing,
    FIXTURE_UPSTREAM_CLIENT_ID: 'client',
    FIXTURE_UPSTREAM_CLIENT_SECRET: 'secret-0123',
    FIXTURE_UPSTREAM_AUTHORIZATION_URL: 'https://auth.example.com/authorize',
    FIXTURE_UPSTREAM_TOKEN_URL: 'https://auth.example.com/token',
  };
  const http = (env: Record<string, string>) => loadSettings({ http: true, help: false, version: false }, env);

  it('leave env mode exactly as it was: no upstream settings, over stdio and HTTP', () => {
    const environments: Array<Record<string, string>> = [{}, { FIXTURE_UPSTREAM_AUTH: 'env', FIXTURE_UPSTREAM_CLIENT_ID: 'ignored' }];
    for (const env of environments) {
      expect('upstreamAuth' in http(env)).toBe(false);
      expect('upstreamAuth' in loadSettings({ http: false, help: false, version: false }, env)).toBe(false);
    }
  });

  it('read the oauth mode, with the client and endpoints beside it', () => {
    const settings = http({ ...oauth, FIXTURE_UPSTREAM_SCOPES: 'openid, board:read', FIXTURE_UPSTREAM_ISSUER: 'https://auth.example.com' });
    expect(settings.upstreamAuth).toMatchObject({
      mode: 'oauth',
      publicUrl: 'https://mcp.example.com',
      issuer: 'https://auth.example.com',
      tokenTtl: 3600,
      client: { clientId: 'client', clientSecret: 'secret-0123', method: 'basic' },
      authorizationUrl: 'https://auth.example.com/authorize',
      scopes: ['openid', 'board:read'],
    });
  });

  it('refuse what would half work, naming the variable', () => {
    const refusals: Array<[Record<string, string>, RegExp]> = [
      [{ ...oauth, FIXTURE_UPSTREAM_AUTH: 'sso' }, /FIXTURE_UPSTREAM_AUTH must be env, oauth or token-exchange, not "sso"/],
      [{ ...oauth, FIXTURE_PUBLIC_URL: '' }, /needs FIXTURE_PUBLIC_URL/],
      [{ ...oauth, FIXTURE_PUBLIC_URL: 'http://mcp.example.com' }, /FIXTURE_PUBLIC_URL must use https/],
      [{ ...oauth, FIXTURE_PUBLIC_URL: 'https://mcp.example.com/team' }, /must be the server's origin only/],
      [{ ...oauth, FIXTURE_OAUTH_SEALING_KEYS: 'short' }, /FIXTURE_OAUTH_SEALING_KEYS: key 1 is not 32 bytes/],
      [{ ...oauth, FIXTURE_UPSTREAM_TOKEN_URL: 'http://auth.example.com/token' }, /FIXTURE_UPSTREAM_TOKEN_URL must use https/],
      [{ ...oauth, FIXTURE_UPSTREAM_CLIENT_ID: '' }, /needs FIXTURE_UPSTREAM_CLIENT_ID/],
      [{ ...oauth, FIXTURE_MCP_AUTH_TOKENS: 'token-0123456789' }, /issues this server's own tokens: unset FIXTURE_MCP_AUTH_TOKENS/],
      [{ ...oauth, FIXTURE_UPSTREAM_CLIENT_AUTH: 'jwt' }, /FIXTURE_UPSTREAM_CLIENT_AUTH must be basic or post/],
      [
        { FIXTURE_UPSTREAM_AUTH: 'token-exchange', FIXTURE_UPSTREAM_CLIENT_ID: 'c', FIXTURE_UPSTREAM_AUDIENCE: 'api' },
        /needs to know who calls: set FIXTURE_MCP_AUTH_INTROSPECTION_URL/,
      ],
      [
        {
          FIXTURE_UPSTREAM_AUTH: 'token-exchange',
          FIXTURE_UPSTREAM_CLIENT_ID: 'c',
          FIXTURE_MCP_AUTH_INTROSPECTION_URL: 'https://idp.example.com/introspect',
          FIXTURE_PUBLIC_URL: 'https://mcp.example.com',
          FIXTURE_UPSTREAM_TOKEN_URL: 'https://idp.example.com/token',
        },
        /set FIXTURE_UPSTREAM_AUDIENCE or FIXTURE_UPSTREAM_RESOURCE/,
      ],
      [
        {
          FIXTURE_UPSTREAM_AUTH: 'token-exchange',
          FIXTURE_UPSTREAM_CLIENT_ID: 'c',
          FIXTURE_UPSTREAM_AUDIENCE: 'api',
          FIXTURE_MCP_AUTH_INTROSPECTION_URL: 'https://idp.example.com/introspect',
          FIXTURE_PUBLIC_URL: 'https://mcp.example.com',
          FIXTURE_UPSTREAM_TOKEN_URL: 'https://idp.example.com/token',
          FIXTURE_STORE_URL: 'redis://127.0.0.1:6379',
        },
        /FIXTURE_STORE_URL is used only by FIXTURE_UPSTREAM_AUTH=oauth.*unset it/,
      ],
    ];
    for (const [env, message] of refusals) expect(() => http(env), JSON.stringify(env)).toThrow(message);
    expect(() => loadSettings({ http: false, help: false, version: false }, oauth)).toThrow(/needs HTTP: start with --http/);
  });
});

describe('credentials of a signed-in user', () => {
  const caller = (token: string): Caller => ({
    subject: 'alice',
    upstreamToken: async () => token,
    refused: () => undefined,
    signInAgain: 'Sign in again.',
  });
  const route = (security: string[][]): ActionRoute => ({
    operationId: 'op',
    method: 'get',
    path: '/x',
    arguments: [],
    required: [],
    security,
    accepts: [],
  });
  const apply = async (security: string[][], env: Record<string, string>, user?: Caller) => {
    const headers = new Headers();
    const url = new URL('https://api.example.com/x');
    await applyCredentials(route(security), url, headers, [], env, user);
    return { authorization: headers.get('authorization'), key: headers.get('x-ftl-sid'), url: url.href };
  };
  const env = { FIXTURE_BEARER: 'deployment-token-0123', FIXTURE_HEADER_KEY: 'app-key-0123' };

  it('stand for the user scheme, preferred over alternatives the environment could fill', async () => {
    // The fixture's user scheme is `bearer`; the environment's bearer token is never used for it.
    expect(await apply([['headerKey'], ['bearer']], env, caller('alice-token-0123'))).toMatchObject({
      authorization: 'Bearer alice-token-0123',
      key: null,
    });
    expect(await apply([['bearer']], {}, caller('alice-token-0123'))).toMatchObject({ authorization: 'Bearer alice-token-0123' });
    // An app key that goes along with the user's token still comes from the environment.
    expect(await apply([['bearer', 'headerKey']], env, caller('alice-token-0123'))).toMatchObject({
      authorization: 'Bearer alice-token-0123',
      key: 'app-key-0123',
    });
    // Operations only the deployment's credentials authorize are never sent with them for a user (per-user-credentials.test.ts).
    await expect(apply([['headerKey']], env, caller('alice-token-0123'))).rejects.toThrow(/does not use them for a signed-in user/);
  });

  it('change nothing without a caller (env mode)', async () => {
    expect(await apply([['headerKey'], ['bearer']], env)).toMatchObject({ authorization: null, key: 'app-key-0123' });
    expect(await apply([['bearer']], env)).toMatchObject({ authorization: 'Bearer deployment-token-0123' });
  });

  it('are scrubbed from what the API answers, for the most recently used tokens', () => {
    registerCallerSecret('carol-token-9876543');
    expect(Buffer.from(scrubBytes(Buffer.from('{"echo":"Bearer carol-token-9876543"}'))).toString()).toBe('{"echo":"Bearer [redacted]"}');
    expect(redactSecrets('carol-token-9876543')).toBe('[redacted]');
    for (let index = 0; index < 600; index++) registerCallerSecret(`other-token-${index}-000000`);
    expect(redactSecrets('carol-token-9876543')).toBe('carol-token-9876543');
    expect(redactSecrets('other-token-599-000000')).toBe('[redacted]');
  });
});

describe('per-user limits', () => {
  it('count each user on their own', () => {
    const limiters = new SubjectRateLimiters(2);
    expect([limiters.of('alice').take(), limiters.of('alice').take()]).toEqual([undefined, undefined]);
    expect(limiters.of('alice').take()).toBeGreaterThan(0);
    expect(limiters.of('bob').take()).toBeUndefined();
  });
});

describe('the consent page', () => {
  it('escapes what the client claims about itself and cannot be framed', async () => {
    const page = consentPage(
      {
        apiTitle: 'Tic Tac Toe',
        clientName: '<script>alert(1)</script>"',
        redirectUri: 'http://127.0.0.1:9/cb?a=1&b=<2>',
        signInHost: 'auth.example.com',
        scopes: ['board:read'],
        request: 'sealed"value',
      },
      {},
    );
    const html = await page.text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;');
    expect(html).toContain('value="sealed&quot;value"');
    expect(html).toContain('cb?a=1&amp;b=%3C2%3E');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
