import { createHash } from 'node:crypto';

/** Name of the lock file at the root of a generated project. */
export const LOCK_FILE = 'openapi-to-mcp.lock.json';

/**
 * What a generated project remembers between generations: which tool and action name each operation got (so names
 * stay stable when the API grows), which headers were marked, and a hash of every generated file as written (so
 * hand edits are detected).
 */
export type LockFile = {
  lockVersion: 1;
  generator: string;
  tools: Record<string, { actions: Record<string, string> }>;
  files: Record<string, string>;
};

export function hashContent(content: string | Buffer): string {
  return `sha256-${createHash('sha256').update(content).digest('base64')}`;
}

export function parseLock(text: string): LockFile | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockFile>;
    if (value.lockVersion !== 1 || typeof value.files !== 'object' || value.files === null) return undefined;
    return { lockVersion: 1, generator: String(value.generator ?? ''), tools: value.tools ?? {}, files: value.files };
  } catch {
    return undefined;
  }
}
