import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer in miniature: one port on 127.0.0.1 whose requests go to the targets in turn (request 1 to the
 * first, request 2 to the second, …), headers and bodies passed through as they are, except that it appends the
 * client's address to `X-Forwarded-For`, as real balancers do. Counts what each target served.
 */
export type RoundRobin = {
  url: string;
  /** Set before the first request; replicas start after the balancer, since their public URL is its URL. */
  targets: string[];
  /** `served[i]`: requests target i answered, by path. */
  served: string[][];
  /** Requests the balancer could not pass on (the target refused or dropped the connection), by error code. */
  failures: string[];
  close(): Promise<void>;
};

export async function startRoundRobin(): Promise<RoundRobin> {
  let next = 0;
  const balancer: RoundRobin = { url: '', targets: [], served: [], failures: [], close: async () => undefined };
  const server = createServer((incoming, outgoing) => {
    const index = next++ % balancer.targets.length;
    const target = new URL(balancer.targets[index] ?? '');
    (balancer.served[index] ??= []).push(`${incoming.method} ${new URL(incoming.url ?? '/', 'http://x').pathname}`);
    const before = incoming.headers['x-forwarded-for'];
    const headers = {
      ...incoming.headers,
      'x-forwarded-for': [before, incoming.socket.remoteAddress].filter(Boolean).join(', '),
    };
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', (error: NodeJS.ErrnoException) => {
      balancer.failures.push(error.code ?? error.message);
      outgoing.destroy();
    });
    incoming.pipe(forwarded);
  });
  // Idle client connections are kept as long as real balancers keep theirs (60 s and more), not Node's 5 s: at
  // Node's default, a loaded machine lets a client reuse a connection just as the balancer closes it.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  balancer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  balancer.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return balancer;
}
