import type { Strategy, GroupingUnit, OperationGroup, PlanMemo } from '../drafts.js';
import { Agglomerator } from './agglomerator.js';
import { toCluster, type Cluster } from './cluster.js';
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
 *
 * With a memo that keeps work between runs (a watch's), the run before's grouping is taken whole when all that
 * grouping reads is as it was, else its word table when every resource is, and with it each starting cluster whose
 * members are as they were (see reusedGrouping). Groups then hold that run's units: they are given back as this
 * run's units of the same operations.
 */
export function groupOperations(
  units: GroupingUnit[],
  strategy: Strategy,
  limits: GroupingLimits,
  locked = new Map<string, string>(),
  memo?: PlanMemo,
): Grouping {
  if (!memo?.reused || !memo.shared) return groupFreshly(units, strategy, limits, locked);
  const { reused, shared } = { reused: memo.reused.bind(memo), shared: memo.shared.bind(memo) };
  const grouping = reused(
    'grouping',
    () => groupingKey(units, strategy, limits, locked),
    () => groupFreshly(units, strategy, limits, locked, { reused, shared }),
  );
  const current = new Map(units.map((unit) => [unit.operation.key, unit]));
  return {
    ...grouping,
    groupsAt: (state) =>
      grouping.groupsAt(state).map((found) => ({ ...found, units: found.units.map((unit) => current.get(unit.operation.key) ?? unit) })),
  };
}

/** A memo's means of reuse that grouping asks for. */
type Reuse = Required<Pick<PlanMemo, 'reused' | 'shared'>>;

function groupFreshly(
  units: GroupingUnit[],
  strategy: Strategy,
  limits: GroupingLimits,
  locked: Map<string, string>,
  reuse?: Reuse,
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
  const { table, generation } = reuse
    ? reuse.reused(
        'word-table',
        () => JSON.stringify(free.map((unit) => unit.resource)),
        () => ({
          table: new WordTable(free),
          generation: tableGenerations++,
        }),
      )
    : { table: new WordTable(free), generation: 0 };
  const cluster = (members: GroupingUnit[], name?: string): Cluster =>
    reuse
      ? reuse.shared(
          'cluster',
          () => JSON.stringify([generation, name ?? null, members.map(unitFields)]),
          members.map((unit) => unit.operation),
          () => toCluster(members, table, name),
        )
      : toCluster(members, table, name);
  const pinned = byKey(
    free.filter((unit) => locked.has(unit.operation.key)),
    (unit) => locked.get(unit.operation.key) ?? '',
  );
  const initial = [
    ...pinned.map((members) => cluster(members, locked.get(members[0]!.operation.key))),
    ...initialGroups(free.filter((unit) => !locked.has(unit.operation.key))).map((members) => cluster(members)),
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

/**
 * Word tables as numbered, so that a starting cluster is reused only with the table its ids come from: names are
 * numbered as a table first sees them (WordTable.idsOf), and merging compares only sets of them.
 */
let tableGenerations = 1;

/**
 * All that grouping reads of a unit (cluster.ts, initial-groups.ts and this file read nothing else): its operation's
 * key, first tag and `x-mcp` tool and group, its intent, resource, scopes, identity and argument names.
 */
function unitFields(unit: GroupingUnit): unknown[] {
  const { operation } = unit;
  return [
    operation.key,
    unit.intent,
    unit.resource,
    unit.scopes,
    unit.identity,
    unit.argumentNames,
    operation.tags[0] ?? null,
    operation.extension.tool ?? null,
    operation.extension.group ?? null,
  ];
}

/** Everything the grouping of these units depends on, as text. */
function groupingKey(units: GroupingUnit[], strategy: Strategy, limits: GroupingLimits, locked: Map<string, string>): string {
  return JSON.stringify([strategy, limits, [...locked], units.map(unitFields)]);
}

function constant(groups: OperationGroup[]): Grouping {
  return { stateAt: () => 0, groupsAt: () => groups, lastState: 0, leastTools: groups.length };
}
