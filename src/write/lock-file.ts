import { createHash } from 'node:crypto';
import { jsonString } from '../emit/print/literals.js';
import { setOwn } from '../kernel/json.js';
import { isUsableName } from '../kernel/names.js';
import type { Intent, Surface, SurfaceAction } from '../surface/surface.js';

/** Name of the lock file at the root of a generated project. */
export const LOCK_FILE = 'openapi-to-mcp.lock.json';

/** The format this generator writes; it still reads version 1 (every argument spelled out per action). */
export const LOCK_VERSION = 2;

/**
 * What a generated project remembers between generations: the model-facing surface (which tool and action each
 * operation got, and the arguments each action takes), so that names stay stable when the API grows and changes
 * can be reported; and a hash of every generated file as written, so that hand edits are detected.
 */
export type LockFile = {
  generator: string;
  /** The prefix every tool name carries (`--prefix`), so that a later generation with another one can rename them. */
  prefix?: string;
  surface: Surface;
  files: Record<string, string>;
};

export function hashContent(content: string | Buffer): string {
  return `sha256-${createHash('sha256').update(content).digest('base64')}`;
}

/**
 * The lock file's text, version 2: per tool its intent, the type of each argument once (a tool's input schema gives
 * an argument one type whatever the action), and per action on one line its operation and its arguments, required
 * ones first, optional ones marked `?`, each followed by `:type` where the action's type is not the tool's (argument
 * names never hold `?` or `:`). A change to the surface shows as a change to the lines of the actions it touches.
 * Version 1 spelled every argument of every action out over four lines (GitHub's: 769 KB).
 */
export function lockFileText(lock: LockFile): string {
  const tools = Object.entries(lock.surface.tools).map(([name, tool]) => {
    const types: Record<string, string> = {};
    for (const action of Object.values(tool.actions))
      for (const [arg, { type }] of Object.entries(action.arguments)) if (!Object.hasOwn(types, arg)) setOwn(types, arg, type);
    const actions = Object.entries(tool.actions).map(([actionName, action]) => `${json(actionName)}: ${line(lockedAction(action, types))}`);
    return [
      `${json(name)}: {`,
      `  "intent": ${json(tool.intent)},`,
      `  "arguments": ${oneLineRecord(sortedRecord(types))},`,
      `  "actions": ${block(actions, '  ')}`,
      '}',
    ].join('\n');
  });
  const files = Object.entries(lock.files).map(([file, hash]) => `${json(file)}: ${json(hash)}`);
  const lines = [
    `"lockVersion": ${LOCK_VERSION}`,
    `"generator": ${json(lock.generator)}`,
    ...(lock.prefix ? [`"prefix": ${json(lock.prefix)}`] : []),
    `"tools": ${block(tools, '')}`,
    `"files": ${block(files, '')}`,
  ];
  return `${block(lines, '', '')}\n`;
}

/** `[operation, …arguments]` of one action. */
function lockedAction(action: SurfaceAction, types: Record<string, string>): string[] {
  const entries = Object.entries(action.arguments);
  const written = ([arg, detail]: [string, { type: string; required: boolean }]) =>
    `${arg}${detail.required ? '' : '?'}${types[arg] === detail.type ? '' : `:${detail.type}`}`;
  return [
    action.operation,
    ...entries.filter(([, detail]) => detail.required).map(written),
    ...entries.filter(([, detail]) => !detail.required).map(written),
  ];
}

/** A string as JSON, U+2028 and U+2029 escaped as in every emitted file. */
const json = (value: string) => jsonString(value);
const line = (items: string[]) => `[${items.map(json).join(', ')}]`;
const oneLineRecord = (record: Record<string, string>) => {
  const entries = Object.entries(record).map(([key, value]) => `${json(key)}: ${json(value)}`);
  return entries.length > 0 ? `{ ${entries.join(', ')} }` : '{}';
};

/** `{`, the entries one per line (each indented two more than the block), `}`; entries may span lines. */
function block(entries: string[], indent: string, outer = indent): string {
  if (entries.length === 0) return '{}';
  const inner = `${outer}  `;
  return `{\n${entries.map((entry) => inner + entry.split('\n').join(`\n${inner}`)).join(',\n')}\n${outer}}`;
}

function sortedRecord(record: Record<string, string>): Record<string, string> {
  const sorted: Record<string, string> = {};
  for (const key of Object.keys(record).sort()) setOwn(sorted, key, record[key] as string);
  return sorted;
}

/**
 * Reads a lock file of either version. It sits in the output folder, where a hand or a pull request can change it,
 * so it is input like the description: file paths that leave the folder and names that are not valid tool names are
 * dropped (a path such as `../../.bashrc` would otherwise be removed as a stale generated file, a name written as a
 * file name).
 */
