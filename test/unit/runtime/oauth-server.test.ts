import { randomBytes } from 'node:crypto';
import { compactDecrypt, CompactEncrypt } from 'jose';
import { describe, expect, it } from 'vitest';
import { basicCredentials, readCookie, setCookie } from '../../../templates/runtime/sign-in/oauth-http.js';
import { consentPage, escapeHtml } from '../../../templates/runtime/sign-in/oauth-pages.js';
import { equalText, Sealer } from '../../../templates/runtime/sign-in/sealed.js';
import { parseSealingKeys } from '../../../templates/runtime/config/sealing-keys.js';
import { loadSettings } from '../../../templates/runtime/config/settings.js';

const key = () => new Uint8Array(randomBytes(32));

describe('sealed tokens, made by jose', () => {
  it('are standard JWE (dir, A256GCM) that jose itself opens with the derived key, and refuse another audience', async () => {
    const sealer = new Sealer([key()]);
    const token = await sealer.seal('access', { aud: 'https://a.example/mcp', sub: 'alice' }, 60);
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as Record<string, unknown>;
    expect(header).toMatchObject({ alg: 'dir', enc: 'A256GCM', typ: 'openapi-to-mcp-access+jwe' });
    expect(await sealer.open('access', token, { audience: 'https://a.example/mcp' })).toMatchObject({ ok: true });
    expect(await sealer.open('access', token, { audience: 'https://a.example:8443/mcp' })).toEqual({ ok: false, reason: 'audience' });
  });

  it('refuse a token whose header names no kind, or the right key with another algorithm', async () => {
    const secret = key();
    const sealer = new Sealer([secret]);
    const sealed = await sealer.seal('code', { n: 1 }, 60);
    const kid = (JSON.parse(Buffer.from(sealed.split('.')[0] ?? '', 'base64url').toString()) as { kid: string }).kid;
    // A token sealed directly under the configured key (not the derived one) with a correct-looking header.
    const raw = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ n: 1, iat: 1, exp: 9_999_999_999 })))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid, typ: 'openapi-to-mcp-code+jwe' })
      .encrypt(secret);
    expect(await sealer.open('code', raw)).toEqual({ ok: false, reason: 'invalid' });
    await expect(compactDecrypt(sealed, secret)).rejects.toThrow();
  });

  it('compare secrets in constant time whatever their lengths', () => {
    expect(equalText('abc', 'abc')).toBe(true);
    expect(equalText('abc', 'abd')).toBe(false);
    expect(equalText('abc', 'abcd')).toBe(false);
    expect(equalText('', '')).toBe(true);
  });
});

describe('sealing keys', () => {
  it('refuse keys that could be guessed: one repeated byte, few distinct bytes, printable text, duplicates', () => {
    const encode = (bytes: Buffer) => bytes.toString('base64');
    expect(() => parseSealingKeys(encode(Buffer.alloc(32)), 'K')).toThrow(/K: key 1 repeats one byte value, so it could be guessed/);
    expect(() => parseSealingKeys(encode(Buffer.alloc(32, 0xab)), 'K')).toThrow(/repeats one byte value/);
    expect(() => parseSealingKeys(encode(Buffer.from('0123456789'.repeat(4).slice(0, 32))), 'K')).toThrow(/too few distinct byte values/);
    expect(() => parseSealingKeys(encode(Buffer.from('The quick brown fox jumps over!!')), 'K')).toThrow(
      /printable text, not random bytes/,
    );
    const good = encode(randomBytes(32));
    expect(() => parseSealingKeys(`${good},${good}`, 'K')).toThrow(/K lists the same key twice/);
    expect(() => parseSealingKeys(encode(randomBytes(31)), 'K')).toThrow(/not 32 bytes/);
    expect(parseSealingKeys(`${good},${encode(randomBytes(32))}`, 'K')).toHaveLength(2);
  });
});

