import { vi } from 'vitest';
import { runPlan, type PlanRunOptions } from '../../src/pipeline.js';
import { MAX_DETAIL } from '../../src/plan/arguments/detail-levels.js';
import { TokenEstimate } from '../../src/plan/budget/count-tokens.js';
import { buildTool, type BuildToolContext } from '../../src/plan/build/build-tool.js';
import { ToolBuilder } from '../../src/plan/build/tool-builder.js';
import type { BuiltTool, Siblings, ToolDraft } from '../../src/plan/drafts.js';

/** A tool at a level where the search's sizing or the builder's tool differs from a build made from scratch. */
export type SizeMismatch = { tool: string; detail: number; what: string };

/** A tool's entry in tools/list written out, the text the search's characters stand for. */
function listedText(tool: BuiltTool): string {
  return JSON.stringify({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  });
}

/**
 * Plans a description and takes every tool the budget search sized; builds each at every detail level through the
 * plan's builder (its projections, merged arguments and descriptions kept from the search) and from scratch (a copy
 * of the actions and of the named schemas, which nothing kept is keyed by). The two must be the same tool, and the
 * characters the search reads must be the length of the tool's entry as JSON.stringify writes it.
 */
export async function toolSizeMismatches(options: PlanRunOptions): Promise<{ sized: number; mismatches: SizeMismatch[] }> {
  const sized = new Map<string, { builder: ToolBuilder; draft: ToolDraft; siblings: Siblings }>();
  const estimated = ToolBuilder.prototype.estimated;
  const spy = vi.spyOn(ToolBuilder.prototype, 'estimated').mockImplementation(function (this: ToolBuilder, draft, siblings, estimate) {
    sized.set(JSON.stringify([draft.name, draft.actions.map((action) => action.name), siblings]), { builder: this, draft, siblings });
    return estimated.call(this, draft, siblings, estimate);
  });
  let result;
  try {
    result = await runPlan(options);
  } finally {
    spy.mockRestore();
  }
  if (!result.plan) throw new Error(result.diagnostics.map((item) => `${item.code} ${item.message}`).join('\n'));
  const scratchDefs = new Map<ToolBuilder, BuildToolContext['defs']>();
  const mismatches: SizeMismatch[] = [];
  for (const { builder, draft, siblings } of sized.values()) {
    // The builder's plan-wide context, as planTools gave it.
    const context = (builder as unknown as { context: Omit<BuildToolContext, 'siblings'> }).context;
    const defs = scratchDefs.get(builder) ?? structuredClone(context.defs);
    scratchDefs.set(builder, defs);
    for (let detail = 0; detail <= MAX_DETAIL; detail++) {
      const atLevel = { ...draft, detail };
      const scratch = buildTool({ ...atLevel, actions: [...draft.actions] }, { ...context, defs, siblings });
      const kept = buildTool(atLevel, { ...context, siblings });
      const mismatch = (what: string) => mismatches.push({ tool: draft.name, detail, what });
      if (JSON.stringify(kept) !== JSON.stringify(scratch)) mismatch('the builder builds another tool than a build from scratch');
      const characters = listedText(scratch).length;
      if (TokenEstimate.characters(kept) !== characters) mismatch(`characters ${TokenEstimate.characters(kept)}, text ${characters}`);
      const searched = builder.estimated(atLevel, siblings, new TokenEstimate(1)).tokens;
      if (searched !== characters) mismatch(`the search reads ${searched} characters, the text has ${characters}`);
    }
  }
  return { sized: sized.size, mismatches };
}
