import { isAscii } from 'node:buffer';
import { createHmac, timingSafeEqual, type Hmac } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CACHE_DIR } from '../write/read-project.js';

/** The cache's own folder in the output folder, beside the lock file; it ignores itself in git. */
export { CACHE_DIR };

/** Bumped whenever what a cache file holds changes shape. */
const STORE_VERSION = 3;

/** Who may read an entry: this user's key, and the generator code that wrote it. */
export type Signer = { secret: Buffer; fingerprint: string };

/**
 * A cache file is three lines: a header (`storeVersion`, `fingerprint`, and the content key of an entry that holds
 * one), the JSON body as written, and the body's HMAC. The signature comes last so that the body can be written piece
 * by piece: a large API's cache is never one string in memory. The key is in the header so that a run whose inputs
 * changed learns from the first line that the entry is another run's, without reading and verifying megabytes.
 */
type Header = { storeVersion: number; fingerprint: string; key?: string };

const LINE_BREAK = 0x0a;

/** Longer than any header (a version, two hashes): a file whose first line is not in this prefix is not ours. */
const HEADER_BYTES = 1024;

/**
 * Reads one signed cache file. Anything unexpected — no file, over `maxBytes`, not JSON, another version of the generator,
 * another key than `key` (when given), a signature that does not match this user's key — is a miss, never an error:
 * the run then does the full work. The body comes back parsed but unchecked: callers validate its shape before using it.
 */
export async function readSigned(outDir: string, name: string, signer: Signer, maxBytes: number, key?: string): Promise<unknown> {
  const text = await readSignedText(outDir, name, signer, maxBytes, key);
  try {
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** `readSigned`, for a caller that parses the body's text itself: the text, once its signature has been checked. */
export async function readSignedText(
  outDir: string,
  name: string,
  signer: Signer,
  maxBytes: number,
  key?: string,
): Promise<string | undefined> {
  const file = path.join(outDir, CACHE_DIR, name);
  try {
    if ((await stat(file)).size > maxBytes) return undefined;
    if (!acceptable(parseHeader(await readStart(file, HEADER_BYTES)), signer, key)) return undefined;
    // Bytes, not text: the signature is checked over the body's bytes as written, and only a body that passes is
    // decoded; decoding first meant encoding the text again for the HMAC (GitHub's 3 MB run entry: 85 → 65 ms).
    const bytes = await readFile(file);
    const first = bytes.indexOf(LINE_BREAK);
    const last = bytes.lastIndexOf(LINE_BREAK);
    if (first < 0 || last <= first) return undefined;
    if (!acceptable(parseHeader(bytes.toString('utf8', 0, first)), signer, key)) return undefined;
    const body = bytes.subarray(first + 1, last);
    const expected = hmac(signer).update(body).digest();
    const given = Buffer.from(bytes.toString('latin1', last + 1), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    // An ASCII body (a description without characters past ASCII makes one) read as Latin-1 is a copy of its bytes,
    // where decoding UTF-8 costs about 9 ms for each 4 MB; the check costs a fraction of a millisecond.
    return isAscii(body) ? body.toString('latin1') : body.toString('utf8');
  } catch {
    return undefined;
  }
}

async function readStart(file: string, bytes: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(bytes), 0, bytes, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The header line at the start of `text` (the whole of it when it holds no line break), or undefined. */
function parseHeader(text: string): Partial<Header> | undefined {
  const end = text.indexOf('\n');
  try {
    const header = JSON.parse(end < 0 ? text : text.slice(0, end)) as unknown;
    return typeof header === 'object' && header !== null ? (header as Partial<Header>) : undefined;
  } catch {
    return undefined;
  }
}

function acceptable(header: Partial<Header> | undefined, signer: Signer, key: string | undefined): boolean {
  return header?.storeVersion === STORE_VERSION && header.fingerprint === signer.fingerprint && (key === undefined || header.key === key);
}

/** How much of a body is gathered before it is written. */
const BATCH_BYTES = 1024 * 1024;

/** Writes a body's JSON text in pieces (each piece is valid JSON text only once all are joined). */
export type BodyWriter = (write: (piece: string) => Promise<void>) => Promise<void>;

/**
 * Writes one signed cache file, through a temporary file and a rename so that a reader never sees half of it.
 * A cache that cannot be written costs the next run its speed, nothing else: failures are swallowed (false).
 */
export async function writeSigned(outDir: string, name: string, body: BodyWriter, signer: Signer, key?: string): Promise<boolean> {
  const dir = path.join(outDir, CACHE_DIR);
  const file = path.join(dir, name);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, '.gitignore'), '# Regeneration cache of openapi-to-mcp: local to this machine.\n*\n');
    const handle = await open(temporary, 'w');
    try {
      const header: Header = { storeVersion: STORE_VERSION, fingerprint: signer.fingerprint, ...(key === undefined ? {} : { key }) };
      await handle.write(`${JSON.stringify(header)}\n`);
      const signature = hmac(signer);
      // Each piece is encoded once, for the signature and the file alike, and written with others in one system
      // call: one write per piece (GitHub's run entry is some 460) took 25 ms where this takes 11 (load 7).
      let batch: Buffer[] = [];
      let batched = 0;
      const flush = async () => {
        const pieces = batch;
        batch = [];
        batched = 0;
        if (pieces.length > 0) await handle.writev(pieces);
      };
      await body(async (piece) => {
        const bytes = Buffer.from(piece);
        signature.update(bytes);
        batch.push(bytes);
        batched += bytes.length;
        if (batched >= BATCH_BYTES) await flush();
      });
      await flush();
      await handle.write(`\n${signature.digest('hex')}`);
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
    return true;
  } catch {
    await rm(temporary, { force: true }).catch(() => undefined);
    return false;
  }
}

/** A body written as one piece, for values of moderate size. */
export function wholeBody(value: unknown): BodyWriter {
  return (write) => write(JSON.stringify(value));
}

function hmac(signer: Signer): Hmac {
  return createHmac('sha256', signer.secret).update(signer.fingerprint).update('\n');
}
