import type { ToolModel } from '../plan/tool-plan.js';
import type { Colors } from './reporter.js';

/**
 * The `x-mcp-header` lines of one tool in the text plan: what is sent as an `Mcp-Param-*` header and why, then
 * what looked like a routing parameter but was left out, and why.
 */
export function headerLines(headers: ToolModel['headers'], colors: Colors): string[] {
  const lines: string[] = [];
  for (const decision of headers.marked)
    lines.push(
      `  ${colors.green('header')} Mcp-Param-${decision.header ?? ''} ← ${decision.property} ${colors.dim(`(${decision.reason})`)}`,
    );
  for (const decision of headers.refused) lines.push(colors.dim(`  not a header: ${decision.property} (${decision.reason})`));
  return lines;
}
