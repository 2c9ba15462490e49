/**
 * RFC 9110 §5.6.2 `token`: the only names a header (or a cookie, RFC 6265 `cookie-name`) can have. A name from the
 * description with a space, a line break or a non-ASCII letter cannot be sent at all: fetch refuses it. It is also
 * what an `x-mcp-header` value must be (the SDK checks the same pattern).
 */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function isHttpToken(name: string): boolean {
  return TOKEN.test(name);
}
