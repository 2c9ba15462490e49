// Where a request came from, for the limits counted per source (calls per minute without a token, client
// registrations). Behind proxies the connection's address is the nearest proxy's, shared by every client, and the
// `X-Forwarded-For` entries are whatever the client wrote — except the ones the deployment's own proxies appended:
// `<PREFIX>_TRUSTED_PROXY_HOPS` says how many of those there are, counted from the right.

/** Who sent a request, as far as this server can tell (Workers: Cloudflare's `CF-Connecting-IP`). */
export type Peer = { address?: string | undefined };

/**
 * The client's address: the connection's own with no trusted proxy, else the entry of `X-Forwarded-For` that the
 * farthest trusted proxy appended. With fewer entries than hops the request did not pass every proxy (or they do not
 * append): the leftmost entry, the best there is.
 */
export function clientAddress(
  connection: string | undefined,
  forwardedFor: string | null | undefined,
  trustedHops: number,
): string | undefined {
  if (trustedHops === 0) return connection;
  const chain = [
    ...(forwardedFor ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    ...(connection ? [connection] : []),
  ];
  if (chain.length === 0) return undefined;
  return chain[Math.max(0, chain.length - 1 - trustedHops)];
}
