import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
};

export type Reply = {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Takes over the response (fault injection: a reset, a body that never ends); status, headers and body are ignored. */
  raw?: (response: ServerResponse) => void;
};

export type Upstream = {
  url: string;
  requests: RecordedRequest[];
  /** Decides the answer to each request; defaults to 200 with a JSON echo of method and path. */
  reply: (request: RecordedRequest) => Reply | Promise<Reply>;
  close: () => Promise<void>;
};

/** A real HTTP server on 127.0.0.1 that records every request, standing in for the API. */
export async function startUpstream(): Promise<Upstream> {
  const upstream: Upstream = {
    url: '',
    requests: [],
    reply: (request) => ({ body: JSON.stringify({ method: request.method, path: request.path }) }),
    close: async () => undefined,
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const url = new URL(request.url ?? '/', 'http://upstream.local');
      const recorded: RecordedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      upstream.requests.push(recorded);
      const reply = await upstream.reply(recorded);
      if (reply.raw) return reply.raw(response);
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      response.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  upstream.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      // Responses a test left hanging on purpose would otherwise keep the server open.
      server.closeAllConnections();
    });
  return upstream;
}
