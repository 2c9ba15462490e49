// HTTP plumbing of this server's authorization server (`oauth` mode): bounded bodies, forms, cookies (the `cookie`
// package), client credentials in a Basic header, and OAuth error answers.

import { parseCookie, stringifySetCookie } from 'cookie';

/** Answers of the endpoints clients call directly: never cached, readable by browser-based clients (no cookies). */
export const API_HEADERS = { 'Cache-Control': 'no-store', Pragma: 'no-cache', 'Access-Control-Allow-Origin': '*' };

/** No request to the authorization server needs more (registrations are held to less, oauth-clients.ts). */
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

/** Longer Basic credentials than this are refused unread: a client id of ours fits in 2,048 characters. */
const MAX_BASIC_LENGTH = 4096;

/**
 * Client id and secret of `Authorization: Basic` (RFC 6749 §2.3.1: each form-encoded, then `id:secret` in base64).
 * Anything but canonical base64 of valid UTF-8 with one colon outside the encoded parts is refused, as are control
 * characters, so that no two spellings of a header name the same client.
 */
export function basicCredentials(header: string | null): { id: string; secret: string } | undefined {
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header ?? '');
  const encoded = match?.[1];
  if (!encoded || encoded.length > MAX_BASIC_LENGTH || encoded.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.toString('base64') !== encoded) return undefined;
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  const parts = decoded.split(':');
  if (parts.length !== 2) return undefined;
  const [id, secret] = parts.map(formDecoded);
  if (!id || secret === undefined) return undefined;
  return { id, secret };
}

/** One `application/x-www-form-urlencoded` value, without control characters; undefined when malformed. */
function formDecoded(text: string): string | undefined {
  try {
    const value = decodeURIComponent(text.replace(/\+/g, ' '));
    return /[\u0000-\u001f\u007f]/.test(value) ? undefined : value;
  } catch {
    return undefined;
  }
}

/** The value of cookie `name` (RFC 6265, parsed by `cookie`). */
export function readCookie(request: Request, name: string): string | undefined {
  return parseCookie(request.headers.get('cookie') ?? '')[name];
}

/** A `Set-Cookie` value of this server's sign-in pages: never readable by script, Lax, Secure on https. */
export function setCookie(name: string, value: string, maxAge: number, secure: boolean): string {
  return stringifySetCookie(name, value, { path: '/', maxAge, httpOnly: true, sameSite: 'lax', secure });
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
export async function readLimited(request: Request, limit = MAX_BODY_BYTES): Promise<string> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw new BodyTooLarge();
  const reader = request.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class BodyTooLarge extends Error {
  constructor() {
    super('body too large');
  }
}
