// Keeps results true to a tool's outputSchema. The schema is a loose projection of the described responses (no
// required fields), so `{}` always conforms: when an API answers with a shape even that schema rejects, the
// structured content falls back to `{}` and the data stays, unchanged, in the text content, instead of the call
// failing with an output validation error.

import type { CallToolResult, StandardSchemaWithJSON } from '@modelcontextprotocol/server';

export async function conformOutput(
  result: CallToolResult,
  schema: StandardSchemaWithJSON<unknown, unknown>,
): Promise<CallToolResult> {
  if (result.isError) return result;
  const structured = result.structuredContent ?? {};
  const checked = await schema['~standard'].validate(structured);
  if (!checked.issues) return { ...result, structuredContent: structured };
  const issue = checked.issues[0];
  const where = (issue?.path ?? [])
    .map((segment) => (typeof segment === 'object' ? String(segment.key) : String(segment)))
    .join('.');
  return {
    ...result,
    structuredContent: {},
    content: [
      ...result.content,
      {
        type: 'text',
        text: `The response does not have the shape the API description gives${issue ? ` (${where ? `${where}: ` : ''}${issue.message})` : ''}, so it is only in the text above.`,
      },
    ],
  };
}
