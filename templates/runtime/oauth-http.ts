// HTTP plumbing of this server's authorization server (`oauth` mode): bounded bodies, forms, cookies, client
// credentials in a Basic header, and OAuth error answers.

/** Answers of the endpoints clients call directly: never cached, readable by browser-based clients (no cookies). */
export const API_HEADERS = { 'Cache-Control': 'no-store', Pragma: 'no-cache', 'Access-Control-Allow-Origin': '*' };

/** No request to the authorization server needs more. */
const MAX_BODY_BYTES = 65_536;

export function oauthError(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ error, error_description: description }, { status, headers: { ...API_HEADERS, ...headers } });
}

/** CORS preflight of the registration and token endpoints. */
export function preflight(request: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'POST, OPTIONS',
      'Access-Control-Allow-Headers': request.headers.get('access-control-request-headers') ?? 'content-type',
      'Access-Control-Max-Age': '600',
    },
  });
}

/** Client id and secret of `Authorization: Basic` (RFC 6749 §2.3.1: form-encoded, then base64). */
export function basicCredentials(header: string | null): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return undefined;
  }
}

export function readCookie(request: Request, name: string): string | undefined {
  for (const pair of (request.headers.get('cookie') ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** An `application/x-www-form-urlencoded` body; undefined for anything else or a body too large. */
export async function readForm(request: Request): Promise<URLSearchParams | undefined> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get('content-type') ?? '')) return undefined;
  try {
    return new URLSearchParams(await readLimited(request));
  } catch {
    return undefined;
  }
}

/** The body as text, refused past MAX_BODY_BYTES without reading further. */
export async function readLimited(request: Request): Promise<string> {
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) throw new Error('body too large');
  const reader = request.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new Error('body too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
