// Keeps credentials out of results, errors and logs.

const secrets = new Set<string>();
/** The same values as UTF-8 bytes, for scrubbing response bodies before anything decodes them. */
const secretBytes: Buffer[] = [];

/**
 * Registers a credential value so that it is never echoed; short values are ignored (they would match everywhere).
 * Every form the value takes on the wire is registered: as set, percent-encoded (paths, cookies), form-encoded (a
 * query string), base64 (Basic), and escaped inside a JSON string (an echo of the request as JSON).
 */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < 6) return;
  for (const form of wireForms(value)) {
    if (secrets.has(form)) continue;
    secrets.add(form);
    secretBytes.push(Buffer.from(form));
  }
}

function wireForms(value: string): string[] {
  return [
    value,
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    Buffer.from(value).toString('base64'),
    JSON.stringify(value).slice(1, -1),
    JSON.stringify(value).slice(1, -1).replace(/\//g, '\\/'),
  ];
}

/** Users' tokens for the API (per-user modes), most recently used last; bounded, since users come and go. */
const callerSecrets = new Map<string, { texts: string[]; bytes: Buffer[] }>();
const MAX_CALLER_SECRETS = 512;

/**
 * Registers a signed-in user's token for redaction just before it is sent. Only the most recently used tokens are
 * kept: far more than the calls in flight (MAX_CONCURRENCY), so the token of every call under way is among them.
 */
export function registerCallerSecret(value: string): void {
  if (value.length < 6) return;
  const texts = wireForms(value);
  const forms = callerSecrets.get(value) ?? { texts, bytes: texts.map((form) => Buffer.from(form)) };
  callerSecrets.delete(value);
  callerSecrets.set(value, forms);
  if (callerSecrets.size > MAX_CALLER_SECRETS) {
    const oldest = callerSecrets.keys().next().value;
    if (oldest !== undefined) callerSecrets.delete(oldest);
  }
}

/** Every registered form: the environment's credentials, then users' tokens. */
function* allSecretBytes(): Generator<Buffer> {
  yield* secretBytes;
  for (const forms of callerSecrets.values()) yield* forms.bytes;
}

/**
 * Replaces registered credentials in a response body, whatever its media type: an upstream that echoes the request
 * in a binary or image body would otherwise hand them to the model base64-encoded, where no text redaction sees them.
 */
export function scrubBytes(body: Uint8Array): Uint8Array {
  let buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  for (const secret of allSecretBytes()) {
    if (buffer.indexOf(secret) < 0) continue;
    const parts: Buffer[] = [];
    let from = 0;
    for (let at = buffer.indexOf(secret); at >= 0; at = buffer.indexOf(secret, from)) {
      parts.push(buffer.subarray(from, at), REDACTED);
      from = at + secret.length;
    }
    parts.push(buffer.subarray(from));
    buffer = Buffer.concat(parts);
  }
  return buffer;
}

const REDACTED = Buffer.from('[redacted]');

/**
 * A body cut at the size limit may end in the first bytes of a credential that the cut split; those bytes are
 * dropped too (after scrubbing), so that no prefix of a credential survives the cut.
 */
export function trimSecretPrefix(body: Uint8Array): Uint8Array {
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  let cut = 0;
  for (const secret of allSecretBytes()) {
    for (let length = Math.min(secret.length - 1, buffer.length); length > cut; length--) {
      if (buffer.subarray(buffer.length - length).equals(secret.subarray(0, length))) {
        cut = length;
        break;
      }
    }
  }
  return cut > 0 ? buffer.subarray(0, buffer.length - cut) : buffer;
}

const AUTH_PATTERNS: RegExp[] = [
  /\b(Bearer|Basic|Token|Digest)\s+([A-Za-z0-9._~+/=-]{8,})/gi,
  /\b(authorization|proxy-authorization|x-api-key|api[-_]?key|access[-_]?token|client[-_]?secret|password|secret|cookie|set-cookie)(["']?\s*[:=]\s*["']?)[^\s"',;&}]{4,}/gi,
];

/** A lowercase word of a sentence: what follows "token" or "basic" in prose, never the shape of a credential. */
const PROSE_WORD = /^[a-z]{8,24}$/;

/** Replaces the registered credential values: applied to every result the model sees. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
  for (const { texts } of callerSecrets.values())
    for (const secret of texts) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
  return out;
}

/**
 * Replaces the registered credential values in every string of a decoded JSON value, keys included. Scrubbing the
 * bytes cannot catch a value the upstream wrote with JSON escapes (`\u0043ANARY`, `\u0026`, as .NET, Go and Python
 * encoders do): only the decoded text shows it. Returns the value itself when nothing changed.
 */
export function redactJson(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (value === null || typeof value !== 'object' || depth > 256) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const redacted = redactJson(item, depth + 1);
      if (redacted !== item) changed = true;
      return redacted;
    });
    return changed ? items : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const name = redactSecrets(key);
    const redacted = redactJson(item, depth + 1);
    if (name !== key || redacted !== item) changed = true;
    Object.defineProperty(out, name, { value: redacted, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : value;
}

/**
 * Also replaces anything shaped like a credential header or field: for error texts and logs, where an upstream may
 * echo the request back. Successful results keep such fields (an API may legitimately return a new key).
 */
export function redact(text: string): string {
  let out = redactSecrets(text);
  for (const pattern of AUTH_PATTERNS) {
    out = out.replace(pattern, (match, first: string, second: string) => {
      if (!/^(Bearer|Basic|Token|Digest)$/i.test(first)) return `${first}${second}[redacted]`;
      // "token endpoint", "basic authentication": prose, not a credential (registered values are redacted anyway).
      return PROSE_WORD.test(second) ? match : `${first} [redacted]`;
    });
  }
  return out;
}
