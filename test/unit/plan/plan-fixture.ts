import { runPlan } from '../../../src/pipeline.js';
import type { ActionModel, ToolPlan } from '../../../src/plan/tool-plan.js';

/** Plans a description given as an object (read as standard input), failing loudly on errors. */
export async function planOf(document: object, options: { outputSchema?: 'none' | 'loose' } = {}): Promise<ToolPlan> {
  const result = await runPlan({ spec: '-', readStdin: async () => JSON.stringify(document), validate: false, ...options });
  if (!result.plan) throw new Error(result.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
  return result.plan;
}

/** The action of an operation, by its `METHOD path-key`. */
export function actionOf(plan: ToolPlan, key: string): ActionModel {
  const action = plan.tools.flatMap((tool) => tool.actions).find((candidate) => candidate.operation.key === key);
  if (!action) throw new Error(`no action for ${key}`);
  return action;
}

export function toolOf(plan: ToolPlan, key: string) {
  const tool = plan.tools.find((candidate) => candidate.actions.some((action) => action.operation.key === key));
  if (!tool) throw new Error(`no tool for ${key}`);
  return tool;
}
