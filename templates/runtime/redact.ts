// Keeps credentials out of results, errors and logs.

const secrets = new Set<string>();

/** Registers a credential value so that it is never echoed; short values are ignored (they would match everywhere). */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < 6) return;
  secrets.add(value);
  secrets.add(encodeURIComponent(value));
  secrets.add(Buffer.from(value).toString('base64'));
}

const AUTH_PATTERNS: RegExp[] = [
  /\b(Bearer|Basic|Token|Digest)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(authorization|proxy-authorization|x-api-key|api[-_]?key|access[-_]?token|client[-_]?secret|password|secret|cookie|set-cookie)(["']?\s*[:=]\s*["']?)[^\s"',;&}]{4,}/gi,
];

/** Replaces the registered credential values: applied to every result the model sees. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
  return out;
}

/**
 * Also replaces anything shaped like a credential header or field: for error texts and logs, where an upstream may
 * echo the request back. Successful results keep such fields (an API may legitimately return a new key).
 */
export function redact(text: string): string {
  let out = redactSecrets(text);
  for (const pattern of AUTH_PATTERNS) {
    out = out.replace(pattern, (match, first: string, second: string) =>
      /^(Bearer|Basic|Token|Digest)$/i.test(first) ? `${first} [redacted]` : `${first}${second}[redacted]`,
    );
  }
  return out;
}