describe('client credentials in a Basic header', () => {
  const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

  it('are read form-decoded, as RFC 6749 §2.3.1 sends them', () => {
    expect(basicCredentials(basic('my%20client:s%3Acret+x'))).toEqual({ id: 'my client', secret: 's:cret x' });
    expect(basicCredentials('basic ' + Buffer.from('a:b').toString('base64'))).toEqual({ id: 'a', secret: 'b' });
  });

  it('refuse anything else: non-canonical base64, a second colon, bad escapes, controls, invalid UTF-8, huge values', () => {
    expect(basicCredentials('Basic YTpi')).toEqual({ id: 'a', secret: 'b' });
    const refused = [
      null,
      'Bearer abc',
      'Basic YTpi=',
      'Basic YTpiYR==', // "a:ba" only by ignoring stray bits: not canonical
      'Basic YT pi',
      basic('a:b:c'),
      basic('no-colon'),
      basic(':secret'),
      basic('a%zz:b'),
      basic('a:b%0A'),
      `Basic ${Buffer.from([0x61, 0x3a, 0xff]).toString('base64')}`,
      basic(`${'a'.repeat(5000)}:b`),
      'Basic  YTpi',
    ];
    for (const header of refused) expect(basicCredentials(header), String(header)).toBeUndefined();
  });
});

describe('cookies of the sign-in pages', () => {
  it('are written and read by the cookie package, HttpOnly and Lax, Secure on https', () => {
    expect(setCookie('__Host-mcp-flow-x', 'a.b-c_d', 600, true)).toBe(
      '__Host-mcp-flow-x=a.b-c_d; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=Lax',
    );
    expect(setCookie('mcp-flow-x', '', 0, false)).toBe('mcp-flow-x=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax');
    const request = new Request('http://x/', { headers: { cookie: 'other=1; mcp-flow-x=a.b-c_d;  =bad; mcp-flow-x=second' } });
    expect(readCookie(request, 'mcp-flow-x')).toBe('a.b-c_d');
    expect(readCookie(request, 'missing')).toBeUndefined();
  });
});

describe('the consent page', () => {
  const view = {
    apiTitle: 'Tic Tac Toe',
    clientName: 'Helper',
    redirectUri: 'https://good.example/cb',
    signInHost: 'auth.example.com',
    scopes: [],
    request: 'sealed',
  };

  it('shows the host a redirect URI resolves to, not the text it was typed as', async () => {
    const html = await consentPage({ ...view, redirectUri: 'https://evil.example\\@good.example/cb' }, {}).text();
    expect(html).toContain('<strong>evil.example</strong> (<code>https://evil.example/@good.example/cb</code>)');
    const idn = await consentPage({ ...view, redirectUri: 'https://аpple.example/cb' }, {}).text();
    expect(idn).toContain('<strong>xn--pple-43d.example</strong>');
    const native = await consentPage({ ...view, redirectUri: 'com.example.app:/callback' }, {}).text();
    expect(native).toContain('the application that handles com.example.app: addresses');
  });

  it('shows bidirectional, invisible and control characters as their code points', () => {
    expect(escapeHtml('Helper\u202Etxt.exe')).toBe('Helper[U+202E]txt.exe');
    expect(escapeHtml('a\u200Bb\u2066c\u0085d\u0007e\uFEFF')).toBe('a[U+200B]b[U+2066]c[U+0085]d[U+0007]e[U+FEFF]');
    expect(escapeHtml('<b x="1">&\'')).toBe('&lt;b x=&quot;1&quot;&gt;&amp;&#39;');
    expect(escapeHtml('Ünïcödé 日本')).toBe('Ünïcödé 日本');
  });
});

