import { createHash } from 'node:crypto';
import { setOwn } from '../kernel/json.js';
import { isUsableName } from '../kernel/names.js';
import type { Surface, SurfaceAction } from '../surface/surface.js';

/** Name of the lock file at the root of a generated project. */
export const LOCK_FILE = 'openapi-to-mcp.lock.json';

/**
 * What a generated project remembers between generations: the model-facing surface (which tool and action each
 * operation got, and the arguments each action takes), so that names stay stable when the API grows and changes
 * can be reported; and a hash of every generated file as written, so that hand edits are detected.
 */
export type LockFile = {
  lockVersion: 1;
  generator: string;
  surface: Surface;
  files: Record<string, string>;
};

export function hashContent(content: string | Buffer): string {
  return `sha256-${createHash('sha256').update(content).digest('base64')}`;
}

/**
 * Reads a lock file. It sits in the output folder, where a hand or a pull request can change it, so it is input like
 * the description: file paths that leave the folder and names that are not valid tool names are dropped (a path
 * such as `../../.bashrc` would otherwise be removed as a stale generated file, a name written as a file name).
 */
export function parseLock(text: string): LockFile | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockFile>;
    if (value.lockVersion !== 1 || typeof value.files !== 'object' || value.files === null) return undefined;
    return {
      lockVersion: 1,
      generator: typeof value.generator === 'string' ? value.generator : '',
      surface: cleanSurface(value.surface),
      files: cleanFiles(value.files),
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

function cleanFiles(files: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(files)) return out;
  for (const [file, hash] of Object.entries(files)) if (isSafeRelativePath(file) && typeof hash === 'string') setOwn(out, file, hash);
  return out;
}

function cleanSurface(surface: unknown): Surface {
  const tools: Surface['tools'] = {};
  if (!isRecord(surface) || !isRecord(surface['tools'])) return { tools };
  for (const [tool, entry] of Object.entries(surface['tools'])) {
    if (!isUsableName(tool) || !isRecord(entry) || !isRecord(entry['actions'])) continue;
    const intent = entry['intent'];
    const actions: Surface['tools'][string]['actions'] = {};
    for (const [action, detail] of Object.entries(entry['actions'])) {
      if ((action !== '' && !isUsableName(action)) || !isRecord(detail) || typeof detail['operation'] !== 'string') continue;
      const args: SurfaceAction['arguments'] = {};
      if (isRecord(detail['arguments']))
        for (const [arg, info] of Object.entries(detail['arguments']))
          if (isRecord(info))
            setOwn(args, arg, { type: typeof info['type'] === 'string' ? info['type'] : 'any', required: info['required'] === true });
      setOwn(actions, action, { operation: detail['operation'], arguments: args });
    }
    setOwn(tools, tool, { intent: intent === 'write' || intent === 'delete' ? intent : 'read', actions });
  }
  return { tools };
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
