/** RFC 6901 helpers. Pointers are written as URI fragments (`#/paths/~1pets/get`) everywhere in diagnostics. */

export function escapePointerToken(token: string | number): string {
  const text = String(token);
  // Most tokens (keywords, property names, indexes) have nothing to escape: no regular expression run for them.
  if (!text.includes('~') && !text.includes('/')) return text;
  return text.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapePointerToken(token: string): string {
  if (!token.includes('~')) return token;
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Builds `#/a/b~1c` from raw tokens. */
export function pointerOf(...tokens: Array<string | number>): string {
  return tokens.length === 0 ? '#' : `#/${tokens.map(escapePointerToken).join('/')}`;
}

/** Appends raw tokens to an existing `#/…` pointer. */
export function childPointer(pointer: string, ...tokens: Array<string | number>): string {
  let path = pointer === '#' || pointer === '#/' ? '#' : pointer;
  for (const token of tokens) path += `/${escapePointerToken(token)}`;
  return path;
}

/** Splits `#/a/b~1c` (or `/a/b~1c`) into raw tokens; URI percent-escapes are decoded first. */
export function parsePointer(pointer: string): string[] | undefined {
  let body = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  // Without a `%` there is nothing to decode (and nothing decodeURIComponent could refuse).
  if (body.includes('%')) {
    try {
      body = decodeURIComponent(body);
    } catch {
      return undefined;
    }
  }
  if (body === '') return [];
  if (!body.startsWith('/')) return undefined;
  return body.slice(1).split('/').map(unescapePointerToken);
}

/** Resolves a pointer in a JSON value; `undefined` when any token is missing. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  const tokens = parsePointer(pointer);
  if (!tokens) return undefined;
  let node: unknown = root;
  for (const token of tokens) {
    if (node === null || typeof node !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
