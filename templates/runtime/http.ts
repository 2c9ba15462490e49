// Sends a request with a timeout, bounded retries for idempotent methods, a cap on what is read into memory, and
// redirects followed only within the same origin.

import { log } from './log.js';
import { redact, scrubBytes, trimSecretPrefix } from './redact.js';
import type { Settings } from './settings.js';
import type { OutgoingRequest } from './types.js';

export type UpstreamResponse = {
  status: number;
  statusText: string;
  headers: Headers;
  body: Uint8Array;
  /** The body was longer than the limit and was cut. */
  truncated: boolean;
  url: URL;
  /** A redirect to another origin, reported rather than followed. */
  redirectedTo?: string;
};

export class UpstreamFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'network' | 'cancelled',
  ) {
    super(message);
    this.name = 'UpstreamFailure';
  }
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);
const RETRY_STATUS = new Set([429, 502, 503, 504]);
const MAX_RETRY_WAIT_MS = 10_000;
const MAX_REDIRECTS = 5;

export async function send(
  request: OutgoingRequest,
  settings: Settings,
  signal?: AbortSignal,
): Promise<UpstreamResponse> {
  const retries = IDEMPOTENT.has(request.method) ? settings.retries : 0;
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await sendOnce(request, settings, signal);
      const wait = retryDelay(response, attempt);
      if (attempt < retries && RETRY_STATUS.has(response.status) && wait !== undefined) {
        log('info', `${request.method} ${request.url.pathname} answered ${response.status}; retrying in ${wait} ms`);
        await sleep(wait, signal);
        continue;
      }
      return response;
    } catch (error) {
      if (!(error instanceof UpstreamFailure) || error.kind === 'cancelled' || attempt >= retries) throw error;
      log('info', `${request.method} ${request.url.pathname} failed (${error.message}); retrying`);
      await sleep(backoff(attempt), signal);
    }
  }
}

async function sendOnce(request: OutgoingRequest, settings: Settings, signal?: AbortSignal): Promise<UpstreamResponse> {
  const timeout = AbortSignal.timeout(settings.timeoutMs);
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
      if (response.status >= 300 && response.status < 400 && location && hop < MAX_REDIRECTS) {
        const next = new URL(location, url);
        if (next.origin !== request.url.origin) {
          await response.body?.cancel();
          return {
            ...(await readBody(response, settings.maxResponseBytes)),
            status: response.status,
            statusText: response.statusText,
            headers: response.headers,
            url,
            // The Location may carry what the request carried (a key in the query): it is shown to the model.
            redirectedTo: redact(next.href),
          };
        }
        await response.body?.cancel();
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
    if (signal?.aborted) throw new UpstreamFailure('the call was cancelled', 'cancelled');
    if (timeout.aborted)
      throw new UpstreamFailure(`no complete answer from ${url.host} within ${settings.timeoutMs} ms`, 'timeout');
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    // The host tells a user which base URL (and which filled server variables) the server tried.
    throw new UpstreamFailure(`${cause?.code ?? cause?.message ?? (error as Error).message} at ${url.host}`, 'network');
  }
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
