import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const SECRET_BYTES = 32;

/**
 * The key that signs this user's caches. The cache sits in the output folder, which anyone with the repository can
 * edit; the key sits in the user's own cache folder (`$XDG_CACHE_HOME/openapi-to-mcp`, else `~/.cache/…`), created
 * once, readable by the user only. A cache signed with another key — edited, committed from another machine,
 * planted — fails the check and is ignored. Undefined when the key can be neither read nor created (no cache then).
 */
export async function cacheSecret(): Promise<Buffer | undefined> {
  const base = process.env['XDG_CACHE_HOME'] || path.join(os.homedir(), '.cache');
  const file = path.join(base, 'openapi-to-mcp', 'cache-key');
  const existing = await readSecret(file);
  if (existing) return existing;
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // `wx`: when two runs race, one creates the key and the other reads it.
    await writeFile(file, randomBytes(SECRET_BYTES).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  return readSecret(file);
}

async function readSecret(file: string): Promise<Buffer | undefined> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    return /^[0-9a-f]{64}$/.test(text) ? Buffer.from(text, 'hex') : undefined;
  } catch {
    return undefined;
  }
}
