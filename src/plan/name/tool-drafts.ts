import type { Intent } from '../../surface/surface.js';
import type {
  ActionDraft,
  GroupingUnit,
  NamedToolDraft,
  OperationGroup,
  OperationSummary,
  PlanInputs,
  PlanMemo,
  Strategy,
} from '../drafts.js';
import { compareStrings } from '../text/words.js';
import { resourceWords, sharedWords } from '../text/resource-words.js';
import { nameActions, nameTools, type NameDraft, type ToolNameInput } from './name-tools.js';

/** What naming needs besides the groups: the pinned action names, the namespace and the strategy. */
export type NamingOptions = {
  preferredActions: ReadonlyMap<string, string>;
  prefix: string | undefined;
  strategy: Strategy;
  maxNameLength: number;
  /** Work kept from an earlier run of this process (a watch's): a tool's action names, when its operations are as they were. */
  memo?: PlanMemo;
};

/**
 * Groups → named tool drafts: names tools and actions and gathers what each tool renders from; operations sorted by
 * key, actions by name.
 */
export function toolDrafts(
  groups: OperationGroup[],
  inputs: Pick<PlanInputs, 'drafts' | 'summaries'>,
  options: NamingOptions,
): NamedToolDraft[] {
  const sorted = groups.map((group) => ({
    ...group,
    units: [...group.units].sort((a, b) => compareStrings(a.operation.key, b.operation.key)),
  }));
  const actionNames = sorted.map((group) => {
    const operations = group.units.map((unit) => unit.operation);
    // An `x-mcp.tool` group is named by whoever wrote the description: its actions keep their whole names. A lone
    // action's name is no part of its tool (which has no selector), but may name the tool: whole, too.
    const toolWords =
      group.fixedName || group.units.length === 1 ? [] : sharedWords(group.units.map((unit) => resourceWords(unit.resource).keys));
    const name = () => nameActions(operations, options.preferredActions, toolWords);
    if (!options.memo?.shared) return name();
    const key = () => JSON.stringify([operations.map((operation) => options.preferredActions.get(operation.key) ?? null), toolWords]);
    return options.memo.shared('action-names', key, operations, name);
  });
  const naming = nameTools(
    sorted.map((group, index) => ({
      units: group.units,
      ...(group.fixedName ? { fixedName: group.fixedName } : {}),
      ...(group.lockedName ? { lockedName: group.lockedName } : {}),
      ...(group.units.length === 1 ? { actionName: actionNames[index]?.[0] as string } : {}),
    })),
    options.prefix,
    { byAction: options.strategy === 'per-operation', maxLength: options.maxNameLength, ...draftsThrough(options) },
  );
  return sorted.map((group, index) => ({
    name: naming[index]?.name ?? `tool_${index}`,
    resourceLabel: naming[index]?.resourceLabel ?? 'resources',
    contents: naming[index]?.contents ?? [],
    intent: toolIntent(group.units),
    detail: 0,
    actions: group.units
      .map((unit, position) => {
        const key = unit.operation.key;
        const name = group.units.length === 1 ? '' : (actionNames[index]?.[position] ?? '');
        const summary = inputs.summaries.get(key) as OperationSummary;
        return { name, draft: inputs.drafts.get(key) as ActionDraft, summary: { name, ...summary } };
      })
      .sort((a, b) => compareStrings(a.name, b.name)),
  }));
}

/** Name drafts through the memo (a watch's, or the regeneration cache's), keyed by all a draft reads. */
function draftsThrough(options: NamingOptions): { draftOf?: (input: ToolNameInput, make: () => NameDraft) => NameDraft } {
  const shared = options.memo?.shared?.bind(options.memo);
  if (!shared) return {};
  const byAction = options.strategy === 'per-operation';
  return {
    draftOf: (input, make) =>
      shared(
        'name-drafts',
        () =>
          JSON.stringify([
            byAction,
            input.fixedName ?? null,
            input.actionName ?? null,
            input.units.map((unit) => [unit.intent, unit.resource]),
          ]),
        input.units.map((unit) => unit.operation),
        make,
      ),
  };
}

/** A tool's intent: the strongest effect among its actions (only explicit `x-mcp.tool` groups can mix them). */
function toolIntent(units: GroupingUnit[]): Intent {
  if (units.some((unit) => unit.intent === 'delete')) return 'delete';
  if (units.some((unit) => unit.intent === 'write')) return 'write';
  return 'read';
}