export function parseLock(text: string): LockFile | undefined {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (!isRecord(value) || !isRecord(value['files'])) return undefined;
    const version = value['lockVersion'];
    if (version !== 1 && version !== LOCK_VERSION) return undefined;
    const surface = version === 1 ? cleanSurface(surfaceV1(value['surface'])) : cleanSurface(surfaceV2(value['tools']));
    const prefix = value['prefix'];
    return {
      generator: typeof value['generator'] === 'string' ? value['generator'] : '',
      ...(typeof prefix === 'string' && isUsableName(prefix) ? { prefix } : {}),
      surface,
      files: cleanFiles(value['files']),
    };
  } catch {
    return undefined;
  }
}

/** A relative path that stays inside the folder it is relative to, in the forward-slash form the emitter writes. */
export function isSafeRelativePath(file: string): boolean {
  return (
    file !== '' &&
    !file.startsWith('/') &&
    !/[\\\u0000-\u001f:]/.test(file) &&
    file.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  );
}

function cleanFiles(files: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [file, hash] of Object.entries(files)) if (isSafeRelativePath(file) && typeof hash === 'string') setOwn(out, file, hash);
  return out;
}

/** A surface as read, before its names are checked: tool → intent and actions, action → operation and arguments. */
type RawSurface = Array<{
  tool: string;
  intent: unknown;
  actions: Array<{ action: string; operation: unknown; arguments: RawArgument[] }>;
}>;
type RawArgument = { arg: string; type: unknown; required: unknown };

/** Version 1: `surface.tools[tool].actions[action] = { operation, arguments: { arg: { type, required } } }`. */
function surfaceV1(surface: unknown): RawSurface {
  if (!isRecord(surface) || !isRecord(surface['tools'])) return [];
  return Object.entries(surface['tools']).flatMap(([tool, entry]) =>
    isRecord(entry) && isRecord(entry['actions'])
      ? [
          {
            tool,
            intent: entry['intent'],
            actions: Object.entries(entry['actions']).flatMap(([action, detail]) =>
              isRecord(detail)
                ? [
                    {
                      action,
                      operation: detail['operation'],
                      arguments: Object.entries(isRecord(detail['arguments']) ? detail['arguments'] : {}).flatMap(([arg, info]) =>
                        isRecord(info) ? [{ arg, type: info['type'], required: info['required'] }] : [],
                      ),
                    },
                  ]
                : [],
            ),
          },
        ]
      : [],
  );
}

/** Version 2: `tools[tool] = { intent, arguments: { arg: type }, actions: { action: [operation, "arg?:type", …] } }`. */
function surfaceV2(tools: unknown): RawSurface {
  if (!isRecord(tools)) return [];
  return Object.entries(tools).flatMap(([tool, entry]) => {
    if (!isRecord(entry) || !isRecord(entry['actions'])) return [];
    const types = isRecord(entry['arguments']) ? entry['arguments'] : {};
    const actions = Object.entries(entry['actions']).flatMap(([action, detail]) => {
      if (!Array.isArray(detail) || typeof detail[0] !== 'string') return [];
      const args = detail
        .slice(1)
        .filter((item): item is string => typeof item === 'string')
        .map((item) => {
          const [, arg = '', optional, type] = /^([^?:]*)(\?)?(?::(.*))?$/s.exec(item) ?? [];
          return { arg, type: type ?? (Object.hasOwn(types, arg) ? types[arg] : undefined), required: optional === undefined };
        })
        .sort((a, b) => (a.arg < b.arg ? -1 : a.arg > b.arg ? 1 : 0));
      return [{ action, operation: detail[0], arguments: args }];
    });
    return [{ tool, intent: entry['intent'], actions }];
  });
}

/** Keeps the entries whose names are usable and whose values have the expected types. */
function cleanSurface(raw: RawSurface): Surface {
  const tools: Surface['tools'] = {};
  for (const { tool, intent, actions: rawActions } of raw) {
    if (!isUsableName(tool)) continue;
    const actions: Surface['tools'][string]['actions'] = {};
    for (const { action, operation, arguments: rawArguments } of rawActions) {
      if ((action !== '' && !isUsableName(action)) || typeof operation !== 'string') continue;
      const args: SurfaceAction['arguments'] = {};
      for (const { arg, type, required } of rawArguments)
        setOwn(args, arg, { type: typeof type === 'string' ? type : 'any', required: required === true });
      setOwn(actions, action, { operation, arguments: args });
    }
    setOwn(tools, tool, { intent: intentOf(intent), actions });
  }
  return { tools };
}

function intentOf(value: unknown): Intent {
  return value === 'write' || value === 'delete' ? value : 'read';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Tool → action → operation key: the names the planner keeps. */
export function namesOf(surface: Surface): Record<string, { actions: Record<string, string> }> {
  return Object.fromEntries(
    Object.entries(surface.tools).map(([tool, entry]) => [
      tool,
      { actions: Object.fromEntries(Object.entries(entry.actions).map(([action, detail]) => [action, detail.operation])) },
    ]),
  );
}
