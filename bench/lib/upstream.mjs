// A local stand-in for the API: answers every request at once with a small JSON body, and counts requests.
import { createServer } from 'node:http';

const BODY = JSON.stringify({ current_user_url: 'https://api.github.com/user', hub_url: 'https://api.github.com/hub' });

export async function startUpstream() {
  let requests = 0;
  const server = createServer((request, response) => {
    requests++;
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(BODY) });
      response.end(BODY);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
