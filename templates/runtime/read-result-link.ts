// `resources/read` of a result link (result-link.ts): the read its URI names is sent again, as a tool call of the
// reader would be — the same tool, action and argument checks, the per-user modes' offer, the reader's credentials
// and rate limit — and the whole answer comes back instead of the cut preview. Any replica can answer: the URI
// holds all there is to know.

import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { routedTools } from '../tools/routed.js';
import { callTool, checkCall, type AnswerOf } from './call-tool.js';
import { offeredPerUser } from './per-user-tools.js';
import type { RateLimiter } from './rate-limit.js';
import { redactJson, redactSecrets } from './redact.js';
import { isJson, isTextual, looksLikeJson } from './results.js';
import { parseResultLink, RESULT_LINK_TEMPLATE } from './result-link.js';
import type { Settings } from './settings.js';

export function registerResultLinks(server: McpServer, settings: Settings, limiter: RateLimiter): void {
  server.registerResource(
    'result',
    new ResourceTemplate(RESULT_LINK_TEMPLATE, { list: undefined }),
    {
      title: 'Whole answer of a cut result',
      description:
        'A read whose result was cut for size, answered in full: results give these links; the API is called again when one is read.',
    },
    async (uri, _variables, context) => readResultLink(uri, settings, limiter, context.mcpReq.signal),
  );
}

async function readResultLink(
  uri: URL,
  settings: Settings,
  limiter: RateLimiter,
  signal: AbortSignal,
): Promise<ReadResourceResult> {
  const request = parseResultLink(uri);
  if ('problem' in request) throw notFound(uri, request.problem);
  const tool = routedTools.find((candidate) => candidate.name === request.tool);
  const exists = tool !== undefined && Object.hasOwn(tool.actions, request.action);
  if (!tool || !exists || (settings.upstreamAuth && !offeredPerUser(tool, request.action)))
    throw notFound(
      uri,
      `This server has no action ${JSON.stringify(request.action)} of a tool ${JSON.stringify(request.tool)}.`,
    );
  // Only reads are linked: a link is never a way to call a tool that changes anything.
  if (tool.annotations.readOnlyHint !== true)
    throw notFound(uri, `${request.tool} changes data, so no result link reads it.`);
  const wait = limiter.take();
  if (wait !== undefined)
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `Too many calls: this server allows ${settings.rateLimitPerMinute} per minute. Wait ${wait} seconds and read the link again.`,
    );
  const input: Record<string, unknown> = Object.assign(Object.create(null), request.arguments);
  if (request.action) input['action'] = request.action;
  const checked = await checkCall(tool, input);
  if (!checked.ok)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `The link's request is not valid: ${checked.problem}`, {
      uri: uri.href,
    });
  const result = await callTool(tool, input, settings, signal, wholeAnswer(uri.href));
  const failure = result.isError ? result.content.find((item) => item.type === 'text') : undefined;
  // The API refused or failed now: the link is right, the answer is not there (the text says why, as a tool's would).
  if (result.isError)
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      failure && 'text' in failure ? failure.text : 'The API did not answer.',
    );
  const resource = result.content.find((item) => item.type === 'resource');
  if (!resource || resource.type !== 'resource') throw new ProtocolError(ProtocolErrorCode.InternalError, 'No answer.');
  return { contents: [resource.resource] };
}

/** The answer as the API sent it, credentials redacted, as the link's one content; never cut. */
function wholeAnswer(uri: string): AnswerOf {
  return (response) => {
    if (response.truncated)
      return {
        isError: true,
        content: [
          {
            type: 'text',
            text: `The whole answer is larger than this server reads (${response.body.byteLength} bytes); narrow the request with the action's filters or pages.`,
          },
        ],
      };
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const text = () => Buffer.from(response.body).toString('utf8');
    let resource: { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string };
    const parsed =
      isJson(mediaType) || (mediaType === '' && looksLikeJson(response.body)) ? parseJson(text()) : undefined;
    if (parsed !== undefined)
      resource = { uri, mimeType: 'application/json', text: JSON.stringify(redactJson(parsed.value)) };
    else if (isJson(mediaType) || isTextual(mediaType))
      resource = { uri, mimeType: mediaType || 'text/plain', text: redactSecrets(text()) };
    else resource = { uri, mimeType: mediaType, blob: Buffer.from(response.body).toString('base64') };
    return { content: [{ type: 'resource', resource }] };
  };
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** A link this server did not make, or one that names nothing it serves: resource not found (-32602). */
function notFound(uri: URL, why: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${why}`, { uri: uri.href });
}
