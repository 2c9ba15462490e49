import type { Diagnostics } from '../../diagnostics/diagnostic.js';
import { isJsonObject, type JsonObject } from '../../kernel/json.js';
import type { HeaderOptions } from '../drafts.js';

/** Whether a configuration entry (`headers.add`, `headers.remove`) is about this property of this tool. */
export function optionMatches(entry: { tool?: string; property: string }, tool: string, property: string): boolean {
  return entry.property === property && (entry.tool === undefined || entry.tool === tool);
}

/** Configuration entries that name no property of any tool, so that a typo does not go unnoticed. */
export function reportUnusedHeaderOptions(
  options: HeaderOptions,
  tools: ReadonlyArray<{ name: string; inputSchema: JsonObject }>,
  diagnostics: Diagnostics,
): void {
  const entries = [
    ...(options.add ?? []).map((entry) => ['add', entry] as const),
    ...(options.remove ?? []).map((entry) => ['remove', entry] as const),
  ];
  for (const [list, entry] of entries) {
    const found = tools.some(
      (tool) =>
        optionMatches(entry, tool.name, entry.property) &&
        isJsonObject(tool.inputSchema['properties']) &&
        entry.property in tool.inputSchema['properties'],
    );
    if (!found)
      diagnostics.warn(
        'OTM_CONFIG_INVALID',
        `headers.${list} names property "${entry.property}"${entry.tool ? ` of tool ${entry.tool}` : ''}, which no tool has.`,
        { hint: 'Run `openapi-to-mcp plan <spec>` to see the tools and their properties.' },
      );
  }
}
