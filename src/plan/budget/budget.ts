import type { Diagnostics } from '../../diagnostics/diagnostic.js';
import type { Budget, BudgetOptions } from '../drafts.js';
import type { ToolModel } from '../tool-plan.js';

/** The floor of the whole list's budget: a small API with many families still gets a tool each (decision 0009). */
const MIN_TOTAL_TOKENS = 10_000;

export function budgetOf(maxTools: number, options: BudgetOptions, operations: number): Budget {
  return {
    maxTools,
    maxToolTokens: options.maxToolTokens,
    // Per operation, so that an API pays for what it offers; capped, because a list past about 50,000 tokens crowds
    // out the conversation whatever the API's size (`--surface search` serves such APIs). The cap is the user's last
    // word: a --max-total-tokens below the floor is kept.
    maxTotalTokens: Math.min(options.maxTotalTokens, Math.max(MIN_TOTAL_TOKENS, options.tokensPerOperation * operations)),
  };
}

export function totalTokens(tools: ReadonlyArray<{ tokens: number }>): number {
  return tools.reduce((sum, tool) => sum + tool.tokens, 0);
}

/** Whether the list and every tool fit their token budgets (the number of tools is grouping's limit, not this). */
export function fitsTokens(tools: readonly ToolModel[], budget: Budget): boolean {
  return totalTokens(tools) <= budget.maxTotalTokens && tools.every((tool) => tool.tokens <= budget.maxToolTokens);
}

/** What serves a description too large for a tool per family: the few tools of the search surface. */
const SEARCH_HINT = 'Serve the search surface instead (--surface auto, or search)';

export function reportBudget(tools: ToolModel[], budget: Budget, diagnostics: Diagnostics): void {
  const total = totalTokens(tools);
  if (tools.length > budget.maxTools) {
    diagnostics.warn('OTM_BUDGET_EXCEEDED', `The plan has ${tools.length} tools, over the limit of ${budget.maxTools}.`, {
      hint: `Its resource families need that many tools: tools of unrelated resources are never merged. ${SEARCH_HINT}, raise --max-tools, or exclude operations.`,
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
      `The tool list takes ${total} tokens, over the budget of ${budget.maxTotalTokens}: the description's resource families need ${tools.length} tools of their own, at the leanest detail, and tools of unrelated resources are never merged (largest: ${largest.join(', ')}).`,
      {
        hint: `${SEARCH_HINT}, exclude operations (--exclude-tag, x-mcp: false), or raise the budget with --tokens-per-operation; no operation was dropped.`,
      },
    );
  }
}
