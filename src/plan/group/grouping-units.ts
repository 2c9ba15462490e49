import type { OperationModel } from '../../model/api-model.js';
import type { ActionDraft, GroupingUnit } from '../drafts.js';
import { classifyIntent } from '../select/classify-intent.js';
import { resourcePaths, type ResourcePath } from './resource-path.js';

/** What grouping needs to know of each selected operation: its intent, its resource path, its arguments. */
export function groupingUnits(selected: readonly OperationModel[], drafts: ReadonlyMap<string, ActionDraft>): GroupingUnit[] {
  const resources = resourcePaths(selected);
  return selected.map((operation) =>
    unitOf(operation, drafts.get(operation.key) as ActionDraft, resources.get(operation.key) ?? { resource: ['root'], scopes: [false] }),
  );
}

function unitOf(operation: OperationModel, draft: ActionDraft, { resource, scopes }: ResourcePath): GroupingUnit {
  const identity = draft.arguments
    .filter((arg) => arg.route.in === 'path' || (arg.route.in === 'query' && arg.required))
    .map((arg) => arg.key);
  return {
    operation,
    intent: classifyIntent(operation),
    resource,
    scopes,
    identity,
    argumentNames: draft.arguments.map((arg) => arg.key),
  };
}
