import type { Diagnostics } from '../../diagnostics/diagnostic.js';
import type { Budget, ToolDraft } from '../drafts.js';
import type { ToolModel } from '../tool-plan.js';
import { MAX_DETAIL } from '../arguments/tool-schema.js';

export function totalTokens(tools: ToolModel[]): number {
  return tools.reduce((sum, tool) => sum + tool.tokens, 0);
}

/** Drafts at the detail levels that fit, and the tools built from them. */
export type Fitted = { drafts: ToolDraft[]; tools: ToolModel[] };

/**
 * Trims schema detail until every tool fits the per-tool budget and the list fits the total, largest tool first.
 * Operations are never dropped: when the leanest detail is not enough, the plan stays over budget and says so.
 * The drafts given are not changed: the result holds copies at their new levels.
 */
export function fitBudget(given: ToolDraft[], render: (draft: ToolDraft) => ToolModel, budget: Budget): Fitted {
  const drafts = [...given];
  const tools = drafts.map(render);
  // A leaner level can cost more than the one before (listing optional arguments per action in the description
  // outweighs the notes it replaces), or the same: a step goes to the first leaner level that is actually smaller,
  // and a tool with none stays where it is.
  const settled = new Set<number>();
  const leaner = (index: number): boolean => {
    const draft = drafts[index] as ToolDraft;
    const before = tools[index] as ToolModel;
    for (let detail = draft.detail + 1; detail <= MAX_DETAIL; detail++) {
      const candidate = { ...draft, detail };
      const after = render(candidate);
      if (after.tokens < before.tokens) {
        drafts[index] = candidate;
        tools[index] = after;
        return true;
      }
    }
    settled.add(index);
    return false;
  };
  const over = (index: number) => (tools[index] as ToolModel).tokens > budget.maxToolTokens;
  for (let index = 0; index < drafts.length; index++) {
    while (over(index) && (drafts[index] as ToolDraft).detail < MAX_DETAIL && leaner(index));
  }
  let total = totalTokens(tools);
  while (total > budget.maxTotalTokens) {
    let pick = -1;
    for (let index = 0; index < tools.length; index++) {
      if ((drafts[index] as ToolDraft).detail >= MAX_DETAIL || settled.has(index)) continue;
      if (pick < 0 || (tools[index] as ToolModel).tokens > (tools[pick] as ToolModel).tokens) pick = index;
    }
    if (pick < 0) break;
    const before = (tools[pick] as ToolModel).tokens;
    if (leaner(pick)) total += (tools[pick] as ToolModel).tokens - before;
  }
  return { drafts, tools };
}

export function reportBudget(tools: ToolModel[], budget: Budget, diagnostics: Diagnostics): void {
  const total = totalTokens(tools);
  if (tools.length > budget.maxTools) {
    diagnostics.warn('OTM_BUDGET_EXCEEDED', `The plan has ${tools.length} tools, over the limit of ${budget.maxTools}.`, {
      hint: 'Raise --max-tools or exclude operations; explicit x-mcp.tool groups are never merged.',
    });
  }
  for (const tool of tools) {
    if (tool.tokens > budget.maxToolTokens) {
      diagnostics.warn(
        'OTM_BUDGET_EXCEEDED',
        `Tool ${tool.name} takes ${tool.tokens} tokens, over the per-tool budget of ${budget.maxToolTokens}, at the leanest schema detail.`,
        { hint: `It has ${tool.actions.length} actions; split it with x-mcp.tool or exclude operations.` },
      );
    }
  }
  if (total > budget.maxTotalTokens) {
    const largest = [...tools]
      .sort((a, b) => b.tokens - a.tokens)
      .slice(0, 3)
      .map((tool) => `${tool.name} (${tool.tokens})`);
    diagnostics.warn(
      'OTM_BUDGET_EXCEEDED',
      `The tool list takes ${total} tokens, over the budget of ${budget.maxTotalTokens} (${tools.length} tools at the leanest detail that merging related operations allows; largest: ${largest.join(', ')}).`,
      {
        hint: 'Exclude operations (--exclude-tag, x-mcp: false), or raise the budget with --tokens-per-operation; no operation was dropped.',
      },
    );
  }
}
