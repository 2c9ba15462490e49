// Clients of this server's authorization server (`oauth` mode): dynamic registration (RFC 7591) without a registry.
// A registration is sealed into the client id it returns, so every replica reads it back; a confidential client's
// secret is a keyed digest of its id. Only redirect URIs the MCP authorization spec allows are registered, and since
// anyone may register, registrations are small, few per minute and expire (RFC 9700 §4.11.2, §4.15).

import { API_HEADERS, basicCredentials, BodyTooLarge, oauthError, readLimited } from './oauth-http.js';
import { sha256, type Sealer } from './sealed.js';

/** A registration lives this long; then the client registers again (MCP clients do so on `invalid_client`). */
export const CLIENT_LIFETIME_S = 90 * 86_400;
/** Client metadata larger than this is refused unread. */
const MAX_REGISTRATION_BYTES = 8_192;
const MAX_REDIRECT_URIS = 5;
const MAX_REDIRECT_URI_LENGTH = 512;
const MAX_CLIENT_NAME_LENGTH = 200;
/** A client id goes into every authorization URL: kept well inside what browsers and servers accept in one. */
export const MAX_CLIENT_ID_LENGTH = 2_048;

/** Whether one more registration may happen now: undefined if so, else the seconds to wait. */
export type RegistrationGate = () => Promise<number | undefined>;

type AuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';
/** A client registration, sealed into its client_id: redirect URIs, name, authentication method. */
export type Registration = { r: string[]; n?: string; m: AuthMethod };
/** A client that proved who it is at the token endpoint, known by a digest of its (long) id. */
export type AuthenticatedClient = { digest: string };

/** POST /oauth/register. */
export async function registerClient(request: Request, sealer: Sealer, gate: RegistrationGate): Promise<Response> {
  const wait = await gate();
  if (wait !== undefined)
    return oauthError(
      429,
      'temporarily_unavailable',
      `Too many clients registered in the last minute; try again in ${wait} seconds.`,
      { 'Retry-After': String(wait) },
    );
  let body: unknown;
  try {
    body = JSON.parse(await readLimited(request, MAX_REGISTRATION_BYTES));
  } catch (error) {
    if (error instanceof BodyTooLarge)
      return oauthError(
        413,
        'invalid_client_metadata',
        `Client metadata is limited to ${MAX_REGISTRATION_BYTES} bytes.`,
      );
    return oauthError(400, 'invalid_client_metadata', 'The registration must be a JSON object.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return oauthError(400, 'invalid_client_metadata', 'The registration must be a JSON object.');
  const fields = body as Record<string, unknown>;
  const redirects = fields['redirect_uris'];
  if (
    !Array.isArray(redirects) ||
    redirects.length === 0 ||
    redirects.length > MAX_REDIRECT_URIS ||
    !redirects.every((uri) => typeof uri === 'string' && acceptableRedirect(uri))
  )
    return oauthError(
      400,
      'invalid_redirect_uri',
      `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} https URLs, http URLs on this machine (localhost, 127.0.0.1, [::1]) or private-use URIs (com.example.app:/callback), each at most ${MAX_REDIRECT_URI_LENGTH} characters, without fragments.`,
    );
  const method = fields['token_endpoint_auth_method'] ?? 'client_secret_basic';
  if (method !== 'none' && method !== 'client_secret_basic' && method !== 'client_secret_post')
    return oauthError(
      400,
      'invalid_client_metadata',
      'token_endpoint_auth_method must be none, client_secret_basic or client_secret_post.',
    );
  if (!subsetOf(fields['grant_types'], ['authorization_code', 'refresh_token']))
    return oauthError(400, 'invalid_client_metadata', 'grant_types may list authorization_code and refresh_token.');
  if (!subsetOf(fields['response_types'], ['code']))
    return oauthError(400, 'invalid_client_metadata', 'response_types may list code only.');
  const rawName = fields['client_name'];
  if (rawName !== undefined && (typeof rawName !== 'string' || rawName.length > MAX_CLIENT_NAME_LENGTH))
    return oauthError(
      400,
      'invalid_client_metadata',
      `client_name must be text of at most ${MAX_CLIENT_NAME_LENGTH} characters.`,
    );
  const name = rawName?.trim() ?? '';
  const registration: Registration = { r: redirects as string[], m: method, ...(name ? { n: name } : {}) };
  const clientId = await sealer.seal('client', registration, CLIENT_LIFETIME_S);
  if (clientId.length > MAX_CLIENT_ID_LENGTH)
    return oauthError(
      400,
      'invalid_client_metadata',
      'The registration is too large for a usable client_id: register fewer or shorter redirect URIs, or a shorter name.',
    );
  const secret = method === 'none' ? undefined : await sealer.digest('client-secret', clientId);
  const issuedAt = Math.floor(Date.now() / 1000);
  return Response.json(
    {
      client_id: clientId,
      client_id_issued_at: issuedAt,
      ...(secret ? { client_secret: secret, client_secret_expires_at: issuedAt + CLIENT_LIFETIME_S } : {}),
      redirect_uris: registration.r,
      token_endpoint_auth_method: method,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(name ? { client_name: name } : {}),
    },
    { status: 201, headers: API_HEADERS },
  );
}

export async function openClient(sealer: Sealer, clientId: string): Promise<Registration | undefined> {
  if (clientId.length > MAX_CLIENT_ID_LENGTH) return undefined;
  const opened = await sealer.open<Registration>('client', clientId);
  return opened.ok ? opened.payload : undefined;
}

/** Client authentication at the token endpoint: none (public clients), or the secret by Basic or in the form. */
export async function authenticateClient(
  request: Request,
  form: URLSearchParams,
  sealer: Sealer,
): Promise<AuthenticatedClient | Response> {
  const basic = basicCredentials(request.headers.get('authorization'));
  const clientId = basic?.id ?? form.get('client_id') ?? '';
  if (basic && form.has('client_id') && form.get('client_id') !== basic.id)
    return oauthError(400, 'invalid_request', 'Two different client ids were sent.');
  const registration = await openClient(sealer, clientId);
  const refused = () =>
    oauthError(401, 'invalid_client', 'Unknown client or wrong client secret: register again.', {
      ...(basic ? { 'WWW-Authenticate': 'Basic realm="token"' } : {}),
    });
  if (!registration) return refused();
  if (registration.m !== 'none') {
    const secret = basic?.secret ?? form.get('client_secret');
    if (!secret || !(await sealer.verifyDigest('client-secret', clientId, secret))) return refused();
  }
  return { digest: await sha256(clientId) };
}

/**
 * Redirect URIs the MCP authorization spec allows: https, http on this machine, and private-use schemes of native
 * apps (RFC 8252 §7.1: reverse domain names, so with a dot); never a fragment.
 */
function acceptableRedirect(uri: string): boolean {
  if (uri.length > MAX_REDIRECT_URI_LENGTH || uri.includes('#')) return false;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return /^[a-z][a-z0-9+-]*\.[a-z0-9+.-]+:$/.test(url.protocol);
}

function subsetOf(value: unknown, allowed: string[]): boolean {
  return value === undefined || (Array.isArray(value) && value.every((item) => allowed.includes(item as string)));
}
