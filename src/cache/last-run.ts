import type { KeptCheck } from '../load/last-check.js';
import { readLastCheck, storeCheck } from './check-store.js';
import { readStoredModel, storeModel } from './model-store.js';
import type { PathItemReplay, StoredReplay } from './path-item-replay.js';
import type { RunCache } from './run-cache.js';

/**
 * What a run keeps for the next run into its folder beside its output: its schema check (load/last-check.ts) and its
 * model's path item builds (path-item-replay.ts), with the digest of the description's text they were made from.
 */
export type Kept = { digest: string; check: Promise<KeptCheck | undefined>; replay?: PathItemReplay };

/** What a run starts from of the last run's: its check, and its builds where they are of the same text. */
export type LastRun = { check: KeptCheck; model?: StoredReplay };

/**
 * The check and the builds, stored as a pair: a run starts from the builds only with the check of the same text,
 * whose pieces tell which path item changed since. Nothing is stored where the check could not be kept.
 */
export async function storeKept(cache: RunCache, kept: Kept): Promise<void> {
  const check = await kept.check;
  if (!check) return;
  const stored = kept.replay?.stored();
  await Promise.all([storeCheck(cache, kept.digest, check), stored && storeModel(cache, kept.digest, stored)]);
}

export async function readLastRun(cache: RunCache): Promise<LastRun | undefined> {
  const [check, model] = await Promise.all([readLastCheck(cache), readStoredModel(cache)]);
  if (!check) return undefined;
  return { check: check.kept, ...(model && model.digest === check.digest ? { model: model.replay } : {}) };
}
