import { Diagnostics } from '../../src/diagnostics/diagnostic.js';
import { loadSpec } from '../../src/load/load-spec.js';
import type { ApiModel } from '../../src/model/api-model.js';
import { buildApiModel } from '../../src/model/build-api-model.js';
import { planTools } from '../../src/plan/plan-tools.js';
import type { PlanSettings } from '../../src/config/resolve-options.js';
import type { ToolPlan } from '../../src/plan/tool-plan.js';
import { withDefaults } from './options.js';

/** Loads a description given as text (through the stdin path of the loader). */
export async function loadText(text: string, diagnostics = new Diagnostics()) {
  const document = await loadSpec(withDefaults({ spec: '-', readStdin: async () => text }), diagnostics);
  return { document, diagnostics };
}

export async function modelOf(text: string): Promise<{ model: ApiModel; diagnostics: Diagnostics }> {
  const { document, diagnostics } = await loadText(text);
  if (!document) throw new Error(`load failed: ${diagnostics.items.map((item) => item.message).join('; ')}`);
  return { model: buildApiModel(document, diagnostics), diagnostics };
}

export async function planOf(
  text: string,
  options: Partial<PlanSettings> = {},
): Promise<{ plan: ToolPlan; model: ApiModel; diagnostics: Diagnostics }> {
  const { model, diagnostics } = await modelOf(text);
  return { plan: planTools(model, withDefaults(options), diagnostics), model, diagnostics };
}

/** A minimal OpenAPI 3.0 document around the given paths (and components). */
export function openapi(paths: object, extra: object = {}): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Test API', version: '1.0.0' },
    servers: [{ url: 'https://api.example.com/v1' }],
    paths,
    ...extra,
  });
}
