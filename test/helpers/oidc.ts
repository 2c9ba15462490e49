import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { errors, type ClientMetadata, type Configuration, type TokenEndpointGrantContext } from 'oidc-provider';

/**
 * A real OpenID/OAuth authorization server (panva's certified `oidc-provider`) on 127.0.0.1, standing in for an API's
 * authorization server or an identity provider. Development interactions: any login name signs in as that subject,
 * with any password; the consent page grants what was asked.
 */
export type AuthorizationServer = {
  issuer: string;
  provider: Provider;
  /** RFC 7662 introspection with a client's credentials, as a resource server does. */
  introspect(token: string, clientId: string, clientSecret: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
};

export type ResourceServerInfo = { scope: string; accessTokenTTL: number };

export type AuthorizationServerOptions = {
  clients: ClientMetadata[];
  /** Resource indicators (RFC 8707) this server issues access tokens for. */
  resources: Record<string, ResourceServerInfo>;
  /** The resource when a request names none. */
  defaultResource?: string;
  scopes: string[];
  /** Open dynamic client registration (RFC 7591). */
  registration?: boolean;
  /** Accounts whose refresh tokens are single-use (rotated at each refresh; reuse revokes the grant). */
  rotateRefreshTokensOf?: Set<string>;
  /** Set up more (a token exchange grant) once the provider exists. */
  extend?: (provider: Provider) => void;
};

/** This server as a confidential client of the provider: authorization code with refresh, back to `redirectUri`. */
export function signInClient(id: string, secret: string, redirectUri: string): ClientMetadata {
  return {
    client_id: id,
    client_secret: secret,
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
}

/** A resource server's client: no grants, only its credentials for introspection. */
export function resourceServerClient(id: string, secret: string): ClientMetadata {
  return { client_id: id, client_secret: secret, redirect_uris: [], grant_types: [], response_types: [] };
}

export async function startAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  let handle: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.end();
  const server = createServer((request, response) => handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const configuration: Configuration = {
    clients: options.clients,
    scopes: options.scopes,
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    // Refresh tokens for every client allowed the grant, without the offline_access ceremony.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // oidc-provider's own policy unless told (it rotates public clients' refresh tokens).
    ...(options.rotateRefreshTokensOf
      ? { rotateRefreshToken: (ctx) => options.rotateRefreshTokensOf?.has(ctx.oidc.entities.RefreshToken?.accountId ?? '') ?? false }
      : {}),
    pkce: { required: () => true },
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 3600,
      AuthorizationCode: 60,
      ClientCredentials: 600,
      Grant: 3600,
      IdToken: 3600,
      Interaction: 600,
      RefreshToken: 86_400,
      Session: 3600,
    },
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      // Resource servers may introspect any token: the API checks whose token it was given.
      introspection: { enabled: true, allowedPolicy: () => true },
      revocation: { enabled: true },
      registration: { enabled: options.registration ?? false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.defaultResource ?? '',
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          const info = options.resources[indicator];
          if (!info) throw new errors.InvalidTarget(`unknown resource ${indicator}`);
          return { ...info, audience: indicator, accessTokenFormat: 'opaque' };
        },
      },
    },
  };
  const provider = new Provider(issuer, configuration);
  options.extend?.(provider);
  handle = provider.callback();
  return {
    issuer,
    provider,
    async introspect(token, clientId, clientSecret) {
      const response = await fetch(`${issuer}/token/introspection`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ token }),
      });
      return (await response.json()) as Record<string, unknown>;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/**
 * RFC 8693 token exchange on oidc-provider's grant extension point, with an impersonation policy an identity provider
 * would configure: only `exchanger` may exchange, only tokens issued for `from` (its own audience), only for the
 * resource `to`; the new token names the same user, with the scopes `to` allows.
 */
export function tokenExchangeGrant(options: {
  exchanger: string;
  from: string;
  to: string;
  scope: string;
  /** Accounts the policy refuses (`invalid_grant`): users without access to the API. */
  refuse?: Set<string>;
}): (provider: Provider) => void {
  return (provider) => {
    provider.registerGrantType(
      TOKEN_EXCHANGE,
      async (ctx: TokenEndpointGrantContext) => {
        const params = ctx.oidc.params as Record<string, string | undefined>;
        if (ctx.oidc.client.clientId !== options.exchanger) throw new errors.UnauthorizedClient('this client may not exchange tokens');
        if (params['subject_token_type'] !== ACCESS_TOKEN_TYPE) throw new errors.InvalidRequest('unsupported subject_token_type');
        const subject = await provider.AccessToken.find(params['subject_token'] ?? '');
        if (!subject || subject.isExpired) throw new errors.InvalidGrant('subject_token is not active');
        const audiences = ([] as unknown[]).concat(subject.aud ?? []);
        if (!audiences.includes(options.from)) throw new errors.InvalidGrant('subject_token was not issued for the exchanging party');
        if ((params['resource'] ?? params['audience']) !== options.to) throw new errors.InvalidTarget('unknown target');
        if (options.refuse?.has(subject.accountId)) throw new errors.InvalidGrant('this user may not use the API');
        const resourceServer = new provider.ResourceServer(options.to, {
          scope: options.scope,
          audience: options.to,
          accessTokenTTL: 300,
          accessTokenFormat: 'opaque',
        });
        const scope = (params['scope'] ?? options.scope)
          .split(' ')
          .filter((candidate) => resourceServer.scopes.has(candidate))
          .join(' ');
        // The new token is the exchanger's, under a grant of its own for the same user.
        const grant = new provider.Grant({ accountId: subject.accountId, clientId: ctx.oidc.client.clientId });
        grant.addResourceScope(options.to, scope);
        const token = new provider.AccessToken({
          accountId: subject.accountId,
          client: ctx.oidc.client,
          grantId: await grant.save(),
          gty: 'token-exchange',
          scope,
          resourceServer,
        });
        const value = await token.save();
        ctx.body = {
          access_token: value,
          issued_token_type: ACCESS_TOKEN_TYPE,
          token_type: 'Bearer',
          expires_in: token.expiration,
          scope: token.scope,
        };
      },
      ['subject_token', 'subject_token_type', 'requested_token_type', 'audience', 'resource', 'scope', 'actor_token', 'actor_token_type'],
    );
  };
}
