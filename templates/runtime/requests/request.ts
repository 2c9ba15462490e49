// Builds the HTTP request of an action from tool arguments.
// Requests never leave the configured base URL: path arguments are encoded segment by segment, dot segments are
// refused, and the final URL is checked against the base before anything is sent.

import { api } from '../../api.js';
import type { Settings } from '../config/settings.js';
import { ArgumentError, ConfigurationError } from '../core/errors.js';
import type { ActionRoute, OutgoingRequest, ServerVariable } from '../core/types.js';
import { applyCredentials } from '../credentials/auth.js';
import { callerOf } from '../credentials/callers.js';
import { buildBody } from './body.js';
import { serializeCookie, serializeHeader, serializePath, serializeQuery } from './serialize.js';

// Header values are bytes: a version such as APIs.guru's Stripe date (cut with an ellipsis) would make fetch throw.
const USER_AGENT = `${api.name}/${api.version} (openapi-to-mcp)`.replace(/[^\x20-\x7e]/g, '');

export async function buildRequest(
  route: ActionRoute,
  args: Record<string, unknown>,
  settings: Settings,
  env: NodeJS.ProcessEnv = process.env,
): Promise<OutgoingRequest> {
  const base = baseUrl(route, settings, env);
  const url = new URL(joinPath(base, fillPath(route, args)));
  assertInside(url, base);
  const query: string[] = (route.fixedQuery ?? []).map(
    ([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`,
  );
  const headers = new Headers({ 'User-Agent': USER_AGENT, Accept: acceptHeader(route.accepts) });
  for (const [name, value] of route.headers ?? []) headers.set(name, value);
  const cookies: string[] = [];
  for (const argument of route.arguments) {
    const value = args[argument.arg];
    if (value === undefined || value === null) continue;
    if ((argument.in === 'query' || argument.in === 'cookie') && argument.explode && !argument.json)
      checkExplodedKeys(route, argument, value);
    if (argument.in === 'query') {
      const serialized = argument.json ? JSON.stringify(value) : value;
      query.push(
        ...serializeQuery(argument.name, serialized, argument.style, argument.explode, argument.allowReserved),
      );
    } else if (argument.in === 'header') {
      headers.set(
        argument.name,
        checkHeaderValue(
          argument.arg,
          argument.json ? JSON.stringify(value) : serializeHeader(value, argument.explode),
        ),
      );
    } else if (argument.in === 'cookie') {
      cookies.push(
        ...serializeCookie(argument.name, value, argument.explode).map((pair) => checkHeaderValue(argument.arg, pair)),
      );
    }
  }
  if (query.length > 0) url.search = query.join('&');
  await applyCredentials(route, url, headers, cookies, env, callerOf(settings));
  if (cookies.length > 0) headers.set('Cookie', cookies.join('; '));
  const { body, contentType } = await buildBody(route, args, settings.uploadDir);
  if (contentType) headers.set('Content-Type', contentType);
  return { method: route.method.toUpperCase(), url, headers, ...(body !== undefined ? { body } : {}), baseUrl: base };
}

function acceptHeader(accepts: string[]): string {
  return accepts.length > 0 ? [...accepts.slice(0, 4), '*/*;q=0.1'].join(', ') : 'application/json, */*;q=0.1';
}

/**
 * The base URL: the configured one, else the route's or the API's first server, with its `{variables}` filled from
 * `<PREFIX>_SERVER_<NAME>` or the description's defaults (Sentry's `https://{region}.sentry.io`).
 */
export function baseUrl(route: ActionRoute, settings: Settings, env: NodeJS.ProcessEnv = process.env): URL {
  if (settings.baseUrl) return new URL(fillVariables(settings.baseUrl, api.servers[0]?.variables ?? [], env));
  const server = route.servers?.[0] ?? api.servers[0];
  const resolved = server ? fillVariables(server.url, server.variables ?? [], env) : '';
  if (!/^https?:\/\//i.test(resolved)) {
    throw new ConfigurationError(
      `The description gives no absolute server URL${resolved ? ` (it says ${JSON.stringify(resolved)})` : ''}: set ${api.envPrefix}_BASE_URL or pass --base-url.`,
    );
  }
  return new URL(resolved);
}

/** Checks at start that the base URL calls will use has every `{variable}` filled; throws naming the one that is not. */
export function checkBaseUrl(settings: Settings, env: NodeJS.ProcessEnv = process.env): void {
  const server = api.servers[0];
  const template = settings.baseUrl ?? server?.url;
  if (template?.includes('{')) fillVariables(template, server?.variables ?? [], env);
}

/** The variable that fills `{name}`: `<PREFIX>_SERVER_<NAME>`. */
export function serverVariableEnv(name: string): string {
  return `${api.envPrefix}_SERVER_${name.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}`;
}

/** Fills every `{name}` of a URL template from its variable, else the description's default. */
function fillVariables(template: string, variables: ServerVariable[], env: NodeJS.ProcessEnv): string {
  return template.replace(/\{([^{}\/]+)\}/g, (_match, name: string) => {
    const variable = variables.find((candidate) => candidate.name === name);
    const value = env[serverVariableEnv(name)]?.trim() || variable?.default || '';
    if (value === '') {
      throw new ConfigurationError(
        `The base URL ${template} needs a value for {${name}}: set ${serverVariableEnv(name)}${variable?.enum?.length ? ` (one of ${variable.enum.join(', ')})` : ''}.`,
      );
    }
    if (variable?.enum && variable.enum.length > 0 && !variable.enum.includes(value)) {
      throw new ConfigurationError(
        `Server variable ${name} (${serverVariableEnv(name)}) must be one of ${variable.enum.join(', ')}, not ${JSON.stringify(value)}.`,
      );
    }
    return value;
  });
}

/** Fills `{name}` placeholders; each value becomes exactly one encoded path segment (or part of one). */
function fillPath(route: ActionRoute, args: Record<string, unknown>): string {
  return route.path.replace(/\{([^{}]+)\}/g, (_match, name: string) => {
    const argument = route.arguments.find((candidate) => candidate.in === 'path' && candidate.name === name);
    const value = argument ? args[argument.arg] : undefined;
    if (!argument || value === undefined || value === null || value === '') {
      throw new ArgumentError(`Argument "${argument?.arg ?? name}" is required: it fills {${name}} in ${route.path}.`);
    }
    if (argument.in !== 'path') throw new ArgumentError(`Argument "${argument.arg}" cannot fill the path.`);
    const segment = serializePath(argument.name, value, argument.style, argument.explode);
    if (/^\.{1,2}$/.test(segment) || /^(%2e|\.){1,2}$/i.test(segment)) {
      throw new ArgumentError(
        `Argument "${argument.arg}" cannot be ${JSON.stringify(String(value))}: dot segments would change the path.`,
      );
    }
    return segment;
  });
}

function joinPath(base: URL, path: string): string {
  const prefix = base.href.replace(/[?#].*$/, '').replace(/\/+$/, '');
  return `${prefix}${path.startsWith('/') ? path : `/${path}`}`;
}

/** The final URL must have the base's scheme, host and port, and lie under its path. */
function assertInside(url: URL, base: URL): void {
  const basePath = base.pathname.replace(/\/+$/, '');
  if (url.origin !== base.origin || (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`))) {
    throw new ArgumentError('The arguments would send the request outside the API base URL; check the path arguments.');
  }
}

/**
 * An exploded object argument (`?a=1&b=2`, cookies `a=1; b=2`) chooses the names of what it sends: it must not name
 * another parameter of the request, nor a credential sent there, which it would shadow or come before (an API that
 * reads the first `api_key` would read the argument's).
 */
function checkExplodedKeys(route: ActionRoute, argument: ActionRoute['arguments'][number], value: unknown): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  if (argument.in !== 'query' && argument.in !== 'cookie') return;
  if (argument.in === 'query' && argument.style === 'deepObject') return;
  const taken = new Set<string>();
  for (const other of route.arguments)
    if (other !== argument && other.in === argument.in) taken.add(other.name.toLowerCase());
  for (const credential of api.credentials)
    if (credential.kind === 'apiKey' && credential.in === argument.in) taken.add(credential.name.toLowerCase());
  for (const key of Object.keys(value))
    if (taken.has(key.toLowerCase()))
      throw new ArgumentError(
        `Argument "${argument.arg}" cannot hold the key ${JSON.stringify(key)}: another parameter or a credential of this request is sent under that ${argument.in === 'query' ? 'query' : 'cookie'} name. Remove the key and call again.`,
      );
}

/** Header values may not carry line breaks or other control characters (header injection), nor non-ASCII text. */
function checkHeaderValue(arg: string, value: string): string {
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value))
    throw new ArgumentError(
      `Argument "${arg}" contains a line break or control character, which a header cannot carry.`,
    );
  if (/[^\u0000-\u007f]/.test(value))
    throw new ArgumentError(
      `Argument "${arg}" contains non-ASCII characters, which a header cannot carry; transliterate or encode it.`,
    );
  return value;
}
