import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the generated server sent, with what the mock answered. */
export type Exchange = {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  status: number;
  responseHeaders: IncomingHttpHeaders;
  responseBody: string;
  /** Milliseconds the mock took to answer. */
  ms: number;
};

export type Proxy = { url: string; exchanges: Exchange[]; close: () => Promise<void> };

/**
 * A recording pass-through between the generated server and the mock: it forwards every request unchanged and keeps
 * request and answer, so each tool call can be matched with the request it caused and the mock's verdict on it.
 * Without a target it answers 200 `{}` itself (the recording upstream for descriptions Prism cannot load).
 */
export async function startProxy(target: string | undefined): Promise<Proxy> {
  const exchanges: Exchange[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const started = performance.now();
      const body = Buffer.concat(chunks);
      const record = (status: number, responseHeaders: IncomingHttpHeaders, responseBody: Buffer) => {
        exchanges.push({
          method: incoming.method ?? '',
          url: incoming.url ?? '',
          headers: incoming.headers,
          body,
          status,
          responseHeaders,
          responseBody: responseBody.toString('utf8').slice(0, 4000),
          ms: Math.round(performance.now() - started),
        });
      };
      if (!target) {
        const answer = Buffer.from('{}');
        record(200, { 'content-type': 'application/json' }, answer);
        outgoing.writeHead(200, { 'content-type': 'application/json' });
        outgoing.end(answer);
        return;
      }
      const forward = httpRequest(
        new URL(incoming.url ?? '/', target),
        // A fresh connection per request (no reuse race with Prism's keep-alive), and the lenient parser: Prism sends
        // Content-Length together with Transfer-Encoding on some binary answers.
        { method: incoming.method, headers: { ...incoming.headers, host: new URL(target).host }, insecureHTTPParser: true, agent: false },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const payload = Buffer.concat(parts);
            record(answer.statusCode ?? 0, answer.headers, payload);
            const headers = { ...answer.headers };
            delete headers['transfer-encoding'];
            headers['content-length'] = String(payload.byteLength);
            outgoing.writeHead(answer.statusCode ?? 502, headers);
            outgoing.end(payload);
          });
        },
      );
      forward.on('error', (error) => {
        record(502, {}, Buffer.from(error.message));
        outgoing.writeHead(502, { 'content-type': 'text/plain' });
        outgoing.end(`proxy: ${error.message}`);
      });
      forward.end(body);
    });
  });
  // Idle connections stay open longer than the client keeps them (undici: 4 s), so the client never reuses one the
  // proxy is closing at that moment (an ECONNRESET that would be the test's fault, not the server's).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
