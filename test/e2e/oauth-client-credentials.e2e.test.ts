import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSpec } from '../helpers/paths.js';
import { buildProject, connectStdio, generateProject, linkDependencies, tempDir, textOf } from '../helpers/project.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/** OAuth 2.0 client credentials (tic-tac-toe's app2AppOauth): the server gets a token, caches it, sends it upstream. */
describe('OAuth client credentials', () => {
  let upstream: Upstream;
  let client: Client;

  beforeAll(async () => {
    const dir = await tempDir('oauth-e2e');
    await generateProject({ spec: fixtureSpec('oai-tictactoe.yaml'), out: dir });
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
    upstream.reply = (request) =>
      request.path === '/oauth/token'
        ? { body: JSON.stringify({ access_token: 'issued-token-123456', token_type: 'Bearer', expires_in: 3600 }) }
        : { body: JSON.stringify({ winner: '.', board: [] }) };
    client = await connectStdio(dir, {
      TIC_TAC_TOE_BASE_URL: upstream.url,
      TIC_TAC_TOE_APP2_APP_OAUTH_CLIENT_ID: 'client-one',
      TIC_TAC_TOE_APP2_APP_OAUTH_CLIENT_SECRET: 'secret-two-0123',
      TIC_TAC_TOE_APP2_APP_OAUTH_TOKEN_URL: `${upstream.url}/oauth/token`,
    });
  });
  afterAll(async () => {
    await client?.close();
    await upstream?.close();
  });

  it('obtains a token once with the client credentials grant and uses it for every call', async () => {
    for (let call = 0; call < 2; call++) {
      const result = await client.callTool({ name: 'board_read', arguments: { action: 'get' } });
      expect(result.isError ?? false, textOf(result)).toBe(false);
    }
    const tokenRequests = upstream.requests.filter((request) => request.path === '/oauth/token');
    expect(tokenRequests).toHaveLength(1);
    expect(new URLSearchParams(tokenRequests[0]?.body.toString()).get('grant_type')).toBe('client_credentials');
    expect(tokenRequests[0]?.headers['authorization']).toBe(`Basic ${Buffer.from('client-one:secret-two-0123').toString('base64')}`);
    const apiRequests = upstream.requests.filter((request) => request.path === '/board');
    expect(apiRequests).toHaveLength(2);
    for (const request of apiRequests) expect(request.headers['authorization']).toBe('Bearer issued-token-123456');
  });
});

/** A token endpoint that cannot be reached, answers with an error or with no token: the tool error says what to fix. */
describe('OAuth client credentials: token endpoint failures', () => {
  let upstream: Upstream;
  let dir: string;
  const clients: Client[] = [];
  const variables = [
    'TIC_TAC_TOE_APP2_APP_OAUTH_CLIENT_ID',
    'TIC_TAC_TOE_APP2_APP_OAUTH_CLIENT_SECRET',
    'TIC_TAC_TOE_APP2_APP_OAUTH_TOKEN_URL',
  ];

  beforeAll(async () => {
    dir = await tempDir('oauth-failures-e2e');
    await generateProject({ spec: fixtureSpec('oai-tictactoe.yaml'), out: dir });
    await linkDependencies(dir);
    await buildProject(dir);
    upstream = await startUpstream();
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await upstream?.close();
  });

  const connect = async (tokenUrl: string) => {
    const client = await connectStdio(dir, {
      TIC_TAC_TOE_BASE_URL: upstream.url,
      TIC_TAC_TOE_APP2_APP_OAUTH_CLIENT_ID: 'client-one',
      TIC_TAC_TOE_APP2_APP_OAUTH_CLIENT_SECRET: 'secret-two-0123',
      TIC_TAC_TOE_APP2_APP_OAUTH_TOKEN_URL: tokenUrl,
    });
    clients.push(client);
    return client;
  };
  const failure = async (client: Client) => {
    const result = await client.callTool({ name: 'board_read', arguments: { action: 'get' } });
    expect(result.isError).toBe(true);
    return textOf(result);
  };

  it('names the token URL and the variables when the endpoint is unreachable, answers an error or no JSON', async () => {
    const closed = await startUpstream();
    const closedUrl = `${closed.url}/oauth/token`;
    await closed.close();
    const unreachable = await failure(await connect(closedUrl));
    expect(unreachable).toContain(`from ${closedUrl} failed: the token endpoint could not be reached (ECONNREFUSED)`);
    for (const name of variables) expect(unreachable).toContain(name);

    const tokenUrl = `${upstream.url}/oauth/token`;
    const client = await connect(tokenUrl);
    upstream.reply = () => ({ status: 401, body: JSON.stringify({ error: 'invalid_client' }) });
    const rejected = await failure(client);
    expect(rejected).toContain(`from ${tokenUrl} failed: the token endpoint answered HTTP 401 (invalid_client)`);
    for (const name of variables) expect(rejected).toContain(name);
    upstream.reply = () => ({ status: 200, headers: { 'content-type': 'text/html' }, body: '<html>login</html>' });
    expect(await failure(client)).toContain('answered HTTP 200 with something other than JSON');
    upstream.reply = () => ({ status: 200, body: JSON.stringify({ token_type: 'Bearer' }) });
    expect(await failure(client)).toContain('the answer holds no access_token');
    // None of it reached the API itself.
    expect(upstream.requests.filter((request) => request.path === '/board')).toEqual([]);
  });
});
