// Tokens that only this deployment can read, so that it keeps no state of its own: client registrations, sign-in
// flows, authorization codes, access and refresh tokens all carry what the server needs to know, sealed. The format is
// JWE compact serialization with direct encryption under AES-256-GCM (RFC 7516/7518 `dir` + `A256GCM`); the protected
// header, which names the key (`kid`) and the kind of token (`typ`), is the authenticated data, so a token of one kind
// never passes for another and a changed byte anywhere makes it unreadable. Keys come from the environment, newest
// first: the newest seals, every listed key still opens, so keys rotate without signing anybody out.

import type { webcrypto } from 'node:crypto';

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();
/** A sealed token longer than this is refused before any work: none of ours comes close. */
const MAX_SEALED_LENGTH = 16_384;

/** What a sealed token is for; part of the authenticated header. */
export type SealedKind = 'client' | 'consent' | 'flow' | 'code' | 'access' | 'refresh';

export type Opened<T> = { ok: true; payload: T & Stamp } | { ok: false; reason: 'expired' | 'invalid' };
type Stamp = { iat: number; exp: number };

type Key = { id: string; aes: webcrypto.CryptoKey; mac: webcrypto.CryptoKey };

/** Parses `<PREFIX>_OAUTH_SEALING_KEYS`: base64 or base64url of exactly 32 random bytes each, comma-separated. */
export function parseSealingKeys(value: string, variable: string): Uint8Array[] {
  const keys = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item, index) => {
      const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(item) ? Buffer.from(item, 'base64') : Buffer.alloc(0);
      if (bytes.length !== 32)
        throw new Error(
          `${variable}: key ${index + 1} is not 32 bytes in base64 (create one with: openssl rand -base64 32).`,
        );
      return new Uint8Array(bytes);
    });
  if (keys.length === 0) throw new Error(`${variable} is empty: set at least one key (openssl rand -base64 32).`);
  return keys;
}

export class Sealer {
  private keys: Promise<Key[]>;

  /** `secrets`: raw keys, newest first. */
  constructor(secrets: Uint8Array[]) {
    this.keys = Promise.all(secrets.map(deriveKey));
  }

  /** Seals `payload` as a token of `kind` that opens for `lifetimeSeconds`. */
  async seal(kind: SealedKind, payload: object, lifetimeSeconds: number): Promise<string> {
    const [key] = await this.keys;
    if (!key) throw new Error('no sealing key');
    const iat = Math.floor(Date.now() / 1000);
    const header = base64url(
      ENCODER.encode(JSON.stringify({ alg: 'dir', enc: 'A256GCM', kid: key.id, typ: typ(kind) })),
    );
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const plaintext = ENCODER.encode(JSON.stringify({ ...payload, iat, exp: iat + Math.ceil(lifetimeSeconds) }));
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: ENCODER.encode(header), tagLength: 128 },
        key.aes,
        plaintext,
      ),
    );
    const ciphertext = sealed.subarray(0, sealed.length - 16);
    const tag = sealed.subarray(sealed.length - 16);
    return `${header}..${base64url(iv)}.${base64url(ciphertext)}.${base64url(tag)}`;
  }

  /** Opens a token of `kind`: its payload, or why not (anything forged, altered or of another kind is `invalid`). */
  async open<T extends object>(kind: SealedKind, token: string): Promise<Opened<T>> {
    const invalid = { ok: false, reason: 'invalid' } as const;
    if (token.length > MAX_SEALED_LENGTH) return invalid;
    const parts = token.split('.');
    if (parts.length !== 5 || parts[1] !== '') return invalid;
    const [header = '', , iv = '', ciphertext = '', tag = ''] = parts;
    let fields: { alg?: unknown; enc?: unknown; kid?: unknown; typ?: unknown };
    try {
      fields = JSON.parse(DECODER.decode(fromBase64url(header))) as typeof fields;
    } catch {
      return invalid;
    }
    if (fields.alg !== 'dir' || fields.enc !== 'A256GCM' || fields.typ !== typ(kind)) return invalid;
    const key = (await this.keys).find((candidate) => candidate.id === fields.kid);
    if (!key) return invalid;
    let payload: T & Stamp;
    try {
      const plaintext = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: fromBase64url(iv), additionalData: ENCODER.encode(header), tagLength: 128 },
        key.aes,
        concat(fromBase64url(ciphertext), fromBase64url(tag)),
      );
      payload = JSON.parse(DECODER.decode(plaintext)) as T & Stamp;
    } catch {
      return invalid;
    }
    if (typeof payload !== 'object' || payload === null || typeof payload.exp !== 'number') return invalid;
    if (payload.exp <= Date.now() / 1000) return { ok: false, reason: 'expired' };
    return { ok: true, payload };
  }

  /** A keyed digest of `value` under the newest key (client secrets derived from their client id). */
  async digest(label: string, value: string): Promise<string> {
    const [key] = await this.keys;
    if (!key) throw new Error('no sealing key');
    return mac(key, label, value);
  }

  /** Whether `presented` is the digest of `value` under any listed key, compared in constant time. */
  async verifyDigest(label: string, value: string, presented: string): Promise<boolean> {
    let matched = false;
    for (const key of await this.keys) matched = equalText(await mac(key, label, value), presented) || matched;
    return matched;
  }
}

function typ(kind: SealedKind): string {
  return `openapi-to-mcp-${kind}+jwe`;
}

/**
 * Separate keys for encryption and for digests, derived from each configured key (HKDF-SHA-256), so that one key
 * is never used for two algorithms; the key id is a digest of the configured key, which tells nothing about it.
 */
async function deriveKey(secret: Uint8Array): Promise<Key> {
  const material = await crypto.subtle.importKey('raw', secret, 'HKDF', false, ['deriveKey']);
  const derive = (
    info: string,
    algorithm: webcrypto.HmacImportParams | webcrypto.AesKeyGenParams,
    usages: webcrypto.KeyUsage[],
  ) =>
    crypto.subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: ENCODER.encode(info) },
      material,
      algorithm,
      false,
      usages,
    );
  const id = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', secret))).slice(0, 11);
  return {
    id,
    aes: await derive('openapi-to-mcp seal', { name: 'AES-GCM', length: 256 }, ['encrypt', 'decrypt']),
    mac: await derive('openapi-to-mcp digest', { name: 'HMAC', hash: 'SHA-256', length: 256 }, ['sign']),
  };
}

async function mac(key: Key, label: string, value: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', key.mac, ENCODER.encode(`${label}\n${value}`))));
}

/** Constant-time comparison of two strings (their lengths may differ). */
export function equalText(a: string, b: string): boolean {
  const left = ENCODER.encode(a);
  const right = ENCODER.encode(b);
  let difference = left.length ^ right.length;
  for (let index = 0; index < left.length; index++) difference |= left[index]! ^ (right[index % right.length] ?? 0);
  return difference === 0;
}

/** Random bytes as base64url text: nonces, state values, PKCE verifiers. */
export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** base64url(SHA-256(text)): the PKCE S256 challenge of a verifier (RFC 7636), and digests of tokens for cache keys. */
export async function sha256(text: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', ENCODER.encode(text))));
}

export function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

function fromBase64url(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64url'));
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
