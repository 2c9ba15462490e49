// Cloudflare Workers entry: the same stateless MCP endpoint as `node dist/main.js --http`, as a Worker's fetch handler
// (/mcp, /healthz, Host/Origin checks, optional bearer tokens, Mcp-Param-* header validation). Settings come from the
// Worker's variables and secrets under the names in .env.example: `[vars]` in wrangler.toml for plain settings,
// `wrangler secret put NAME` for credentials. With the nodejs_compat flag they are also visible as process.env,
// where the request builder reads credentials. Tool input is validated by Ajv, whose validators are generated code;
// workerd allows generating code only while the script starts, so the input schemas' validators are compiled at
// module scope, and the argument checks (larger: compiling them took seconds for big APIs, while a Worker must start
// within one) come compiled by the build, in dist/argument-validators.js (scripts/argument-validators.mjs).

import { api } from './api.js';
import { argumentValidators } from './argument-validators.js';
import { useArgumentValidators } from './runtime/arguments/check-arguments.js';
import { dropPlaceholders } from './runtime/config/placeholders.js';
import { loadSettings } from './runtime/config/settings.js';
import { setLogLevel } from './runtime/core/log.js';
import { registerCredentialSecrets } from './runtime/credentials/auth.js';
import { checkBaseUrl } from './runtime/requests/request.js';
import { createFetchHandler } from './runtime/serving/serve-http.js';
import { compileValidators } from './runtime/serving/server.js';

type FetchHandler = ReturnType<typeof createFetchHandler>;

compileValidators();
useArgumentValidators((position) => argumentValidators[position]);

// One handler per isolate: settings are read once, and each request still gets a fresh McpServer (stateless).
let handler: FetchHandler | undefined;

export default {
  async fetch(request: Request, env: Record<string, unknown>): Promise<Response> {
    try {
      handler ??= createHandler(env);
    } catch (error) {
      // A configuration error (a malformed variable) is the operator's to fix; say which, without any secret.
      const message = error instanceof Error ? error.message : String(error);
      return Response.json({ error: `Server misconfigured: ${message}` }, { status: 500 });
    }
    // Cloudflare sets this header itself (a client's own is replaced), so it names the client, as a socket would.
    const address = request.headers.get('cf-connecting-ip') ?? undefined;
    return handler(request, { address });
  },
};

function createHandler(env: Record<string, unknown>): FetchHandler {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (typeof value === 'string') variables[name] = value;
  dropPlaceholders(variables);
  // The host only decides whether localhost defaults apply; Workers are public, so ALLOWED_HOSTS is what counts.
  const settings = loadSettings({ http: true, host: '0.0.0.0', help: false, version: false }, variables);
  // The Redis client speaks TCP from a Node process; say so rather than start without replay detection.
  if (settings.upstreamAuth?.mode === 'oauth' && settings.upstreamAuth.storeUrl)
    throw new Error(
      `${api.envPrefix}_STORE_URL is not supported in a Worker: unset it (the README says what holds without a store), or run the Node server.`,
    );
  setLogLevel(settings.logLevel);
  checkBaseUrl(settings, variables);
  registerCredentialSecrets(variables);
  if (!settings.http) throw new Error('HTTP settings missing');
  return createFetchHandler(settings, settings.http);
}
