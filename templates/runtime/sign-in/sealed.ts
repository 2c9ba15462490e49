// Tokens that only this deployment can read, so that it keeps no state of its own: client registrations, sign-in
// flows, authorization codes, access and refresh tokens all carry what the server needs to know, sealed. They are
// encrypted JWTs (RFC 7519 in RFC 7516 compact form, direct encryption under AES-256-GCM: `dir` + `A256GCM`), made and
// opened by `jose`; the protected header names the key (`kid`) and the kind of token (`typ`), both authenticated, so
// a token of one kind never passes for another and a changed byte anywhere makes it unreadable. Keys come from the
// environment, newest first: the newest seals, every listed key still opens, so keys rotate without signing anybody
// out (sealing-keys.ts refuses keys that could be guessed).

import { createHash, timingSafeEqual, type webcrypto } from 'node:crypto';
import { EncryptJWT, errors, jwtDecrypt, type JWTPayload } from 'jose';
import { log } from '../core/log.js';

const ENCODER = new TextEncoder();
/** A sealed token longer than this is refused before any work: none of ours comes close. */
const MAX_SEALED_LENGTH = 16_384;

/** What a sealed token is for; its `typ` header. */
export type SealedKind = 'client' | 'consent' | 'flow' | 'code' | 'access' | 'refresh' | 'answer';

/** Why a token did not open: `audience` when it is ours but names another audience than the one expected. */
export type Opened<T> = { ok: true; payload: T & Stamp } | { ok: false; reason: 'expired' | 'invalid' | 'audience' };
type Stamp = { iat: number; exp: number };

type Key = { id: string; secret: Uint8Array; mac: webcrypto.CryptoKey };

/** Claims a token must carry to open, beyond its kind and its expiry. */
export type Expected = { audience?: string };

class UnknownKey extends Error {}

/** Key ids already reported as unknown by this process: one warning each, a bounded number. */
const reportedKeys = new Set<string>();

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
    return new EncryptJWT({ ...(payload as JWTPayload) })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: key.id, typ: typ(kind) })
      .setIssuedAt(iat)
      .setExpirationTime(iat + Math.ceil(lifetimeSeconds))
      .encrypt(key.secret);
  }

  /** Opens a token of `kind`: its payload, or why not (anything forged, altered or of another kind is `invalid`). */
  async open<T extends object>(kind: SealedKind, token: string, expected: Expected = {}): Promise<Opened<T>> {
    const invalid = { ok: false, reason: 'invalid' } as const;
    if (token.length > MAX_SEALED_LENGTH) return invalid;
    const keys = await this.keys;
    try {
      const { payload } = await jwtDecrypt(
        token,
        (header) => {
          const key = keys.find((candidate) => candidate.id === header.kid);
          if (!key) throw new UnknownKey(String(header.kid).slice(0, 16));
          return key.secret;
        },
        {
          typ: typ(kind),
          keyManagementAlgorithms: ['dir'],
          contentEncryptionAlgorithms: ['A256GCM'],
          requiredClaims: ['iat', 'exp'],
          ...(expected.audience !== undefined ? { audience: expected.audience } : {}),
        },
      );
      return { ok: true, payload: payload as T & Stamp };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
      if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud')
        return { ok: false, reason: 'audience' };
      if (error instanceof UnknownKey) reportUnknownKey(kind, error.message);
      return invalid;
    }
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

/**
 * A well-formed token sealed under a key this replica does not hold: during a rolling key rotation that means the
 * new key reached another replica first (README: add it everywhere before it seals).
 */
function reportUnknownKey(kind: SealedKind, kid: string): void {
  if (reportedKeys.has(kid) || reportedKeys.size >= 16) return;
  reportedKeys.add(kid);
  log(
    'warn',
    `a ${kind} token was sealed with a key this replica does not hold (key id ${JSON.stringify(kid.replace(/[^\w-]/g, '?'))}): if keys are being rotated, list the new key on every replica before any replica seals with it`,
  );
}

function typ(kind: SealedKind): string {
  return `openapi-to-mcp-${kind}+jwe`;
}

/**
 * Separate keys for encryption and for digests, derived from each configured key (HKDF-SHA-256), so that one key
 * is never used for two algorithms; the key id is a digest of the configured key, which tells nothing about it.
 */
async function deriveKey(secret: Uint8Array): Promise<Key> {
  const material = await crypto.subtle.importKey('raw', secret, 'HKDF', false, ['deriveBits', 'deriveKey']);
  const hkdf = (info: string) => ({
    name: 'HKDF',
    hash: 'SHA-256',
    salt: new Uint8Array(0),
    info: ENCODER.encode(info),
  });
  const id = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', secret))).slice(0, 11);
  return {
    id,
    secret: new Uint8Array(await crypto.subtle.deriveBits(hkdf('openapi-to-mcp seal'), material, 256)),
    mac: await crypto.subtle.deriveKey(
      hkdf('openapi-to-mcp digest'),
      material,
      { name: 'HMAC', hash: 'SHA-256', length: 256 },
      false,
      ['sign'],
    ),
  };
}

async function mac(key: Key, label: string, value: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', key.mac, ENCODER.encode(`${label}\n${value}`))));
}

/** Whether two strings are equal, in time that tells nothing about where they differ (their digests are compared). */
export function equalText(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** Random bytes as base64url text: nonces, state values, PKCE verifiers, token ids. */
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
