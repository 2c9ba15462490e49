// The link a result cut for size carries to the whole answer. Its URI names the request itself (tool, action, the
// arguments as the client sent them), so that any replica can answer `resources/read` by sending the same read
// again, with the credentials of whoever reads it: nothing is stored and nothing secret is in the URI (credentials
// never are arguments). It needs no seal: reading a link does exactly what calling the tool with those arguments
// does, checked the same way (read-result-link.ts), so a link made by hand gives no more than a tool call.

import type { ContentBlock } from '@modelcontextprotocol/server';
import type { ToolDefinition } from './types.js';

export const RESULT_LINK_SCHEME = 'openapi-result:';
/** The URI template `resources/templates/list` shows; `-` stands for a single-action tool's one action. */
export const RESULT_LINK_TEMPLATE = 'openapi-result://results/{tool}/{action}{?arguments}';
/** Longer URIs are not offered as links: clients and proxies cut or refuse very long URIs. */
const MAX_LINK_LENGTH = 8_192;
const ONLY_ACTION = '-';

/** The request a link names. */
export type LinkedRequest = { tool: string; action: string; arguments: Record<string, unknown> };

/**
 * The content a cut result adds, given the size of the whole answer: a `resource_link` and the same in words for
 * clients that do not show links. None for a tool that changes anything (reading the link would call it again) or
 * for arguments too long for a URI.
 */
export type FullAnswerLink = (bytes: number, mediaType: string) => ContentBlock[];

export function fullAnswerLink(
  tool: ToolDefinition,
  action: string,
  input: Record<string, unknown>,
): FullAnswerLink | undefined {
  if (tool.annotations.readOnlyHint !== true) return undefined;
  // The action is named in the path: the arguments are the others.
  const { action: _action, ...args } = input;
  const uri = resultLinkUri({ tool: tool.name, action, arguments: args });
  if (uri.length > MAX_LINK_LENGTH) return undefined;
  const what = action ? `${tool.name} ${action}` : tool.name;
  return (bytes, mediaType) => [
    {
      type: 'resource_link',
      uri,
      name: `${what} (whole answer)`,
      description: `The whole answer of ${what} with the same arguments, read again from the API when the link is read.`,
      mimeType: mediaType || 'application/octet-stream',
      size: bytes,
    },
    {
      type: 'text',
      text: `The whole answer (${bytes.toLocaleString('en-US')} bytes) is at ${uri}: read it with resources/read; the server calls the API again with the same arguments and the reader's credentials.`,
    },
  ];
}

export function resultLinkUri(request: LinkedRequest): string {
  const action = request.action === '' ? ONLY_ACTION : request.action;
  const args = encodeURIComponent(JSON.stringify(request.arguments));
  return `${RESULT_LINK_SCHEME}//results/${encodeURIComponent(request.tool)}/${encodeURIComponent(action)}?arguments=${args}`;
}

/** The request a link URI names, or why it names none. */
export function parseResultLink(uri: URL): LinkedRequest | { problem: string } {
  const [, tool, action, ...rest] = uri.pathname.split('/');
  if (uri.protocol !== RESULT_LINK_SCHEME || uri.host !== 'results' || !tool || !action || rest.length > 0)
    return { problem: `${uri.href} is not a result link of this server (${RESULT_LINK_TEMPLATE}).` };
  let args: unknown;
  try {
    args = JSON.parse(uri.searchParams.get('arguments') ?? '{}');
  } catch {
    return { problem: 'The link\'s "arguments" are not JSON: use the link exactly as a result gave it.' };
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args))
    return { problem: 'The link\'s "arguments" are not a JSON object: use the link exactly as a result gave it.' };
  let names: [string, string];
  try {
    names = [decodeURIComponent(tool), decodeURIComponent(action)];
  } catch {
    return { problem: `${uri.href} is not a result link of this server: its tool or action is not valid text.` };
  }
  return {
    tool: names[0],
    action: names[1] === ONLY_ACTION ? '' : names[1],
    arguments: args as Record<string, unknown>,
  };
}
