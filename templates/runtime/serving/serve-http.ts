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
import type { AuthInfo } from '@modelcontextprotocol/server';
import { api } from '../../api.js';
import { routedTools } from '../../tools/routed.js';
import { bodyBoundsProblem } from '../arguments/argument-bounds.js';
import { checkConfirmationSettings } from '../calls/confirmation.js';
import { perUserReport } from '../calls/per-user-tools.js';
import type { Settings } from '../config/settings.js';
import { log } from '../core/log.js';
import { ConcurrencyLimiter } from '../core/rate-limit.js';
import { SubjectRateLimiters, type Caller } from '../credentials/callers.js';
import { createMcpAuth } from '../credentials/mcp-auth.js';
import { clientAddress, type Peer } from './client-address.js';
import { createServer } from './server.js';
import { createUserAccess } from './user-access.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export type HttpOptions = NonNullable<Settings['http']>;

/**
 * The web-standard fetch handler: usable by Node (below), Workers and tests alike. Calls per minute are counted per
 * caller: the signed-in user (per-user modes), else the bearer token's subject or client (MCP_AUTH_*), else the
 * peer's address; tool calls in flight are bounded across all callers, batches included (server.ts).
 */
export function createFetchHandler(
  settings: Settings,
  http: HttpOptions,
): (request: Request, peer?: Peer) => Promise<Response> {
  checkConfirmationSettings(settings);
  const limiters = new SubjectRateLimiters(settings.rateLimitPerMinute);
  const inFlight = new ConcurrencyLimiter(settings.maxConcurrentCalls);
  // Tool calls, not requests: a JSON-RPC batch of the older protocol runs many calls from one request.
  const calls = new ConcurrencyLimiter(settings.maxConcurrentCalls);
  // Per-user modes: each request's server acts for the user its token names, with that user's own rate limit.
  const users = settings.upstreamAuth ? createUserAccess(settings, settings.upstreamAuth) : undefined;
  // By request: the handler is given the request this function hands it (with its parsed body) as `requestInfo`.
  const refusals = new WeakMap<Request, string>();
  const peers = new WeakMap<Request, string>();
  const handler = createMcpHandler(
    ({ authInfo, requestInfo }) => {
      if (users) {
        if (!authInfo) throw new Error('a per-user server was asked to serve a request without a verified token');
        const caller = users.callerOf(authInfo);
        const watched: Caller = {
          ...caller,
          refused: () => {
            caller.refused();
            if (requestInfo) refusals.set(requestInfo, caller.signInAgain);
          },
        };
        return createServer({ ...settings, caller: watched }, users.limiters.of(caller.subject), calls);
      }
      return createServer(settings, limiters.of(callerKey(authInfo, requestInfo && peers.get(requestInfo))), calls);
    },
    { onerror: (error) => log('error', `http: ${error.message}`), maxRequestBodySize: settings.maxRequestBytes },
  );
  const loopback = LOOPBACK.has(http.host);
  // `*`: every Host, on purpose (a gateway in front checks it); startHttp refuses a public interface with no list.
  const allowedHosts = http.allowedHosts.includes('*')
    ? undefined
    : http.allowedHosts.length > 0
      ? http.allowedHosts
      : loopback
        ? localhostAllowedHostnames()
        : undefined;
  const allowedOrigins =
    http.allowedOrigins.length > 0 ? http.allowedOrigins : loopback ? localhostAllowedOrigins() : [];
  const auth = users?.auth ?? (http.auth ? createMcpAuth(http.auth) : undefined);
  return async (request, peer) => {
    const url = new URL(request.url);
    if (url.pathname === '/healthz' && (request.method === 'GET' || request.method === 'HEAD')) {
      return Response.json({ status: 'ok' });
    }
    // The Host check comes first: the protected-resource metadata names this server by the Host it was asked for.
    const foreignHost = allowedHosts ? hostRejection(request, url, allowedHosts) : undefined;
    if (foreignHost) return foreignHost;
    // `oauth` mode: this server's authorization server (its pages and endpoints check what they receive themselves).
    const own = await users?.handle(request, peer);
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
      const read = await boundedMessage(request, settings.maxRequestBytes);
      if (read instanceof Response) return read;
      // authInfo reaches tool handlers as ctx.http.authInfo; nothing passes it on to the API (see auth.ts).
      if (peer?.address) peers.set(read.request, peer.address);
      const response = await handler.fetch(read.request, {
        ...(authInfo ? { authInfo } : {}),
        ...(read.parsed !== undefined ? { parsedBody: read.parsed } : {}),
      });
      if (!users || !authInfo || !auth) return response;
      // The API refused the signed-in user's own token: HTTP 401 with a challenge makes the client sign in again
      // (or refresh), instead of a tool result the model cannot act on. The answer (JSON, or an event stream that
      // ends with the last result of this stateless request) is read whole first: only then are its calls done.
      const body = await response.arrayBuffer();
      const refusal = refusals.get(read.request);
      const answer = new Response(body, { status: response.status, headers: response.headers });
      return refusal ? signInAgain(answer, auth.challenge(request, refusal)) : answer;
    } finally {
      inFlight.leave();
    }
  };
}

