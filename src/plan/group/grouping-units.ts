import type { OperationModel } from '../../model/api-model.js';
import type { Intent } from '../../surface/surface.js';
import type { ActionDraft, GroupingUnit } from '../drafts.js';
import { resourcePaths, type ResourcePath } from './resource-path.js';

/**
 * What grouping needs to know of each selected operation: its intent, its resource path, its arguments. `intentOf`:
 * the operation's intent (classifyIntent, or a watch's answer for the same operation object the save before).
 */
export function groupingUnits(
  selected: readonly OperationModel[],
  drafts: ReadonlyMap<string, ActionDraft>,
  intentOf: (operation: OperationModel) => Intent,
): GroupingUnit[] {
  const resources = resourcePaths(selected);
  return selected.map((operation) =>
    unitOf(
      operation,
      intentOf(operation),
      drafts.get(operation.key) as ActionDraft,
      resources.get(operation.key) ?? { resource: ['root'], scopes: [false] },
    ),
  );
}

function unitOf(operation: OperationModel, intent: Intent, draft: ActionDraft, { resource, scopes }: ResourcePath): GroupingUnit {
  const identity = draft.arguments
    .filter((arg) => arg.route.in === 'path' || (arg.route.in === 'query' && arg.required))
    .map((arg) => arg.key);
  return {
    operation,
    intent,
    resource,
    scopes,
    identity,
    argumentNames: draft.arguments.map((arg) => arg.key),
  };
}
