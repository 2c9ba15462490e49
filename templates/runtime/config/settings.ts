// Runtime settings from command-line flags and environment variables.

import { api } from '../../api.js';
import type { Caller } from '../credentials/callers.js';
import type { McpAuthSettings } from '../credentials/mcp-auth.js';
import { confirmationSettings, type ConfirmationSettings } from './confirmation-settings.js';
import { stateKeysFor, type StateKeys } from './state-keys.js';
import { checkedUrl, publicOrigin, upstreamAuthSettings, type UpstreamAuthSettings } from './upstream-auth.js';

export type Settings = {
  /** Overrides the description's server URL. */
  baseUrl?: string;
  /** One attempt at most. */
  timeoutMs: number;
  /** The whole call at most: attempts and the waits between them. */
  totalTimeoutMs: number;
  retries: number;
  /** Bytes of a response body read into memory at most. */
  maxResponseBytes: number;
  /** Approximate tokens of a result before it is cut, well under the 25,000 some clients enforce. */
  maxResultTokens: number;
  /** Folder from which file arguments may be read by path; unset: files only as base64. */
  uploadDir?: string;
  /** Tool calls per minute (0: unlimited). */
  rateLimitPerMinute: number;
  /** Tool calls handled at once over HTTP. */
  maxConcurrentCalls: number;
  /** Bytes of an HTTP request body at most, refused before it is parsed. */
  maxRequestBytes: number;
  http?: {
    port: number;
    host: string;
    allowedHosts: string[];
    allowedOrigins: string[];
    /** Proxies in front that append the client's address to `X-Forwarded-For` (client-address.ts); 0: none. */
    trustedProxyHops: number;
    /** Bearer-token protection of /mcp; unset: the endpoint is open (fine on 127.0.0.1). */
    auth?: McpAuthSettings;
  };
  logLevel: 'error' | 'warn' | 'info' | 'debug';
  /** Whether destructive actions are confirmed with the user first (confirmation.ts). */
  confirmation: ConfirmationSettings;
  /** Calls the API as each signed-in user (`<PREFIX>_UPSTREAM_AUTH`); unset: with the environment's credentials. */
  upstreamAuth?: UpstreamAuthSettings;
  /** Keys of long-running operations' status handles (`<PREFIX>_STATE_KEYS`, state-keys.ts); see operation-handles.ts. */
  handleKeys: StateKeys;
  /** Set per request, never at start: the signed-in user a call is made for, with their token for the API. */
  caller?: Caller;
};

export const USAGE = `Usage: ${api.name} [--http] [--port N] [--host H] [--base-url URL]

MCP server for ${api.title} ${api.version}.

  (no flags)        serve MCP over stdio (for Claude Desktop, Claude Code, Cursor, VS Code)
  --http            serve MCP over Streamable HTTP at /mcp instead
  --port N          HTTP port (default 3000, or ${api.envPrefix}_PORT)
  --host H          HTTP interface (default 127.0.0.1, or ${api.envPrefix}_HOST)
  --base-url URL    API base URL (default from the description, or ${api.envPrefix}_BASE_URL)
  --help            show this help
  --version         show the version

Environment variables are listed in .env.example.`;

type Flags = { http: boolean; port?: string; host?: string; baseUrl?: string; help: boolean; version: boolean };

export function parseFlags(argv: string[]): Flags {
  const flags: Flags = { http: false, help: false, version: false };
  for (let index = 0; index < argv.length; index++) {
    const [name, inline] = (argv[index] ?? '').split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => inline ?? argv[++index];
    if (name === '--http') flags.http = true;
    else if (name === '--port') flags.port = value();
    else if (name === '--host') flags.host = value();
    else if (name === '--base-url') flags.baseUrl = value();
    else if (name === '--help' || name === '-h') flags.help = true;
    else if (name === '--version' || name === '-v') flags.version = true;
    else if (name === 'stdio') continue;
    else throw new Error(`Unknown option ${name}. Run with --help to see the options.`);
  }
  return flags;
}

