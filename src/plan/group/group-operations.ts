import type { Strategy, GroupingUnit, OperationGroup } from '../drafts.js';
import { Agglomerator } from './agglomerator.js';
import { toCluster } from './cluster.js';
import { byKey, initialGroups } from './initial-groups.js';
import type { GroupingLimits } from './limits.js';
import { WordTable } from './word-table.js';

export type { GroupingLimits } from './limits.js';

/**
 * The grouping of a description for any token budget: merging is one fixed sequence (the closest allowed pair first,
 * whatever the budget), and a budget only says where it stops — so the sequence is computed once and a budget picks
 * a state of it, the first that fits. States are numbered along the sequence: two budgets at the same state give the
 * same groups, and a lower budget never stops at an earlier state.
 */
export type Grouping = {
  /** The state a token budget stops at. */
  stateAt(tokenBudget: number): number;
  /** The groups of a state. */
  groupsAt(state: number): OperationGroup[];
  /** The last state: a budget that stops there can get no coarser grouping by going lower. */
  lastState: number;
  /**
   * The tools of the last state: no budget gets fewer, so a static plan of this grouping has at least this many
   * (its resource families and the groups the description fixes, which are never merged further).
   */
  leastTools: number;
};

/**
 * Stage 3a: groups operations into tools by the chosen strategy. Tools never mix reads, writes and deletions
 * (unless `x-mcp.tool` puts operations together explicitly), so every annotation stays true for every action.
 */
export function groupOperations(
  units: GroupingUnit[],
  strategy: Strategy,
  limits: GroupingLimits,
  locked = new Map<string, string>(),
): Grouping {
  const fixed = new Map<string, GroupingUnit[]>();
  const free: GroupingUnit[] = [];
  for (const unit of units) {
    const name = unit.operation.extension.tool;
    if (name) fixed.set(name, [...(fixed.get(name) ?? []), unit]);
    else free.push(unit);
  }
  const groups: OperationGroup[] = [...fixed].map(([fixedName, members]) => ({ units: members, fixedName }));
  if (strategy === 'per-operation') return constant([...groups, ...free.map((unit) => ({ units: [unit] }))]);
  if (strategy === 'by-tag')
    return constant([
      ...groups,
      ...byKey(free, (unit) => `${unit.intent} ${unit.operation.tags[0] ?? ''}`).map((members) => ({ units: members })),
    ]);
  const table = new WordTable(free);
  const pinned = byKey(
    free.filter((unit) => locked.has(unit.operation.key)),
    (unit) => locked.get(unit.operation.key) ?? '',
  );
  const initial = [
    ...pinned.map((members) => toCluster(members, table, locked.get(members[0]!.operation.key))),
    ...initialGroups(free.filter((unit) => !locked.has(unit.operation.key))).map((members) => toCluster(members, table)),
  ];
  const history = new Agglomerator(initial, table).run(limits, Math.max(1, limits.maxTools - groups.length));
  const groupsAt = (state: number): OperationGroup[] => [
    ...groups,
    ...history.replay(state).map((cluster) => ({ units: cluster.units, ...(cluster.locked ? { lockedName: cluster.locked } : {}) })),
  ];
  return {
    stateAt: (tokenBudget) => history.stateAt(tokenBudget),
    groupsAt,
    lastState: history.lastState,
    leastTools: groups.length + history.lastCount,
  };
}

function constant(groups: OperationGroup[]): Grouping {
  return { stateAt: () => 0, groupsAt: () => groups, lastState: 0, leastTools: groups.length };
}
