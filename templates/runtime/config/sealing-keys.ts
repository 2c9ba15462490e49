// `<PREFIX>_OAUTH_SEALING_KEYS`: the keys that seal what the `oauth` mode issues, newest first. Read at start, and
// refused there when a key could be guessed: anyone holding the key can mint access tokens for any user.

/** Fewer distinct byte values than this in 32 bytes does not come from a random source (expected: about 30). */
const MIN_DISTINCT_BYTES = 20;

/** Parses the list: base64 or base64url of exactly 32 random bytes each, comma-separated. */
export function parseSealingKeys(value: string, variable: string): Uint8Array[] {
  const make = 'create one with: openssl rand -base64 32';
  const keys = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item, index) => {
      const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(item) ? Buffer.from(item, 'base64') : Buffer.alloc(0);
      if (bytes.length !== 32) throw new Error(`${variable}: key ${index + 1} is not 32 bytes in base64 (${make}).`);
      const weakness = weaknessOf(bytes);
      if (weakness) throw new Error(`${variable}: key ${index + 1} ${weakness}, so it could be guessed (${make}).`);
      return new Uint8Array(bytes);
    });
  if (keys.length === 0) throw new Error(`${variable} is empty: set at least one key (${make}).`);
  const distinct = new Set(keys.map((key) => Buffer.from(key).toString('hex')));
  if (distinct.size !== keys.length) throw new Error(`${variable} lists the same key twice.`);
  return keys;
}

/** Why 32 bytes cannot be a random key, or undefined. */
function weaknessOf(bytes: Uint8Array): string | undefined {
  if (bytes.every((byte) => byte === bytes[0])) return 'repeats one byte value';
  if (new Set(bytes).size < MIN_DISTINCT_BYTES) return 'has too few distinct byte values to be random';
  // Printable text (a password, a phrase) in base64: 32 random bytes are all printable once in 10^14 draws.
  if (bytes.every((byte) => byte >= 0x20 && byte < 0x7f)) return 'is printable text, not random bytes';
  return undefined;
}