/** Settings from flags first, then `<PREFIX>_…` environment variables, then defaults. */
export function loadSettings(flags: Flags, env: NodeJS.ProcessEnv = process.env): Settings {
  const read = (name: string) => env[`${api.envPrefix}_${name}`]?.trim() || undefined;
  const variable = (name: string) => `${api.envPrefix}_${name}`;
  const number = (name: string, fallback: number) => {
    const raw = read(name);
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(value) || value < 0)
      throw new Error(`${api.envPrefix}_${name} must be a non-negative number, not ${JSON.stringify(raw)}.`);
    return value;
  };
  const list = (name: string) =>
    (read(name) ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  const baseUrl = flags.baseUrl ?? read('BASE_URL');
  if (baseUrl !== undefined && !/^https?:\/\//i.test(baseUrl))
    throw new Error(`The base URL must start with http:// or https://, not ${JSON.stringify(baseUrl)}.`);
  const uploadDir = read('UPLOAD_DIR');
  const logLevel = read('LOG_LEVEL') ?? 'warn';
  if (!['error', 'warn', 'info', 'debug'].includes(logLevel))
    throw new Error(`${api.envPrefix}_LOG_LEVEL must be error, warn, info or debug.`);
  const settings: Settings = {
    ...(baseUrl ? { baseUrl } : {}),
    timeoutMs: number('TIMEOUT_MS', 30_000),
    // Under the 60 s after which MCP clients give up on a call: the model gets this server's answer instead.
    totalTimeoutMs: number('TOTAL_TIMEOUT_MS', 50_000),
    retries: number('RETRIES', 2),
    maxResponseBytes: number('MAX_RESPONSE_BYTES', 10 * 1024 * 1024),
    maxResultTokens: number('MAX_RESULT_TOKENS', 10_000),
    ...(uploadDir ? { uploadDir } : {}),
    rateLimitPerMinute: number('RATE_LIMIT', 600),
    maxConcurrentCalls: number('MAX_CONCURRENCY', 32),
    maxRequestBytes: number('MAX_REQUEST_BYTES', 4 * 1024 * 1024),
    logLevel: logLevel as Settings['logLevel'],
    confirmation: confirmationSettings(read, variable, api.confirm),
    handleKeys: stateKeysFor('handles', read, variable),
  };
  if (flags.http) {
    const port = Number(flags.port ?? read('PORT') ?? env['PORT'] ?? 3000);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new Error(`The port must be a number from 0 to 65535.`);
    const auth = mcpAuthSettings(read, list);
    const upstreamAuth = upstreamAuthSettings(read, true, auth);
    if (upstreamAuth) settings.upstreamAuth = upstreamAuth;
    settings.http = {
      port,
      host: flags.host ?? read('HOST') ?? '127.0.0.1',
      allowedHosts: list('ALLOWED_HOSTS'),
      allowedOrigins: list('ALLOWED_ORIGINS'),
      trustedProxyHops: proxyHops(read),
      ...(auth ? { auth } : {}),
    };
  } else {
    // Over stdio only `env` makes sense: this refuses the per-user modes with a message saying why.
    upstreamAuthSettings(read, false, undefined);
  }
  return settings;
}

/** Most proxies a request passes on its way here that a deployment can name; more is a typo. */
const MAX_PROXY_HOPS = 10;

function proxyHops(read: (name: string) => string | undefined): number {
  const raw = read('TRUSTED_PROXY_HOPS');
  const hops = raw === undefined ? 0 : Number(raw);
  if (!Number.isInteger(hops) || hops < 0 || hops > MAX_PROXY_HOPS)
    throw new Error(
      `${api.envPrefix}_TRUSTED_PROXY_HOPS must be a whole number from 0 to ${MAX_PROXY_HOPS} (the proxies in front of this server that append to X-Forwarded-For), not ${JSON.stringify(raw)}.`,
    );
  return hops;
}

/**
 * `<PREFIX>_MCP_AUTH_*`: protection of the MCP endpoint itself, separate from the API credentials. On when a token
 * list or an introspection URL is set.
 */
function mcpAuthSettings(
  read: (name: string) => string | undefined,
  list: (name: string) => string[],
): McpAuthSettings | undefined {
  const tokens = list('MCP_AUTH_TOKENS');
  const introspectionUrl = read('MCP_AUTH_INTROSPECTION_URL');
  const issuer = read('MCP_AUTH_ISSUER');
  const resource = read('MCP_AUTH_RESOURCE');
  const scopes = (read('MCP_AUTH_SCOPES') ?? '').split(/[\s,]+/).filter(Boolean);
  const clientId = read('MCP_AUTH_CLIENT_ID');
  const clientSecret = read('MCP_AUTH_CLIENT_SECRET');
  if (tokens.length === 0 && !introspectionUrl) {
    if (issuer || resource || scopes.length > 0 || clientId)
      throw new Error(
        `${api.envPrefix}_MCP_AUTH_* is incomplete: set ${api.envPrefix}_MCP_AUTH_TOKENS or ${api.envPrefix}_MCP_AUTH_INTROSPECTION_URL.`,
      );
    return undefined;
  }
  for (const [name, value] of [
    ['MCP_AUTH_INTROSPECTION_URL', introspectionUrl],
    ['MCP_AUTH_ISSUER', issuer],
    ['MCP_AUTH_RESOURCE', resource],
  ] as const) {
    if (value !== undefined) checkedUrl(`${api.envPrefix}_${name}`, value);
  }
  // The audience introspected tokens must name (RFC 8707) comes from configuration, never from a request's Host
  // header: a token issued for another server, on another port of the same host too, is refused.
  const origin = publicOrigin(read);
  const audience = resource ?? (origin ? `${origin}/mcp` : undefined);
  if (introspectionUrl && !audience)
    throw new Error(
      `${api.envPrefix}_MCP_AUTH_INTROSPECTION_URL checks that each token was issued for this server: set ${api.envPrefix}_PUBLIC_URL to the origin clients reach it at (https://mcp.example.com), or ${api.envPrefix}_MCP_AUTH_RESOURCE to its full /mcp URL.`,
    );
  return {
    tokens,
    ...(introspectionUrl ? { introspectionUrl } : {}),
    ...(clientId ? { clientId } : {}),
    ...(clientSecret ? { clientSecret } : {}),
    ...(issuer ? { issuer } : {}),
    ...(audience ? { resource: audience } : {}),
    scopes,
  };
}
