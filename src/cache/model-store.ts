import { rm } from 'node:fs/promises';
import path from 'node:path';
import { isCount, isJsonObject, type JsonObject } from '../kernel/json.js';
import type { PathItemBuild } from '../model/path-item-memo.js';
import type { RunCache } from './run-cache.js';
import type { StoredReplay } from './path-item-replay.js';
import { CACHE_DIR, readSignedText, writeSigned } from './signed-store.js';

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
  const text = await readSignedText(cache.outDir, MODEL_FILE, cache.signer, MAX_MODEL_BYTES);
  const stored = text === undefined ? undefined : parsedLines(text);
  if (!stored || typeof stored.head['digest'] !== 'string') return undefined;
  const { reached, schemes } = stored.head;
  if (!Array.isArray(reached) || !reached.every(isReached) || !Array.isArray(schemes) || !schemes.every(isJsonObject)) return undefined;
  return { digest: stored.head['digest'], replay: { items: stored.items, reached, schemes } as StoredReplay };
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
      for (const [index, item] of replay.items.entries()) await piece(`\n${index > 0 ? ',' : ''}${itemText(item)}`);
      await piece('\n]}');
    },
    cache.signer,
  );
  if (!written) await rm(path.join(cache.outDir, CACHE_DIR, MODEL_FILE), { force: true }).catch(() => undefined);
}

/**
 * Each item's text as read, by its build: an item the next model replays is the same build from the same state,
 * and is written back as it was read instead of printed again (GitHub: 4 MB printed in about 23 ms).
 */
const itemTexts = new WeakMap<PathItemBuild, { key: string; reached: number; schemes: number; text: string }>();

type StoredItem = StoredReplay['items'][number];

function itemText(item: StoredItem): string {
  const [key, before, build] = item;
  const read = itemTexts.get(build);
  return read && read.key === key && read.reached === before.reached && read.schemes === before.schemes ? read.text : JSON.stringify(item);
}

/**
 * The stored model, as storeModel writes it: a first line up to the list of items, one item a line (after the first,
 * each starts with its comma), and the list's end. Each item is parsed and checked on its own, and its text kept
 * (itemTexts); undefined for any other text.
 */
function parsedLines(text: string): { head: JsonObject; items: StoredItem[] } | undefined {
  const lines = text.split('\n');
  if (lines.length < 2 || lines.at(-1) !== ']}') return undefined;
  try {
    const head = JSON.parse(`${lines[0]}]}`) as unknown;
    if (!isJsonObject(head)) return undefined;
    const items: StoredItem[] = [];
    for (const [index, line] of lines.slice(1, -1).entries()) {
      if (index > 0 && !line.startsWith(',')) return undefined;
      const text = index === 0 ? line : line.slice(1);
      const item = JSON.parse(text) as unknown;
      if (!isStoredItem(item)) return undefined;
      const [key, before, build] = item;
      itemTexts.set(build, { key, reached: before.reached, schemes: before.schemes, text });
      items.push(item);
    }
    return { head, items };
  } catch {
    return undefined;
  }
}

function isReached(value: unknown): boolean {
  return isJsonObject(value) && typeof value['name'] === 'string' && typeof value['pointer'] === 'string';
}

function isStoredItem(value: unknown): value is StoredItem {
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
