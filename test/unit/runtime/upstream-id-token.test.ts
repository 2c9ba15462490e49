import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthModeSettings } from '../../../templates/runtime/config/upstream-auth.js';
import { UpstreamOAuthClient } from '../../../templates/runtime/sign-in/oauth-upstream.js';
import { TokenEndpointFailure } from '../../../templates/runtime/sign-in/upstream-token-endpoint.js';

// The `oauth` mode's code exchange against a provider on 127.0.0.1 whose token endpoint answers with whatever ID
// token a case makes (signed with jose): what oauth4webapi checks must actually be checked through our wiring.

const CLIENT_ID = 'mcp-deployment';
const NONCE = 'nonce-of-this-sign-in';

type Answer = { idToken?: string; issuerInMetadata?: string };

let server: Server;
let issuer: string;
let next: Answer = {};
type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

let signingKey: PrivateKey;
let strangerKey: PrivateKey;
let publicJwk: Record<string, unknown>;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  signingKey = pair.privateKey;
  strangerKey = (await generateKeyPair('ES256')).privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  server = createServer((request, response) => {
    const json = (body: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    // Both discovery documents, so that a refusal is the issuer check's and not a missing document's.
    if (request.url === '/.well-known/openid-configuration' || request.url === '/.well-known/oauth-authorization-server')
      return json({
        issuer: next.issuerInMetadata ?? issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        id_token_signing_alg_values_supported: ['ES256'],
      });
    if (request.url === '/jwks') return json({ keys: [publicJwk] });
    if (request.url === '/token' && request.method === 'POST') {
      request.resume();
      return request.on('end', () =>
        json({
          access_token: 'upstream-access-token',
          token_type: 'Bearer',
          expires_in: 3600,
          ...(next.idToken !== undefined ? { id_token: next.idToken } : {}),
        }),
      );
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function client(): UpstreamOAuthClient {
  const settings: OAuthModeSettings = {
    mode: 'oauth',
    publicUrl: 'http://127.0.0.1:9',
    sealingKeys: [],
    tokenTtl: 3600,
    registrationsPerMinute: 10,
    registrationsPerSource: 5,
    client: { clientId: CLIENT_ID, clientSecret: 'deployment-secret', method: 'basic' },
    issuer,
    scopes: ['openid', 'board:read'],
  };
  return new UpstreamOAuthClient(settings);
}

/** An ID token as a correct provider makes it, with `changes` applied to its claims. */
async function idToken(changes: JWTPayload = {}, key = signingKey): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = { iss: issuer, aud: CLIENT_ID, sub: 'alice', nonce: NONCE, iat: now, exp: now + 600, ...changes };
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).sign(key);
}

/** The code exchange of one sign-in, with the provider answering `answer`. */
async function exchange(answer: Answer) {
  next = answer;
  return client().exchangeCode({ code: 'the-code', iss: issuer }, { verifier: 'v'.repeat(43), nonce: NONCE });
}

describe('the oauth mode checks the ID token the API’s provider sends', () => {
  it('accepts a correct one and names the user by its subject', async () => {
    const tokens = await exchange({ idToken: await idToken() });
    expect(tokens).toMatchObject({ accessToken: 'upstream-access-token', subject: 'alice' });
  });

  it.each([
    ['expired', { exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 }],
    ['issued by another issuer', { iss: 'https://evil.example' }],
    ['issued to another client', { aud: 'another-client' }],
    ['for another sign-in (nonce)', { nonce: 'someone-elses-nonce' }],
    ['without a nonce', { nonce: undefined }],
  ])('refuses one %s', async (_what, changes) => {
    await expect(exchange({ idToken: await idToken(changes as JWTPayload) })).rejects.toBeInstanceOf(TokenEndpointFailure);
  });

  it('refuses one signed with a key the provider does not publish', async () => {
    await expect(exchange({ idToken: await idToken({}, strangerKey) })).rejects.toBeInstanceOf(TokenEndpointFailure);
  });

  it('refuses an answer without an ID token when it asked for one', async () => {
    await expect(exchange({})).rejects.toBeInstanceOf(TokenEndpointFailure);
  });

  it('refuses a provider whose metadata names another issuer than the one configured', async () => {
    next = { issuerInMetadata: 'https://evil.example' };
    await expect(client().metadata()).rejects.toBeInstanceOf(TokenEndpointFailure);
  });

  it('never puts a token into the error it throws', async () => {
    const error = await exchange({ idToken: await idToken({ aud: 'another-client' }) }).catch((caught: unknown) => caught);
    expect(String((error as Error).message)).not.toMatch(/upstream-access-token|eyJ/);
  });
});
