import { afterEach, describe, expect, it } from 'vitest';
import { baseUrl, buildRequest } from '../../../templates/runtime/requests/request.js';
import type { Settings } from '../../../templates/runtime/config/settings.js';
import type { ActionRoute, ArgumentRoute } from '../../../templates/runtime/core/types.js';

const settings: Settings = {
  timeoutMs: 1000,
  totalTimeoutMs: 2000,
  retries: 0,
  maxResponseBytes: 1024,
  maxResultTokens: 1000,
  rateLimitPerMinute: 0,
  maxConcurrentCalls: 1,
  maxRequestBytes: 1024 * 1024,
  logLevel: 'error',
  confirmation: { policy: 'off', tools: new Map(), keys: { keys: [], source: 'process' } },
  handleKeys: { keys: [], source: 'process' },
};
const withBase = (url: string): Settings => ({ ...settings, baseUrl: url });

function route(partial: Partial<ActionRoute> & Pick<ActionRoute, 'path' | 'arguments'>): ActionRoute {
  return { operationId: 'op', method: 'get', required: [], security: [], accepts: ['application/json'], ...partial };
}

const query = (arg: string, name = arg, extra: Partial<Extract<ArgumentRoute, { style: unknown }>> = {}): ArgumentRoute => ({
  arg,
  in: 'query',
  name,
  style: 'form',
  explode: true,
  ...extra,
});
const pathArg = (arg: string, name = arg): ArgumentRoute => ({ arg, in: 'path', name, style: 'simple', explode: false });

describe('URLs', () => {
  it('joins the base URL path and the route path, encoding each path value as one segment', async () => {
    const request = await buildRequest(
      route({ path: '/repos/{owner}/{repo}/contents/{path}', arguments: [pathArg('owner'), pathArg('repo'), pathArg('path')] }),
      { owner: 'a b', repo: 'x/y', path: 'README.md' },
      withBase('https://api.example.com/v3/'),
      {},
    );
    expect(request.url.href).toBe('https://api.example.com/v3/repos/a%20b/x%2Fy/contents/README.md');
  });

  it('refuses dot segments and values that would leave the base URL', async () => {
    const files = route({ path: '/files/{id}', arguments: [pathArg('id')] });
    await expect(buildRequest(files, { id: '..' }, withBase('https://api.example.com/v1'), {})).rejects.toThrow(/dot segments/);
    await expect(buildRequest(files, { id: '' }, withBase('https://api.example.com/v1'), {})).rejects.toThrow(/required/);
  });

  it('keeps a custom-method suffix after a path value (/domains:batchDelete, /levels:append)', async () => {
    const pihole = await buildRequest(
      route({ method: 'post', path: '/domains:batchDelete', arguments: [] }),
      {},
      withBase('http://pi.hole/api'),
      {},
    );
    expect(pihole.url.href).toBe('http://pi.hole/api/domains:batchDelete');
    const box = await buildRequest(
      route({
        method: 'post',
        path: '/metadata_taxonomies/{namespace}/{taxonomy_key}/levels:append',
        arguments: [pathArg('namespace'), pathArg('taxonomy_key')],
      }),
      { namespace: 'enterprise_1', taxonomy_key: 'geo' },
      withBase('https://api.box.com/2.0'),
      {},
    );
    expect(box.url.pathname).toBe('/2.0/metadata_taxonomies/enterprise_1/geo/levels:append');
  });

  it('sends the literal query of a path key (/responses?beta=true) before the arguments', async () => {
    const request = await buildRequest(
      route({
        path: '/responses/{response_id}',
        fixedQuery: [['beta', 'true']],
        arguments: [pathArg('response_id'), query('include', 'include[]')],
      }),
      { response_id: 'resp_1', include: ['file_search_call.results', 'x y'] },
      withBase('https://api.openai.com/v1'),
      {},
    );
    expect(request.url.href).toBe(
      'https://api.openai.com/v1/responses/resp_1?beta=true&include%5B%5D=file_search_call.results&include%5B%5D=x%20y',
    );
  });
});

describe('servers', () => {
  afterEach(() => {
    delete process.env['FIXTURE_SERVER_HOST'];
    delete process.env['FIXTURE_SERVER_SCHEME'];
  });

  it('fills server variables from their defaults, or from FIXTURE_SERVER_<NAME> (pihole, uspto)', () => {
    const plain = route({ path: '/x', arguments: [] });
    expect(baseUrl(plain, settings, {}).href).toBe('http://pi.hole/api');
    expect(baseUrl(plain, settings, { FIXTURE_SERVER_HOST: '192.0.2.10', FIXTURE_SERVER_SCHEME: 'https' }).href).toBe(
      'https://192.0.2.10:80/api',
    );
    expect(() => baseUrl(plain, settings, { FIXTURE_SERVER_SCHEME: 'ftp' })).toThrow(/must be one of http, https/);
  });

  it("uses a path's or an operation's own servers (twilio, box uploads) before the API's", async () => {
    const upload = route({ method: 'post', path: '/files/content', arguments: [], servers: [{ url: 'https://upload.box.com/api/2.0' }] });
    expect((await buildRequest(upload, {}, settings, {})).url.href).toBe('https://upload.box.com/api/2.0/files/content');
  });

  it('lets the base URL override every server', async () => {
    const upload = route({ path: '/files/content', arguments: [], servers: [{ url: 'https://upload.box.com/api/2.0' }] });
    expect((await buildRequest(upload, {}, withBase('http://127.0.0.1:9/mock'), {})).url.href).toBe(
      'http://127.0.0.1:9/mock/files/content',
    );
  });
});

