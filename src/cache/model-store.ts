import { rm } from 'node:fs/promises';
import path from 'node:path';
import { isCount, isJsonObject } from '../kernel/json.js';
import type { PathItemBuild } from '../model/path-item-memo.js';
import type { RunCache } from './run-cache.js';
import type { StoredReplay } from './path-item-replay.js';
import { CACHE_DIR, readSigned, writeSigned } from './signed-store.js';

const MODEL_FILE = 'model.json';
/** GitHub's builds are about 6 MB; past this size, parsing them costs more than building the model. */
const MAX_MODEL_BYTES = 64 * 1024 * 1024;

/**
 * The path item builds of the last run's model (cache/path-item-replay.ts), with the digest of the description they
 * were built from; undefined when there are none to trust (no file, not signed with this user's key by this generator,
 * another shape). What a build holds is the generator's own output, signed: its parts are checked as far as the
 * replay reads them, not value by value.
 */
export async function readStoredModel(cache: RunCache): Promise<{ digest: string; replay: StoredReplay } | undefined> {
  const stored = await readSigned(cache.outDir, MODEL_FILE, cache.signer, MAX_MODEL_BYTES);
  if (!isJsonObject(stored) || typeof stored['digest'] !== 'string') return undefined;
  const { items, reached, schemes } = stored;
  if (!Array.isArray(items) || !items.every(isStoredItem)) return undefined;
  if (!Array.isArray(reached) || !reached.every(isReached) || !Array.isArray(schemes) || !schemes.every(isJsonObject)) return undefined;
  return { digest: stored['digest'], replay: { items, reached, schemes } as StoredReplay };
}

/**
 * Stores a model's builds for the next run, with the digest of the description's text they were built from. Builds
 * that outgrow MAX_MODEL_BYTES are not stored (the write stops there), nor is an older file kept in their place.
 */
export async function storeModel(cache: RunCache, digest: string, replay: StoredReplay): Promise<void> {
  let characters = 0;
  const written = await writeSigned(
    cache.outDir,
    MODEL_FILE,
    async (write) => {
      const piece = async (text: string) => {
        // Characters: a lower bound of the bytes (a file of many non-ASCII characters may still be refused when read).
        characters += text.length;
        if (characters > MAX_MODEL_BYTES) throw new Error('too large to store');
        await write(text);
      };
      await piece(`{"digest":${JSON.stringify(digest)},"reached":${JSON.stringify(replay.reached)}`);
      await piece(`,"schemes":${JSON.stringify(replay.schemes)},"items":[`);
      for (const [index, item] of replay.items.entries()) await piece(`${index > 0 ? ',' : ''}${JSON.stringify(item)}`);
      await piece(']}');
    },
    cache.signer,
  );
  if (!written) await rm(path.join(cache.outDir, CACHE_DIR, MODEL_FILE), { force: true }).catch(() => undefined);
}

function isReached(value: unknown): boolean {
  return isJsonObject(value) && typeof value['name'] === 'string' && typeof value['pointer'] === 'string';
}

function isStoredItem(value: unknown): boolean {
  if (!Array.isArray(value) || value.length !== 3 || typeof value[0] !== 'string') return false;
  const [, before, build] = value as [string, unknown, unknown];
  return isJsonObject(before) && isCount(before['reached']) && isCount(before['schemes']) && isBuild(build);
}

function isBuild(value: unknown): value is PathItemBuild {
  if (!isJsonObject(value)) return false;
  const { operations, diagnostics, converted, schemes } = value;
  return (
    Array.isArray(operations) &&
    operations.every((operation) => isJsonObject(operation) && typeof operation['key'] === 'string') &&
    Array.isArray(diagnostics) &&
    diagnostics.every(isJsonObject) &&
    Array.isArray(schemes) &&
    schemes.every(isJsonObject) &&
    isJsonObject(converted) &&
    isCount(converted['nodes']) &&
    typeof converted['limited'] === 'boolean' &&
    Array.isArray(converted['reached']) &&
    converted['reached'].every((reached) => isReached(reached) && isJsonObject(reached) && 'model' in reached)
  );
}
