import { createHash } from 'node:crypto';
import type { Surface } from '../plan/surface.js';

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

export function parseLock(text: string): LockFile | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockFile>;
    if (value.lockVersion !== 1 || typeof value.files !== 'object' || value.files === null) return undefined;
    const surface =
      value.surface && typeof value.surface === 'object' && typeof value.surface.tools === 'object' ? value.surface : { tools: {} };
    return { lockVersion: 1, generator: String(value.generator ?? ''), surface, files: value.files };
  } catch {
    return undefined;
  }
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
