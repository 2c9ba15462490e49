import type { ActionModel } from '../../src/plan/tool-plan.js';
import type { Exchange } from './proxy.js';

export type Verdict = { accepted: true } | { accepted: false; reason: string };

type Violation = { location?: string[]; severity?: string; code?: string | number; message?: string };

/**
 * Prism's own problem types that reject the request (invalid request, unacceptable Accept, bad credentials, wrong
 * content type, no route). The others (no response defined, schema too complex to mock) are about the mock's answer.
 */
const REQUEST_PROBLEMS = new Set([
  'UNPROCESSABLE_ENTITY',
  'NOT_ACCEPTABLE',
  'UNAUTHORIZED',
  'INVALID_CONTENT_TYPE',
  'NO_PATH_MATCHED_ERROR',
  'NO_METHOD_MATCHED_ERROR',
  'NO_SERVER_MATCHED_ERROR',
  'NO_RESOURCE_PROVIDED_ERROR',
  'NO_SERVER_CONFIGURATION_PROVIDED_ERROR',
  'NO_BASE_URL_ERROR',
]);

type Problem = { type?: string; title?: string; detail?: string; validation?: Violation[] };

/**
 * Prism's verdict on one request: rejected when it lists an error-severity violation of the request in
 * `sl-violations` (Prism also lists violations of the mock response it made up, which say nothing about the
 * request), or when it answers with one of its own problem documents (no route for the path or method, no
 * credentials).
 */
export function prismVerdict(exchange: Exchange): Verdict {
  const header = exchange.responseHeaders['sl-violations'];
  if (typeof header === 'string' && header !== '') {
    const errors = requestViolations(header);
    if (errors.length > 0) return { accepted: false, reason: errors.join('; ') };
  }
  const problem = prismProblem(exchange);
  if (problem && REQUEST_PROBLEMS.has(problem.type?.replace(/^.*#/, '') ?? '')) {
    const details = (problem.validation ?? [])
      .filter((violation) => violation.severity === 'Error' || violation.severity === undefined)
      .map((violation) => `request.${(violation.location ?? []).join('.')}: ${violation.message ?? violation.code ?? '?'}`);
    return {
      accepted: false,
      reason: details.length > 0 ? details.join('; ') : `${exchange.status} ${problem.title ?? ''}: ${problem.detail ?? ''}`,
    };
  }
  return { accepted: true };
}

function prismProblem(exchange: Exchange): Problem | undefined {
  if (!String(exchange.responseHeaders['content-type'] ?? '').includes('problem+json')) return undefined;
  try {
    const problem = JSON.parse(exchange.responseBody) as Problem;
    return problem.type?.startsWith('https://stoplight.io/prism/errors#') ? problem : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Error-severity request violations from an `sl-violations` header. Prism cuts a long list and prefixes it with
 * "Too many violations!", leaving JSON that does not parse; the violations are then read one by one.
 */
function requestViolations(header: string): string[] {
  let violations: Violation[];
  try {
    violations = JSON.parse(header.replace(/^Too many violations!\s*/, '')) as Violation[];
  } catch {
    violations = [
      ...header.matchAll(/\{"location":(\[[^\]]*\]),"severity":"(\w+)"(?:,"code":(?:"[^"]*"|\d+))?,"message":"((?:[^"\\]|\\.)*)"/g),
    ].map((match) => ({
      location: JSON.parse(match[1] ?? '[]') as string[],
      severity: match[2],
      message: JSON.parse(`"${match[3] ?? ''}"`) as string,
    }));
  }
  return violations
    .filter((violation) => violation.location?.[0] === 'request' && (violation.severity === 'Error' || violation.severity === undefined))
    .map((violation) => `${(violation.location ?? []).join('.')}: ${violation.message ?? violation.code ?? '?'}`);
}

/**
 * Our own check, for descriptions Prism cannot load: the method is the operation's, the path matches its template
 * (every placeholder filled, no literal braces left), and a JSON body parses.
 */
export function recordedVerdict(action: ActionModel, exchange: Exchange): Verdict {
  const url = new URL(exchange.url, 'http://upstream.local');
  if (exchange.method !== action.route.method.toUpperCase())
    return { accepted: false, reason: `method ${exchange.method}, expected ${action.route.method.toUpperCase()}` };
  const pattern = new RegExp(
    `^${action.route.path
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  );
  if (!pattern.test(url.pathname) || /[{}]/.test(decodeURIComponent(url.pathname)))
    return { accepted: false, reason: `path ${url.pathname} does not match ${action.route.path}` };
  for (const [key, value] of action.route.fixedQuery)
    if (url.searchParams.get(key) !== value) return { accepted: false, reason: `fixed query ${key}=${value} missing` };
  if (String(exchange.headers['content-type'] ?? '').includes('json') && exchange.body.length > 0) {
    try {
      JSON.parse(exchange.body.toString('utf8'));
    } catch {
      return { accepted: false, reason: 'the JSON body does not parse' };
    }
  }
  return { accepted: true };
}
