import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { JsonObject } from '../load/openapi-document.js';
import type { ToolAnnotations } from './tool-plan.js';

/** o200k tokens of a tool's entry in `tools/list`, as a client serialises it. */
export function countToolTokens(tool: {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonObject;
  annotations: ToolAnnotations;
}): number {
  return countTokens(
    JSON.stringify({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: tool.annotations,
    }),
    { disallowedSpecial: new Set() },
  );
}
