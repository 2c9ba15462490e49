import type { JsonObject, JsonValue } from '../kernel/json.js';
import type { Surface, SurfaceAction } from '../surface/surface.js';
import type { ToolPlan } from './tool-plan.js';

export function surfaceOf(plan: ToolPlan): Surface {
  const tools: Surface['tools'] = {};
  for (const tool of plan.tools) {
    const properties = (tool.inputSchema['properties'] ?? {}) as JsonObject;
    const actions: Record<string, SurfaceAction> = {};
    for (const action of tool.actions) {
      const args: SurfaceAction['arguments'] = {};
      for (const argument of [...action.route.arguments].sort((a, b) => (a.arg < b.arg ? -1 : 1))) {
        args[argument.arg] = { type: typeName(properties[argument.arg]), required: action.required.includes(argument.arg) };
      }
      actions[action.name] = { operation: action.operation.key, arguments: args };
    }
    tools[tool.name] = { intent: tool.intent, actions };
  }
  return { tools };
}

/** A short type label for comparison: `string`, `integer|null`, `array`, `object`, `any`. */
function typeName(schema: JsonValue | undefined): string {
  if (schema === undefined) return 'any';
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return 'any';
  const type = schema['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.map(String).sort().join('|');
  if (schema['$ref'] !== undefined || schema['properties'] !== undefined) return 'object';
  if (Array.isArray(schema['anyOf'])) return 'union';
  return 'any';
}
