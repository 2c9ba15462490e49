// Sends a request with a timeout per attempt and one for the whole call, bounded retries for idempotent methods, a
// cap on what is read into memory, and redirects followed only inside the API's base URL.

import type { Settings } from '../config/settings.js';
import { log } from '../core/log.js';
import { redact, scrubBytes, trimSecretPrefix } from '../core/redact.js';
import type { OutgoingRequest } from '../core/types.js';

export type UpstreamResponse = {
  status: number;
  statusText: string;
  headers: Headers;
  body: Uint8Array;
  /** The body was longer than the limit and was cut. */
  truncated: boolean;
  url: URL;
  /** A redirect that leaves the API's base URL, reported rather than followed (credentials would go along). */
  redirectedTo?: string;
};

export class UpstreamFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'network' | 'cancelled' | 'redirects',
    /** The request may have reached the API before the failure (sent, then no complete answer). */
    readonly mayHaveArrived = false,
  ) {
    super(message);
    this.name = 'UpstreamFailure';
  }
}

/**
 * Failures after a connection was made, when the API may have read the request: the connection broke or went quiet
 * (reset, closed, no headers or body in time). Any other failure (refused, no such host, a certificate refused, a
 * port fetch does not use) happened before anything was sent.
 */
const AFTER_SENDING = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);
const RETRY_STATUS = new Set([429, 502, 503, 504]);
const MAX_RETRY_WAIT_MS = 10_000;
const MAX_REDIRECTS = 5;

/**
 * `settings.totalTimeoutMs` bounds the whole call, attempts and waits between them: by default it ends well before
 * the 60 s after which MCP clients give up on a call, so that the model gets this server's answer, not a timeout.
 */
export async function send(
  request: OutgoingRequest,
  settings: Settings,
  signal?: AbortSignal,
): Promise<UpstreamResponse> {
  const retries = IDEMPOTENT.has(request.method) ? settings.retries : 0;
  const deadline = Date.now() + settings.totalTimeoutMs;
  const left = () => deadline - Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await sendOnce(request, settings, Math.min(settings.timeoutMs, left()), signal);
      const wait = retryDelay(response, attempt);
      if (
        attempt < retries &&
        RETRY_STATUS.has(response.status) &&
        wait !== undefined &&
        wait < left() - MIN_ATTEMPT_MS
      ) {
        log('info', `${request.method} ${request.url.pathname} answered ${response.status}; retrying in ${wait} ms`);
        await sleep(wait, signal);
        continue;
      }
      return response;
    } catch (error) {
      if (!(error instanceof UpstreamFailure) || error.kind === 'cancelled' || error.kind === 'redirects') throw error;
      const wait = backoff(attempt);
      if (attempt >= retries || wait >= left() - MIN_ATTEMPT_MS) throw error;
      log('info', `${request.method} ${request.url.pathname} failed (${error.message}); retrying`);
      await sleep(wait, signal);
    }
  }
}

/** An attempt with less time than this left is not started: it could only time out. */
const MIN_ATTEMPT_MS = 1_000;

async function sendOnce(
  request: OutgoingRequest,
  settings: Settings,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<UpstreamResponse> {
  const timeout = AbortSignal.timeout(Math.max(1, timeoutMs));
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let url = request.url;
  let method = request.method;
  let body = request.body;
  try {
    for (let hop = 0; ; hop++) {
      const response = await fetch(url, {
        method,
        headers: request.headers,
        ...(body !== undefined ? { body } : {}),
        redirect: 'manual',
        signal: combined,
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS)
          throw new UpstreamFailure(
            `more than ${MAX_REDIRECTS} redirects from ${request.url.pathname} (a redirect loop)`,
            'redirects',
          );
        const next = new URL(location, url);
        // Credentials and the body go only where the request itself may go: under the API's base URL.
        if (!inside(next, request.baseUrl ?? request.url)) {
          return {
            body: new Uint8Array(),
            truncated: false,
            status: response.status,
            statusText: response.statusText,
            headers: response.headers,
            url,
            // The Location may carry what the request carried (a key in the query): it is shown to the model.
            redirectedTo: redact(next.href),
          };
        }
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        url = next;
        continue;
      }
      const read = await readBody(response, settings.maxResponseBytes);
      return { ...read, status: response.status, statusText: response.statusText, headers: response.headers, url };
    }
  } catch (error) {
    if (error instanceof UpstreamFailure) throw error;
    if (signal?.aborted) throw new UpstreamFailure('the call was cancelled', 'cancelled', true);
    if (timeout.aborted)
      throw new UpstreamFailure(`no complete answer from ${url.host} within ${timeoutMs} ms`, 'timeout', true);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const code = cause?.code ?? '';
    // The host tells a user which base URL (and which filled server variables) the server tried.
    throw new UpstreamFailure(
      `${cause?.code ?? cause?.message ?? (error as Error).message} at ${url.host}`,
      'network',
      AFTER_SENDING.has(code),
    );
  }
}

/** Whether a URL lies under a base: the same scheme, host and port, and the base's path or below. */
function inside(url: URL, base: URL): boolean {
  const basePath = base.pathname.replace(/\/+$/, '');
  return url.origin === base.origin && (url.pathname === basePath || url.pathname.startsWith(`${basePath}/`));
}

/** Reads at most `limit` bytes; the rest of a larger body is discarded and the result marked as cut. */
async function readBody(response: Response, limit: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  if (!response.body) return { body: new Uint8Array(), truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      chunks.push(value.subarray(0, limit - size));
      size = limit;
      await reader.cancel();
      return { body: trimSecretPrefix(scrubBytes(Buffer.concat(chunks))), truncated: true };
    }
    chunks.push(value);
    size += value.byteLength;
  }
  // Scrubbed here, once, before hooks, results or error texts see the body in any encoding.
  return { body: scrubBytes(Buffer.concat(chunks)), truncated: false };
}

/** Milliseconds to wait before a retry, honouring Retry-After; undefined when the wait would be too long. */
function retryDelay(response: UpstreamResponse, attempt: number): number | undefined {
  const header = response.headers.get('retry-after');
  if (!header) return backoff(attempt);
  const seconds = Number(header);
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  if (!Number.isFinite(wait)) return backoff(attempt);
  return wait <= MAX_RETRY_WAIT_MS ? Math.max(0, wait) : undefined;
}

function backoff(attempt: number): number {
  return Math.min(250 * 4 ** attempt, 4000);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new UpstreamFailure('the call was cancelled', 'cancelled'));
      },
      { once: true },
    );
  });
}
