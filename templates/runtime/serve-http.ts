// MCP over Streamable HTTP, stateless: a fresh McpServer answers each POST to /mcp, so any number of replicas can
// serve behind a load balancer. In front of the MCP handler: Host and Origin checks (DNS rebinding), the optional
// bearer-token gate with its protected-resource metadata, and a bound on calls in flight. The handler itself, given
// an McpServer, validates the standard headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name) and the Mcp-Param-*
// headers of x-mcp-header properties against the body, and answers a mismatch with HTTP 400 / -32020.

import { createServer as createHttpServer, type Server } from 'node:http';
import {
  createMcpHandler,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  validateHostHeader,
} from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { log } from './log.js';
import { createMcpAuth } from './mcp-auth.js';
import { ConcurrencyLimiter, RateLimiter } from './rate-limit.js';
import { createServer } from './server.js';
import type { Settings } from './settings.js';
import { createUserAccess } from './user-access.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export type HttpOptions = NonNullable<Settings['http']>;

/** The web-standard fetch handler: usable by Node (below), Workers and tests alike. */
export function createFetchHandler(settings: Settings, http: HttpOptions): (request: Request) => Promise<Response> {
  const limiter = new RateLimiter(settings.rateLimitPerMinute);
  const inFlight = new ConcurrencyLimiter(settings.maxConcurrentCalls);
  // Per-user modes: each request's server acts for the user its token names, with that user's own rate limit.
  const users = settings.upstreamAuth ? createUserAccess(settings, settings.upstreamAuth) : undefined;
  const handler = createMcpHandler(
    users
      ? ({ authInfo }) => {
          if (!authInfo) throw new Error('a per-user server was asked to serve a request without a verified token');
          const caller = users.callerOf(authInfo);
          return createServer({ ...settings, caller }, users.limiters.of(caller.subject));
        }
      : () => createServer(settings, limiter),
    { onerror: (error) => log('error', `http: ${error.message}`) },
  );
  const loopback = LOOPBACK.has(http.host);
  const allowedHosts =
    http.allowedHosts.length > 0 ? http.allowedHosts : loopback ? localhostAllowedHostnames() : undefined;
  const allowedOrigins =
    http.allowedOrigins.length > 0 ? http.allowedOrigins : loopback ? localhostAllowedOrigins() : [];
  const auth = users?.auth ?? (http.auth ? createMcpAuth(http.auth) : undefined);
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/healthz' && (request.method === 'GET' || request.method === 'HEAD')) {
      return Response.json({ status: 'ok' });
    }
    // The Host check comes first: the protected-resource metadata names this server by the Host it was asked for.
    const foreignHost = allowedHosts ? hostRejection(request, url, allowedHosts) : undefined;
    if (foreignHost) return foreignHost;
    // `oauth` mode: this server's authorization server (its pages and endpoints check what they receive themselves).
    const own = await users?.handle(request);
    if (own) return own;
    // Public metadata that browser-based clients fetch cross-origin, so no Origin check for it.
    const metadata = auth?.metadata(request);
    if (metadata) return metadata;
    if (url.pathname !== '/mcp')
      return Response.json({ error: 'Not found: the MCP endpoint is /mcp.' }, { status: 404 });
    const foreignOrigin = originValidationResponse(request, allowedOrigins);
    if (foreignOrigin) return foreignOrigin;
    const authInfo = auth ? await auth.authenticate(request) : undefined;
    if (authInfo instanceof Response) return authInfo;
    if (!(await inFlight.enter(request.signal))) {
      return Response.json(
        { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'The server is busy; retry shortly.' } },
        { status: 503, headers: { 'Retry-After': '1' } },
      );
    }
    try {
      // authInfo reaches tool handlers as ctx.http.authInfo; nothing passes it on to the API (see auth.ts).
      return await handler.fetch(request, authInfo ? { authInfo } : {});
    } finally {
      inFlight.leave();
    }
  };
}

/**
 * DNS-rebinding protection: the Host header must name this server. A Request built in-process has no Host header;
 * its URL carries the host instead (Node derives the URL from the Host header, so both are the same value).
 */
function hostRejection(request: Request, url: URL, allowedHosts: string[]): Response | undefined {
  const result = validateHostHeader(request.headers.get('host') ?? url.host, allowedHosts);
  if (result.ok) return undefined;
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message: result.message }, id: null }, { status: 403 });
}

export function startHttp(settings: Settings): Promise<Server> {
  const http = settings.http;
  if (!http) throw new Error('HTTP settings missing');
  if (!LOOPBACK.has(http.host) && http.allowedHosts.length === 0) {
    log(
      'warn',
      `Listening on ${http.host} without an allowed-hosts list: Host headers are not checked. Set the ALLOWED_HOSTS variable for public deployments.`,
    );
  }
  if (http.auth) {
    const { tokens, introspectionUrl, issuer } = http.auth;
    log(
      'info',
      `MCP endpoint protected by bearer tokens (${[tokens.length > 0 ? `${tokens.length} static` : '', introspectionUrl ? 'introspection' : ''].filter(Boolean).join(' and ')})`,
    );
    if (!issuer)
      log(
        'warn',
        'Bearer tokens are required but no authorization server is advertised: set the MCP_AUTH_ISSUER variable for OAuth clients.',
      );
  }
  if (settings.upstreamAuth?.mode === 'oauth')
    log(
      'info',
      `Calling the API as each signed-in user: this server is their OAuth authorization server at ${settings.upstreamAuth.publicUrl}, signing them in at ${new URL((settings.upstreamAuth.authorizationUrl ?? settings.upstreamAuth.issuer) as string).host}`,
    );
  if (settings.upstreamAuth?.mode === 'token-exchange')
    log(
      'info',
      `Calling the API as each signed-in user: client tokens are exchanged at ${settings.upstreamAuth.tokenUrl}`,
    );
  const fetchHandler = createFetchHandler(settings, http);
  const node = toNodeHandler({ fetch: fetchHandler });
  const server = createHttpServer((request, response) => void node(request, response));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(http.port, http.host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : http.port;
      log('info', `MCP endpoint: http://${http.host.includes(':') ? `[${http.host}]` : http.host}:${port}/mcp`);
      process.stderr.write(`listening on http://${http.host}:${port}/mcp\n`);
      resolve(server);
    });
  });
}
