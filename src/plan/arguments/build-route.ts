import { isJsonMediaType } from '../../kernel/media-types.js';
import type { ActionDraft } from '../drafts.js';
import type { ServerModel } from '../../model/api-model.js';
import type { RouteModel } from '../tool-plan.js';

/**
 * How the generated server turns an action's arguments into a request: the path template (without a `#fragment`,
 * which is never sent, and with literal query pairs split off), each argument's place and serialisation, the body
 * media type, the security alternatives and, for per-path or per-operation servers, the servers to use.
 */
export function buildRoute(draft: ActionDraft, apiServers: ServerModel[]): RouteModel {
  const { operation } = draft;
  const withoutFragment = operation.path.split('#')[0] ?? operation.path;
  const queryStart = withoutFragment.indexOf('?');
  const path = queryStart >= 0 ? withoutFragment.slice(0, queryStart) : withoutFragment;
  const fixedQuery: Array<[string, string]> = [];
  if (queryStart >= 0) for (const [key, value] of new URLSearchParams(withoutFragment.slice(queryStart + 1))) fixedQuery.push([key, value]);
  const success = operation.responses.filter((response) => /^2/.test(response.status));
  const accepts = [...new Set(success.flatMap((response) => response.contents.map((content) => content.mediaType)))];
  accepts.sort((a, b) => Number(isJsonMediaType(b)) - Number(isJsonMediaType(a)));
  // A pinned Accept (PagerDuty's versioned media type) goes first, but the response types stay acceptable: the
  // description's responses are in those, and an Accept naming only the pinned type would fail negotiation.
  const pinned = operation.declaredHeaders ?? [];
  const accept = pinned.find(([name]) => name.toLowerCase() === 'accept')?.[1];
  if (accept) accepts.splice(0, accepts.length, accept, ...accepts.filter((type) => type !== accept));
  const headers = pinned.filter(([name]) => name.toLowerCase() !== 'accept');
  return {
    method: operation.method,
    path: encodeStaticPath(path || '/'),
    fixedQuery,
    arguments: draft.arguments.map((argument) => argument.route),
    ...(draft.body ? { body: { mediaType: draft.body.media.mediaType, kind: draft.body.media.kind, required: draft.body.required } } : {}),
    security: operation.security,
    ...(ownServers(operation.servers, apiServers) ? { servers: operation.servers } : {}),
    accepts,
    ...(headers.length > 0 ? { headers } : {}),
  };
}

/** Whether an operation's servers differ from the API's (most operations have the API's own list, the same object). */
function ownServers(servers: ServerModel[], apiServers: ServerModel[]): boolean {
  return servers !== apiServers && JSON.stringify(servers) !== JSON.stringify(apiServers);
}

/**
 * Percent-encodes the literal parts of a path template that a URL path cannot hold as they are (spaces, line breaks,
 * quotes, backticks, stray braces). A URL parser would otherwise drop or rewrite them, and the request would reach a
 * path the description never named. `{name}` placeholders and existing `%XX` escapes are kept.
 */
export function encodeStaticPath(template: string): string {
  return template
    .replace(/[\uD800-\uDFFF]/gu, '\uFFFD') // an unpaired surrogate has no UTF-8 form to percent-encode
    .split(/(\{[^{}]+\})/)
    .map((part, index) =>
      index % 2 === 1 ? part : part.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (char) => encodeURIComponent(char)),
    )
    .join('');
}
