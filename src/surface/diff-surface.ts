import type { Surface, SurfaceAction } from './surface.js';

export type SurfaceChange = {
  kind:
    | 'tool-added'
    | 'tool-removed'
    | 'tool-renamed'
    | 'action-added'
    | 'action-removed'
    | 'action-renamed'
    | 'action-moved'
    | 'argument-added'
    | 'argument-removed'
    | 'argument-now-required'
    | 'argument-now-optional'
    | 'argument-retyped';
  tool: string;
  action?: string;
  argument?: string;
  /** The previous name (renames, moves) or type (retyped). */
  from?: string;
  to?: string;
  /** A client or prompt written for the old surface may fail with the new one. */
  breaking: boolean;
};

export type SurfaceDiff = { changes: SurfaceChange[]; breaking: number };

/**
 * What changed for a model between two surfaces. Operations are matched by their key (`GET /pets/{id}`), so a
 * renamed or moved action is reported as such rather than as one removal and one addition.
 */
export function diffSurfaces(before: Surface, after: Surface): SurfaceDiff {
  const oldPlaces = placesOf(before);
  const newPlaces = placesOf(after);
  const renamedTo = toolRenames(before, after, newPlaces);
  const changes = [...toolChanges(before, after, renamedTo), ...actionChanges(before, after, { oldPlaces, newPlaces, renamedTo })];
  changes.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return { changes, breaking: changes.filter((change) => change.breaking).length };
}

type Place = { tool: string; action: string };

/** Where each operation is: operation key → tool and action. */
function placesOf(surface: Surface): Map<string, Place> {
  const map = new Map<string, Place>();
  for (const [tool, entry] of Object.entries(surface.tools))
    for (const [action, detail] of Object.entries(entry.actions)) map.set(detail.operation, { tool, action });
  return map;
}

/** A tool that is gone, whose operations all went to one tool that is new, was renamed: old name → new name. */
function toolRenames(before: Surface, after: Surface, newPlaces: Map<string, Place>): Map<string, string> {
  const renamedTo = new Map<string, string>();
  for (const tool of Object.keys(before.tools)) {
    if (Object.hasOwn(after.tools, tool)) continue;
    const operations = Object.values(before.tools[tool]?.actions ?? {}).map((action) => action.operation);
    const destinations = new Set(
      operations.map((operation) => newPlaces.get(operation)?.tool).filter((name): name is string => name !== undefined),
    );
    const [only] = [...destinations];
    if (destinations.size === 1 && only && !Object.hasOwn(before.tools, only)) renamedTo.set(tool, only);
  }
  return renamedTo;
}

function toolChanges(before: Surface, after: Surface, renamedTo: Map<string, string>): SurfaceChange[] {
  const changes: SurfaceChange[] = [];
  const renamedTargets = new Set(renamedTo.values());
  for (const [from, to] of renamedTo) changes.push({ kind: 'tool-renamed', tool: to, from, breaking: true });
  for (const tool of Object.keys(before.tools))
    if (!Object.hasOwn(after.tools, tool) && !renamedTo.has(tool)) changes.push({ kind: 'tool-removed', tool, breaking: true });
  for (const tool of Object.keys(after.tools))
    if (!Object.hasOwn(before.tools, tool) && !renamedTargets.has(tool)) changes.push({ kind: 'tool-added', tool, breaking: false });
  return changes;
}

