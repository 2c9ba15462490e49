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
  return countText(
    JSON.stringify({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: tool.annotations,
    }),
  );
}

/** Longer than any word: a run of this many characters without white space is counted slice by slice. */
const LONG_RUN = 1_000;
const LONG_RUN_PATTERN = /\S{1000}/;

/**
 * Byte-pair merging is quadratic in the length of one pre-token, and a description can hold a megabyte-long "word"
 * (an enum value, a property name): counted whole it takes hours. Such texts are counted in slices, an estimate off
 * by a token per slice; every other text is counted exactly as before.
 */
function countText(text: string): number {
  if (!LONG_RUN_PATTERN.test(text)) return countTokens(text, { disallowedSpecial: new Set() });
  let total = 0;
  for (let start = 0; start < text.length; start += LONG_RUN)
    total += countTokens(text.slice(start, start + LONG_RUN), { disallowedSpecial: new Set() });
  return total;
}
