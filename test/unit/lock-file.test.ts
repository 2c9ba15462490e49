import { describe, expect, it } from 'vitest';
import type { Surface } from '../../src/surface/surface.js';
import { LOCK_VERSION, lockFileText, parseLock, type LockFile } from '../../src/write/lock-file.js';

const surface: Surface = {
  tools: {
    pets_read: {
      intent: 'read',
      actions: {
        get_pet: {
          operation: 'GET /pets/{id}',
          arguments: { id: { type: 'integer', required: true }, fields: { type: 'array', required: false } },
        },
        list_pets: { operation: 'GET /pets', arguments: { limit: { type: 'integer', required: false } } },
        // The same argument name with another type in one action: written as `id:string` on that action's line.
        find_pet: { operation: 'GET /find', arguments: { id: { type: 'string', required: false } } },
      },
    },
    pets_delete: {
      intent: 'delete',
      actions: { '': { operation: 'DELETE /pets/{id}', arguments: { id: { type: 'integer|null', required: true } } } },
    },
    ping_write: { intent: 'write', actions: { '': { operation: 'POST /ping', arguments: {} } } },
  },
};
const lock: LockFile = { generator: 'openapi-to-mcp@0.1.0', surface, files: { 'src/api.ts': 'sha256-abc', 'README.md': 'sha256-def' } };

describe('the lock file', () => {
  it('reads back what it writes, argument types and requirement included', () => {
    expect(parseLock(lockFileText(lock))).toEqual(lock);
  });

  it('writes one line per action: the operation, required arguments, then optional ones marked ?', () => {
    const text = lockFileText(lock);
    expect(JSON.parse(text)).toMatchObject({ lockVersion: LOCK_VERSION, generator: 'openapi-to-mcp@0.1.0' });
    expect(text).toContain('\n        "get_pet": ["GET /pets/{id}", "id", "fields?"],\n');
    expect(text).toContain('\n        "find_pet": ["GET /find", "id?:string"]\n');
    expect(text).toContain('\n      "arguments": { "fields": "array", "id": "integer", "limit": "integer" },\n');
    expect(text).toContain('\n        "": ["POST /ping"]\n');
  });

  it('reads the version 1 format, which spelled every argument out', () => {
    const v1 = JSON.stringify({ lockVersion: 1, generator: lock.generator, surface, files: lock.files }, null, 2);
    expect(parseLock(v1)).toEqual(lock);
  });

  it('refuses an unknown version and drops names and paths that are not safe', () => {
    expect(parseLock(JSON.stringify({ lockVersion: 3, tools: {}, files: {} }))).toBeUndefined();
    expect(parseLock('{')).toBeUndefined();
    const hostile = JSON.parse(lockFileText(lock)) as { tools: Record<string, unknown>; files: Record<string, string> };
    hostile.tools['../escape'] = hostile.tools['pets_read'];
    hostile.files['../outside.txt'] = 'sha256-x';
    (hostile.tools['pets_read'] as { actions: Record<string, unknown> }).actions['bad name'] = ['GET /x'];
    (hostile.tools['pets_read'] as { actions: Record<string, unknown> }).actions['not_a_list'] = { operation: 'GET /y' };
    expect(parseLock(JSON.stringify(hostile))).toEqual(lock);
  });
});
