import { cacheSecret } from './cache-secret.js';
import { contentHash, stableJson } from './content-hash.js';
import { generatorFingerprint } from './generator-fingerprint.js';
import { checkRunEntry, type RunEntry } from './run-entry.js';
import { readSigned, writeSigned, type Signer } from './signed-store.js';

export type { RunEntry } from './run-entry.js';

const RUN_FILE = 'run.json';
/** Microsoft Graph's run is about 70 MB; reading it (well under a second) replaces a run of many seconds. */
const MAX_RUN_BYTES = 256 * 1024 * 1024;

/** Everything a generation's output depends on, besides the generator's own code. */
export type RunInputs = {
  /** The digest of the description's text, exactly as read (load/source-digest.ts). */
  textHash: string;
  /** The resolved options that reach planning and emitting (not where or how the output is written). */
  options: unknown;
  /** What the lock file pins, as planning reads it. */
  pinned: unknown;
};

/** One output folder's cache, opened for one run's inputs. */
export type RunCache = { outDir: string; key: string; signer: Signer };

/** Undefined when there is no key to sign with (an unwritable home): the run then simply does the full work. */
export async function openRunCache(outDir: string, inputs: RunInputs): Promise<RunCache | undefined> {
  const secret = await cacheSecret();
  if (!secret) return undefined;
  const fingerprint = generatorFingerprint();
  const key = contentHash(fingerprint, stableJson(inputs.options), stableJson(inputs.pinned ?? null), inputs.textHash);
  return { outDir, key, signer: { secret, fingerprint } };
}

/** The stored result of a run with the same inputs, or undefined (none, another run's, or not to be trusted). */
export async function lookupRun(cache: RunCache): Promise<RunEntry | undefined> {
  return checkRunEntry(await readSigned(cache.outDir, RUN_FILE, cache.signer, MAX_RUN_BYTES, cache.key), cache.key);
}

export async function storeRun(cache: RunCache, entry: Omit<RunEntry, 'key'>): Promise<void> {
  // The plan and the files are the large parts (tens of megabytes for the largest APIs): written element by element.
  await writeSigned(
    cache.outDir,
    RUN_FILE,
    async (write) => {
      await write(`{"key":${JSON.stringify(cache.key)},"diagnostics":${JSON.stringify(entry.diagnostics)}`);
      await write(`,"surface":${JSON.stringify(entry.surface)},"plan":`);
      await writeObject(entry.plan, write);
      await write(`,"files":`);
      await writeArray(entry.files, write);
      await write('}');
    },
    cache.signer,
    cache.key,
  );
}

type Write = (piece: string) => Promise<void>;

/** An object's JSON, one property at a time, arrays among them one element at a time. */
async function writeObject(value: object, write: Write): Promise<void> {
  let first = true;
  await write('{');
  for (const [key, inner] of Object.entries(value)) {
    if (inner === undefined) continue;
    await write(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (Array.isArray(inner)) await writeArray(inner, write);
    else await write(JSON.stringify(inner));
  }
  await write('}');
}

async function writeArray(values: unknown[], write: Write): Promise<void> {
  await write('[');
  for (const [index, inner] of values.entries()) await write(`${index > 0 ? ',' : ''}${JSON.stringify(inner) ?? 'null'}`);
  await write(']');
}