describe('the audience of introspected tokens', () => {
  const http = (env: Record<string, string>) => loadSettings({ http: true, help: false, version: false }, env);
  const introspection = {
    FIXTURE_MCP_AUTH_INTROSPECTION_URL: 'https://idp.example.com/introspect',
    FIXTURE_MCP_AUTH_CLIENT_ID: 'mcp',
  };

  it('comes from configuration, never from a Host header: introspection without a public URL does not start', () => {
    expect(() => http(introspection)).toThrow(/set FIXTURE_PUBLIC_URL to the origin clients reach it at/);
    expect(http({ ...introspection, FIXTURE_PUBLIC_URL: 'https://mcp.example.com' }).http?.auth?.resource).toBe(
      'https://mcp.example.com/mcp',
    );
    expect(
      http({
        ...introspection,
        FIXTURE_PUBLIC_URL: 'https://mcp.example.com',
        FIXTURE_MCP_AUTH_RESOURCE: 'https://mcp.example.com:8443/mcp',
      }).http?.auth?.resource,
    ).toBe('https://mcp.example.com:8443/mcp');
    // Static tokens name no audience: they need no public URL.
    expect(http({ FIXTURE_MCP_AUTH_TOKENS: 'token-0123456789' }).http?.auth?.resource).toBeUndefined();
  });
});

describe('oauth mode settings', () => {
  const http = (env: Record<string, string>) => loadSettings({ http: true, help: false, version: false }, env);
  const oauth = {
    FIXTURE_UPSTREAM_AUTH: 'oauth',
    FIXTURE_PUBLIC_URL: 'https://mcp.example.com',
    FIXTURE_OAUTH_SEALING_KEYS: randomBytes(32).toString('base64'),
    FIXTURE_UPSTREAM_CLIENT_ID: 'client',
    FIXTURE_UPSTREAM_AUTHORIZATION_URL: 'https://auth.example.com/authorize',
    FIXTURE_UPSTREAM_TOKEN_URL: 'https://auth.example.com/token',
  };

  it('ask for the issuer whenever ID tokens are asked for, and take the endpoints from its metadata', () => {
    expect(() => http({ ...oauth, FIXTURE_UPSTREAM_SCOPES: 'openid' })).toThrow(/asks for openid.*set FIXTURE_UPSTREAM_ISSUER/);
    const discovered = http({
      FIXTURE_UPSTREAM_AUTH: 'oauth',
      FIXTURE_PUBLIC_URL: 'https://mcp.example.com',
      FIXTURE_OAUTH_SEALING_KEYS: oauth.FIXTURE_OAUTH_SEALING_KEYS,
      FIXTURE_UPSTREAM_CLIENT_ID: 'client',
      FIXTURE_UPSTREAM_ISSUER: 'https://auth.example.com',
      FIXTURE_UPSTREAM_SCOPES: 'openid',
    }).upstreamAuth;
    expect(discovered).toMatchObject({ issuer: 'https://auth.example.com' });
    expect(discovered).not.toHaveProperty('tokenUrl');
  });

  it('read the store and the registration limit, refusing what is not a Redis URL or a count', () => {
    expect(http({ ...oauth, FIXTURE_STORE_URL: 'redis://127.0.0.1:6379' }).upstreamAuth).toMatchObject({
      storeUrl: 'redis://127.0.0.1:6379',
      registrationsPerMinute: 30,
      registrationsPerSource: 10,
    });
    expect(http({ ...oauth, FIXTURE_OAUTH_REGISTRATIONS_PER_SOURCE: '3' }).upstreamAuth).toMatchObject({ registrationsPerSource: 3 });
    expect(() => http({ ...oauth, FIXTURE_STORE_URL: 'http://127.0.0.1:6379' })).toThrow(/FIXTURE_STORE_URL must be a redis:\/\//);
    expect(() => http({ ...oauth, FIXTURE_OAUTH_REGISTRATIONS_PER_MINUTE: '0' })).toThrow(
      /FIXTURE_OAUTH_REGISTRATIONS_PER_MINUTE must be a whole number, at least 1/,
    );
  });
});