/** Actions added, removed, renamed or moved, and the changes to the arguments of those that stayed. */
function actionChanges(
  before: Surface,
  after: Surface,
  places: { oldPlaces: Map<string, Place>; newPlaces: Map<string, Place>; renamedTo: Map<string, string> },
): SurfaceChange[] {
  const { oldPlaces, newPlaces, renamedTo } = places;
  const renamedTargets = new Set(renamedTo.values());
  const changes: SurfaceChange[] = [];
  for (const [operation, place] of newPlaces) {
    const previous = oldPlaces.get(operation);
    if (!previous) {
      if (Object.hasOwn(before.tools, place.tool) || renamedTargets.has(place.tool))
        changes.push({ kind: 'action-added', tool: place.tool, action: place.action, breaking: false });
      continue;
    }
    const sameTool = previous.tool === place.tool || renamedTo.get(previous.tool) === place.tool;
    if (!sameTool)
      changes.push({
        kind: 'action-moved',
        tool: place.tool,
        action: place.action,
        from: at(previous.tool, previous.action),
        breaking: true,
      });
    else if (previous.action !== place.action)
      changes.push({ kind: 'action-renamed', tool: place.tool, action: place.action, from: previous.action, breaking: true });
    const oldArgs = before.tools[previous.tool]?.actions[previous.action]?.arguments ?? {};
    const newArgs = after.tools[place.tool]?.actions[place.action]?.arguments ?? {};
    changes.push(...argumentChanges(oldArgs, newArgs, place));
  }
  for (const [operation, previous] of oldPlaces) {
    if (newPlaces.has(operation) || !Object.hasOwn(after.tools, previous.tool)) continue;
    changes.push({ kind: 'action-removed', tool: previous.tool, action: previous.action, breaking: true });
  }
  return changes;
}

type Arguments = SurfaceAction['arguments'];

function argumentChanges(oldArgs: Arguments, newArgs: Arguments, place: Place): SurfaceChange[] {
  const changes: SurfaceChange[] = [];
  const change = (kind: SurfaceChange['kind'], argument: string, breaking: boolean, extra: Partial<SurfaceChange> = {}) =>
    changes.push({ kind, tool: place.tool, action: place.action, argument, ...extra, breaking });
  for (const [name, detail] of Object.entries(newArgs)) {
    const old = oldArgs[name];
    if (!old) {
      change('argument-added', name, detail.required);
      continue;
    }
    if (!old.required && detail.required) change('argument-now-required', name, true);
    if (old.required && !detail.required) change('argument-now-optional', name, false);
    if (old.type !== detail.type) change('argument-retyped', name, true, { from: old.type, to: detail.type });
  }
  for (const name of Object.keys(oldArgs)) if (!(name in newArgs)) change('argument-removed', name, true);
  return changes;
}

function key(change: SurfaceChange): string {
  return [change.tool, change.action ?? '', change.argument ?? '', change.kind].join('\u0000');
}

/** `tool.action`, or the tool alone for a single-action tool. */
const at = (tool: string, action: string | undefined) => (action ? `${tool}.${action}` : tool);

const LABELS: Record<SurfaceChange['kind'], (change: SurfaceChange) => string> = {
  'tool-added': (change) => `tool ${change.tool} added`,
  'tool-removed': (change) => `tool ${change.tool} removed`,
  'tool-renamed': (change) => `tool ${change.from} renamed to ${change.tool}`,
  'action-added': (change) => `action ${at(change.tool, change.action)} added`,
  'action-removed': (change) => `action ${at(change.tool, change.action)} removed`,
  'action-renamed': (change) => `action ${at(change.tool, change.from)} renamed to ${change.action || '(single action)'}`,
  'action-moved': (change) => `action ${change.from} moved to ${at(change.tool, change.action)}`,
  'argument-added': (change) =>
    `argument ${change.argument} added to ${at(change.tool, change.action)}${change.breaking ? ' (required)' : ''}`,
  'argument-removed': (change) => `argument ${change.argument} removed from ${at(change.tool, change.action)}`,
  'argument-now-required': (change) => `argument ${change.argument} of ${at(change.tool, change.action)} is now required`,
  'argument-now-optional': (change) => `argument ${change.argument} of ${at(change.tool, change.action)} is now optional`,
  'argument-retyped': (change) =>
    `argument ${change.argument} of ${at(change.tool, change.action)} changed type from ${change.from} to ${change.to}`,
};

/** One line per change, breaking ones marked. */
export function formatChange(change: SurfaceChange): string {
  return `${change.breaking ? 'BREAKING ' : ''}${LABELS[change.kind](change)}`;
}
