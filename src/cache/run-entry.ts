import { DIAGNOSTIC_CATALOG } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { EmittedFile } from '../emit/file-set.js';
import { isJsonObject, type JsonObject } from '../kernel/json.js';
import { isUsableName } from '../kernel/names.js';
import type { ToolPlan } from '../plan/tool-plan.js';
import type { SurfaceChoice } from '../search/search-plan.js';
import { isSafeRelativePath } from '../write/lock-file.js';

/**
 * What a whole generation produced before writing, for the same inputs: the diagnostics of load, model and plan,
 * the plan, the surface served, and every emitted file. Stored under the run's content key.
 */
export type RunEntry = { key: string; diagnostics: Diagnostic[]; plan: ToolPlan; surface: SurfaceChoice; files: EmittedFile[] };

const OWNERSHIPS = new Set(['generated', 'user', 'journal']);
const SEVERITIES = new Set(['error', 'warning', 'info']);
const TEXT_FIELDS = ['pointer', 'file', 'hint'] as const;
const NUMBER_FIELDS = ['line', 'column'] as const;

/**
 * The entry, if it is one for this key and has the shape this generator writes. Signed entries are this user's own,
 * but the shape is still checked, as for any input: file paths must stay inside the output folder, names must be
 * usable tool names, diagnostics must carry known codes.
 */
export function checkRunEntry(value: unknown, key: string): RunEntry | undefined {
  if (!isJsonObject(value) || value['key'] !== key) return undefined;
  const { diagnostics, plan, surface, files } = value as Record<string, unknown>;
  if (!Array.isArray(diagnostics) || !diagnostics.every(isDiagnostic)) return undefined;
  if (!Array.isArray(files) || !files.every(isEmittedFile) || !distinctPaths(files)) return undefined;
  if (!isPlan(plan) || !isSurfaceChoice(surface)) return undefined;
  return { key, diagnostics, plan, surface, files };
}

/** A diagnostic as this generator writes one: a known code and severity, and text and number fields only. */
export function isDiagnostic(value: unknown): value is Diagnostic {
  if (!isJsonObject(value)) return false;
  const { severity, code, message } = value;
  if (typeof severity !== 'string' || !SEVERITIES.has(severity) || typeof message !== 'string') return false;
  if (typeof code !== 'string' || !Object.hasOwn(DIAGNOSTIC_CATALOG, code)) return false;
  return (
    TEXT_FIELDS.every((field) => value[field] === undefined || typeof value[field] === 'string') &&
    NUMBER_FIELDS.every((field) => value[field] === undefined || typeof value[field] === 'number')
  );
}

function isEmittedFile(value: unknown): value is EmittedFile {
  return (
    isJsonObject(value) &&
    typeof value['path'] === 'string' &&
    isSafeRelativePath(value['path']) &&
    typeof value['content'] === 'string' &&
    typeof value['ownership'] === 'string' &&
    OWNERSHIPS.has(value['ownership'])
  );
}

function distinctPaths(files: EmittedFile[]): boolean {
  return new Set(files.map((file) => file.path)).size === files.length;
}

/** What the pipeline and its callers read of a plan: the API's facts, the tools' names and actions, the totals. */
function isPlan(value: unknown): value is ToolPlan {
  if (!isJsonObject(value) || !isJsonObject(value['api']) || !isJsonObject(value['totals']) || !Array.isArray(value['tools'])) return false;
  const { api, totals, tools } = value;
  if (typeof api['title'] !== 'string' || typeof api['version'] !== 'string' || typeof api['slug'] !== 'string') return false;
  if (!['tools', 'actions', 'operations', 'excluded', 'tokens'].every((field) => typeof totals[field] === 'number')) return false;
  return tools.every(
    (tool) =>
      isJsonObject(tool) &&
      typeof tool['name'] === 'string' &&
      isUsableName(tool['name']) &&
      isJsonObject(tool['inputSchema']) &&
      Array.isArray(tool['actions']) &&
      tool['actions'].every((action) => isStoredAction(action) && Array.isArray(action['required'])),
  );
}

/** The parts of a stored action that the emitter reads without checking them again: its name, operation and route. */
export function isStoredAction(action: unknown): action is JsonObject {
  return (
    isJsonObject(action) &&
    typeof action['name'] === 'string' &&
    isJsonObject(action['operation']) &&
    typeof action['operation']['key'] === 'string' &&
    isJsonObject(action['route']) &&
    Array.isArray(action['route']['arguments'])
  );
}

function isSurfaceChoice(value: unknown): value is SurfaceChoice {
  if (!isJsonObject(value) || typeof value['mode'] !== 'string' || typeof value['requested'] !== 'string') return false;
  const search = value['search'];
  return (
    search === undefined ||
    (isJsonObject(search) && Array.isArray(search['tools']) && typeof search['tokens'] === 'number' && isJsonObject(search['indexStats']))
  );
}