describe('parameters outside the path', () => {
  it('puts header and cookie parameters where the description says, JSON ones as JSON', async () => {
    const request = await buildRequest(
      route({
        path: '/x',
        arguments: [
          { arg: 'tenant', in: 'header', name: 'xero-tenant-id', style: 'simple', explode: false },
          { arg: 'ids', in: 'header', name: 'X-Ids', style: 'simple', explode: false },
          { arg: 'session', in: 'cookie', name: 'session_hint', style: 'form', explode: true },
          { arg: 'filter', in: 'query', name: 'filter', style: 'form', explode: true, json: true },
        ],
      }),
      { tenant: 't-1', ids: [1, 2], session: 'a b', filter: { a: 1 } },
      withBase('https://api.example.com'),
      {},
    );
    expect(request.headers.get('xero-tenant-id')).toBe('t-1');
    expect(request.headers.get('x-ids')).toBe('1,2');
    expect(request.headers.get('cookie')).toBe('session_hint=a%20b');
    expect(request.url.search).toBe('?filter=%7B%22a%22%3A1%7D');
  });

  it('refuses header values that would inject a header', async () => {
    const request = buildRequest(
      route({ path: '/x', arguments: [{ arg: 'h', in: 'header', name: 'X-H', style: 'simple', explode: false }] }),
      { h: 'a\r\nX-Evil: 1' },
      withBase('https://api.example.com'),
      {},
    );
    await expect(request).rejects.toThrow(/line break/);
  });
});

describe('exploded object arguments', () => {
  const exploded = (location: 'query' | 'cookie', arg = 'filter'): ArgumentRoute => ({
    arg,
    in: location,
    name: arg,
    style: 'form',
    explode: true,
  });
  const other: ArgumentRoute = { arg: 'page', in: 'query', name: 'page', style: 'form', explode: true };

  it('cannot name a credential or another parameter sent in the same place', async () => {
    // The fixture API sends credentials as the `sid` query parameter and the `sid` cookie.
    for (const [location, keys] of [
      ['query', { sid: 'attacker-session' }],
      ['query', { PAGE: '2' }],
      ['cookie', { sid: 'attacker-session' }],
    ] as const) {
      const request = buildRequest(
        route({ path: '/x', arguments: [exploded(location), other] }),
        { filter: keys },
        withBase('https://api.example.com'),
        {},
      );
      await expect(request, `${location} ${JSON.stringify(keys)}`).rejects.toThrow(/cannot hold the key .* Remove the key/);
    }
  });

  it('have their keys encoded, in the query and in cookies alike', async () => {
    const request = await buildRequest(
      route({ path: '/x', arguments: [exploded('cookie'), exploded('query', 'q')] }),
      { filter: { 'a=b; evil': 'c d' }, q: { 'x&y=z': '1' } },
      withBase('https://api.example.com'),
      {},
    );
    expect(request.headers.get('cookie')).toBe('a%3Db%3B%20evil=c%20d');
    expect(request.url.search).toBe('?x%26y%3Dz=1');
  });
});

describe('credentials', () => {
  const secured = (scheme: string) =>
    route({
      path: '/x',
      arguments: [query('q', 'q', { allowReserved: true }), query('ids', 'ids', { style: 'pipeDelimited', explode: false })],
      security: [[scheme]],
    });

  it('adds an API key in the query without re-encoding the other parameters', async () => {
    const request = await buildRequest(secured('queryKey'), { q: 'a/b c', ids: [1, 2] }, withBase('http://pi.hole/api'), {
      FIXTURE_QUERY_KEY: 'k+y/1',
    });
    expect(request.url.search).toBe('?q=a/b%20c&ids=1%7C2&sid=k%2By%2F1');
  });

  it('adds header, cookie, bearer and basic credentials', async () => {
    const env = {
      FIXTURE_HEADER_KEY: 'h-1',
      FIXTURE_COOKIE_KEY: 'c 1',
      FIXTURE_BEARER: 'tok',
      FIXTURE_BASIC_USERNAME: 'user',
      FIXTURE_BASIC_PASSWORD: 'pa:ss',
    };
    const base = withBase('http://pi.hole/api');
    expect((await buildRequest(secured('headerKey'), {}, base, env)).headers.get('x-ftl-sid')).toBe('h-1');
    expect((await buildRequest(secured('cookieKey'), {}, base, env)).headers.get('cookie')).toBe('sid=c%201');
    expect((await buildRequest(secured('bearer'), {}, base, env)).headers.get('authorization')).toBe('Bearer tok');
    expect((await buildRequest(secured('basic'), {}, base, env)).headers.get('authorization')).toBe(
      `Basic ${Buffer.from('user:pa:ss').toString('base64')}`,
    );
  });

  it('uses the first security alternative that is fully configured, and none when none is', async () => {
    const either = route({ path: '/x', arguments: [], security: [['headerKey', 'bearer'], ['cookieKey']] });
    const base = withBase('http://pi.hole/api');
    const onlyCookie = await buildRequest(either, {}, base, { FIXTURE_COOKIE_KEY: 'c', FIXTURE_HEADER_KEY: 'h' });
    expect(onlyCookie.headers.get('cookie')).toBe('sid=c');
    expect(onlyCookie.headers.get('x-ftl-sid')).toBeNull();
    const none = await buildRequest(either, {}, base, {});
    expect(none.headers.get('cookie')).toBeNull();
    expect(none.headers.get('authorization')).toBeNull();
  });
});
