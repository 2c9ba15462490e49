import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';

/**
 * The official MCP client's OAuth support, driven headlessly: an `OAuthClientProvider` that keeps what the client
 * stores in memory and, where a desktop client would open a browser, records the authorization URL for `Browser`.
 */
export class HeadlessOAuthProvider implements OAuthClientProvider {
  /** Set when the client wants the user to sign in. */
  authorizationUrl: URL | undefined;
  private information: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  private discovery: OAuthDiscoveryState | undefined;

  constructor(
    readonly clientName: string,
    readonly redirectUrl = 'http://127.0.0.1:9/callback',
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  /** Lets the client check that the code comes back from the authorization server it sent the user to. */
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

type Step = { method: string; url: string; status: number };

/**
 * A browser without a screen: follows redirects, keeps cookies per host and port, and submits the first form of each
 * page the way a person would (any login name and password at the development sign-in, "Allow" on consent pages).
 * It stops at the client's redirect URI and returns that URL.
 */
export class Browser {
  private readonly jars = new Map<string, Map<string, string>>();
  /** Every request made, for assertions on where the user went. */
  readonly steps: Step[] = [];

  constructor(private readonly login: string) {}

  /** Goes from the authorization URL to the client's redirect URI; `decision` answers this server's consent page. */
  async signIn(authorizationUrl: URL, redirectUri: string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
    let response = await this.request('GET', authorizationUrl);
    for (let step = 0; step < 30; step++) {
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        const next = new URL(location, response.url);
        if (next.href.startsWith(redirectUri)) return next;
        response = await this.request('GET', next);
        continue;
      }
      const html = await response.text();
      if (response.status !== 200) throw new Error(`sign-in stopped at ${response.url} (HTTP ${response.status}): ${html.slice(0, 300)}`);
      const form = firstForm(html, response.url);
      if (!form) throw new Error(`no form at ${response.url}: ${html.slice(0, 300)}`);
      if (form.fields.has('login')) {
        form.fields.set('login', this.login);
        form.fields.set('password', 'any password');
      }
      if (form.buttons.has('decision')) form.fields.set('decision', decision);
      response = await this.request('POST', form.action, form.fields, new URL(response.url).origin);
    }
    throw new Error('sign-in did not finish within 30 steps');
  }

  /** A request as this browser makes it: its cookies for the host, redirects not followed. */
  async request(method: string, url: URL, form?: URLSearchParams, origin?: string): Promise<Response> {
    const jar = this.jar(url);
    const headers: Record<string, string> = {};
    if (jar.size > 0) headers['cookie'] = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (origin) headers['origin'] = origin;
    const response = await fetch(url, { method, headers, redirect: 'manual', ...(form ? { body: form } : {}) });
    this.steps.push({ method, url: url.href, status: response.status });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || pair.slice(at + 1) === '';
      if (expired) jar.delete(name);
      else jar.set(name, pair.slice(at + 1).trim());
    }
    // fetch gives no URL to a manual redirect's response; keep the one asked for.
    Object.defineProperty(response, 'url', { value: url.href });
    return response;
  }

  cookies(url: URL): Map<string, string> {
    return this.jar(url);
  }

  private jar(url: URL): Map<string, string> {
    let jar = this.jars.get(url.host);
    if (!jar) this.jars.set(url.host, (jar = new Map()));
    return jar;
  }
}

type Form = { action: URL; fields: URLSearchParams; buttons: Set<string> };

function firstForm(html: string, base: string): Form | undefined {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const action = attribute(form[1] ?? '', 'action') ?? base;
  const fields = new URLSearchParams();
  const buttons = new Set<string>();
  for (const input of (form[2] ?? '').matchAll(/<(input|button)\b([^>]*)>/gi)) {
    const name = attribute(input[2] ?? '', 'name');
    if (!name) continue;
    if ((input[1] ?? '').toLowerCase() === 'button') buttons.add(name);
    else fields.set(name, attribute(input[2] ?? '', 'value') ?? '');
  }
  return { action: new URL(decodeEntities(action), base), fields, buttons };
}

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}="([^"]*)"`, 'i').exec(attributes);
  return match ? decodeEntities(match[1] ?? '') : undefined;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export type SignedIn = { client: Client; provider: HeadlessOAuthProvider; callback: URL };

/**
 * What a person does with a desktop MCP client and a server that needs sign-in: the client is refused (401), finds
 * the authorization server, registers and asks the user to sign in; the user does so in the browser; the client
 * redeems the code and connects again, now with a token.
 */
export async function signIn(mcpUrl: URL, user: string): Promise<SignedIn> {
  const provider = new HeadlessOAuthProvider(`${user}'s assistant`);
  const first = new Client({ name: `${user}-client`, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const firstTransport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  const refused = await first.connect(firstTransport).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!refused || !provider.authorizationUrl) throw new Error(`the client was not asked to sign in: ${String(refused)}`);
  const callback = await new Browser(user).signIn(provider.authorizationUrl, provider.redirectUrl);
  await firstTransport.finishAuth(callback.searchParams);
  const client = new Client({ name: `${user}-client`, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return { client, provider, callback };
}
