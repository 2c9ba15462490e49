import type { ApiModel, OperationModel } from '../../model/api-model.js';
import { withArgumentSchemas } from '../arguments/argument-schemas.js';
import { totalTokens } from '../budget/budget.js';
import { planCredentials } from '../describe/credentials.js';
import { planUserAuth } from '../describe/user-auth.js';
import type { Budget } from '../drafts.js';
import { compareStrings, envCase } from '../text/words.js';
import type { ToolModel, ToolPlan } from '../tool-plan.js';

export type PlanParts = {
  selected: OperationModel[];
  excluded: ToolPlan['excluded'];
  tools: ToolModel[];
  budget: Budget;
  envPrefix: string | undefined;
  toolPrefix: string | undefined;
};

/** The finished plan: the API's facts and credentials, the tools in name order with their argument schemas, totals. */
export function assemblePlan(model: ApiModel, parts: PlanParts): ToolPlan {
  const { selected, excluded, tools, budget } = parts;
  const envPrefix = parts.envPrefix ?? envCase(model.slug);
  const total = totalTokens(tools);
  const userAuth = planUserAuth(model.securitySchemes, selected);
  const checked = withArgumentSchemas(tools, model);
  return {
    api: {
      title: model.title,
      version: model.version,
      ...(model.description ? { description: model.description } : {}),
      slug: model.slug,
      envPrefix,
      ...(parts.toolPrefix ? { toolPrefix: parts.toolPrefix } : {}),
      servers: model.servers,
      credentials: planCredentials(model.securitySchemes, selected, envPrefix),
      ...(userAuth ? { userAuth } : {}),
    },
    tools: [...checked.tools].sort((a, b) => compareStrings(a.name, b.name)),
    // Made when first read: only the generated server reads them (see withArgumentSchemas).
    get argumentDefs() {
      return checked.defs();
    },
    excluded,
    totals: {
      tools: tools.length,
      actions: tools.reduce((sum, tool) => sum + tool.actions.length, 0),
      operations: selected.length,
      excluded: excluded.length,
      tokens: total,
      budget,
      withinBudget:
        total <= budget.maxTotalTokens && tools.length <= budget.maxTools && tools.every((tool) => tool.tokens <= budget.maxToolTokens),
    },
  };
}
