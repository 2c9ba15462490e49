import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The cache's own folder in the output folder, beside the lock file; it ignores itself in git. */
export const CACHE_DIR = '.openapi-to-mcp-cache';

/** Bumped whenever what a cache file holds changes shape. */
const STORE_VERSION = 1;

/** Who may read an entry: this user's key, and the generator code that wrote it. */
export type Signer = { secret: Buffer; fingerprint: string };

/** A cache file's first line; the signed JSON body follows it as written (not re-encoded as a string). */
type Header = { storeVersion: number; fingerprint: string; mac: string };

/**
 * Reads one signed cache file. Anything unexpected — no file, not JSON, another version of the generator, a
 * signature that does not match this user's key — is a miss, never an error: the run then does the full work.
 * The body comes back parsed but unchecked: callers validate its shape before using it.
 */
export async function readSigned(outDir: string, name: string, signer: Signer): Promise<unknown> {
  try {
    const text = await readFile(path.join(outDir, CACHE_DIR, name), 'utf8');
    const newline = text.indexOf('\n');
    if (newline < 0) return undefined;
    const header = JSON.parse(text.slice(0, newline)) as Partial<Header>;
    if (header.storeVersion !== STORE_VERSION || header.fingerprint !== signer.fingerprint || typeof header.mac !== 'string')
      return undefined;
    const body = text.slice(newline + 1);
    const expected = Buffer.from(sign(signer, body), 'hex');
    const given = Buffer.from(header.mac, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Writes one signed cache file, through a temporary file and a rename so that a reader never sees half of it.
 * A cache that cannot be written costs the next run its speed, nothing else: failures are swallowed.
 */
export async function writeSigned(outDir: string, name: string, value: unknown, signer: Signer): Promise<void> {
  const dir = path.join(outDir, CACHE_DIR);
  const file = path.join(dir, name);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, '.gitignore'), '# Regeneration cache of openapi-to-mcp: local to this machine.\n*\n');
    const body = JSON.stringify(value);
    const header: Header = { storeVersion: STORE_VERSION, fingerprint: signer.fingerprint, mac: sign(signer, body) };
    await writeFile(temporary, `${JSON.stringify(header)}\n${body}`);
    await rename(temporary, file);
  } catch {
    await rm(temporary, { force: true }).catch(() => undefined);
  }
}

function sign(signer: Signer, body: string): string {
  return createHmac('sha256', signer.secret).update(signer.fingerprint).update('\n').update(body).digest('hex');
}