/**
 * A POST's JSON-RPC message, its size and shape checked before it is parsed (argument-bounds.ts), then parsed once
 * for the handler; the request handed on carries the same body. A body over the bounds is answered 413 here.
 */
async function boundedMessage(
  request: Request,
  maxBytes: number,
): Promise<Response | { request: Request; parsed?: unknown }> {
  if (request.method !== 'POST') return { request };
  const text = await request.text();
  const problem =
    Buffer.byteLength(text) > maxBytes
      ? `The request is larger than ${maxBytes} bytes, more than this server accepts.`
      : bodyBoundsProblem(text);
  if (problem !== undefined)
    return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: problem } }, { status: 413 });
  const forwarded = new Request(request.url, {
    method: 'POST',
    headers: request.headers,
    body: text,
    signal: request.signal,
  });
  try {
    return { request: forwarded, parsed: JSON.parse(text) as unknown };
  } catch {
    // Not JSON: the handler answers with its parse error.
    return { request: forwarded };
  }
}

/** The rate-limit bucket of a request outside the per-user modes: who its token names, else where it came from. */
function callerKey(authInfo: AuthInfo | undefined, address: string | undefined): string {
  if (authInfo) {
    const subject = authInfo.extra?.['subject'];
    return typeof subject === 'string' && subject ? `subject:${subject}` : `client:${authInfo.clientId}`;
  }
  // Behind a proxy every call comes from the proxy's address unless TRUSTED_PROXY_HOPS names it (client-address.ts).
  return `peer:${address ?? 'unknown'}`;
}

/** The answer as it was, with HTTP 401 and the bearer challenge that sends the client to sign in again. */
function signInAgain(response: Response, challenge: string): Response {
  const headers = new Headers(response.headers);
  headers.set('WWW-Authenticate', challenge);
  return new Response(response.body, { status: 401, headers });
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

/**
 * Longer than the idle timeout of common load balancers (60 s on AWS ALB and GCP, 60–75 s elsewhere): a connection
 * the balancer still counts as open is never closed under it, which would answer a request with 502.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** Above the keep-alive timeout, as Node requires for a reused connection's next request. */
const HEADERS_TIMEOUT_MS = 66_000;

export function startHttp(settings: Settings): Promise<Server> {
  const http = settings.http;
  if (!http) throw new Error('HTTP settings missing');
  // Off this machine, without a list of its names, any site a browser visits could reach the server by DNS
  // rebinding: refuse to start rather than serve unchecked (`*` accepts every Host on purpose, behind a gateway).
  if (!LOOPBACK.has(http.host) && http.allowedHosts.length === 0)
    throw new Error(
      `Listening on ${http.host} needs the names clients reach this server by: set ${api.envPrefix}_ALLOWED_HOSTS (mcp.example.com,mcp.example.com:443), or * to accept any Host when a gateway in front checks it.`,
    );
  for (const line of settings.upstreamAuth ? perUserReport(routedTools) : []) log(line.level, line.text);
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
  const server = createHttpServer((request, response) => {
    const forwardedFor = request.headers['x-forwarded-for'];
    const peer = {
      address: clientAddress(
        request.socket.remoteAddress,
        Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor,
        http.trustedProxyHops,
      ),
    };
    // The body is refused past MAX_REQUEST_BYTES before anything parses it.
    void toNodeHandler(
      { fetch: (incoming) => fetchHandler(incoming, peer) },
      { maxRequestBodySize: settings.maxRequestBytes },
    )(request, response);
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
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
