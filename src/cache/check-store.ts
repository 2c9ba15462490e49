import { isCount, isJsonObject, isTextList } from '../kernel/json.js';
import type { RefScan } from '../load/data-refs.js';
import type { KeptCheck } from '../load/last-check.js';
import type { OutlineSpan, PathItemSpan } from '../load/path-item-spans.js';
import type { TextPieces } from '../load/text-pieces.js';
import type { SchemaError } from '../load/validate-document.js';
import type { RunCache } from './run-cache.js';
import { readSigned, wholeBody, writeSigned } from './signed-store.js';

const CHECK_FILE = 'check.json';
/** Hashes, spans and errors: well under a megabyte for the largest descriptions known. */
const MAX_CHECK_BYTES = 64 * 1024 * 1024;

/** A span as stored: [key, start, end]. */
type StoredSpan = [string, number, number];
/** An outlined member as stored: [key, start, end], and its entries where it has any. */
type StoredOutline = [string, number, number] | [string, number, number, StoredOutline[]];
type StoredCheck = Omit<TextPieces, 'spans' | 'outline'> & {
  digest: string;
  spans: StoredSpan[];
  outline?: StoredOutline[];
  nodes?: number;
  refs?: RefScan;
  errors: SchemaError[];
};

/** How deep an outline goes: the root's members, `components`, its maps (load/path-item-spans.ts). */
const OUTLINE_LEVELS = 3;

/**
 * The schema check the last run into this folder kept (load/last-check.ts), with the digest of the description's
 * text it checked, or undefined when there is none to trust: no file, not signed with this user's key by this
 * generator, or another shape.
 */
export async function readLastCheck(cache: RunCache): Promise<{ digest: string; kept: KeptCheck } | undefined> {
  const stored = await readSigned(cache.outDir, CHECK_FILE, cache.signer, MAX_CHECK_BYTES);
  if (!isStoredCheck(stored)) return undefined;
  const { digest, length, heads, values, tail, errors, nodes, refs } = stored;
  const spans = stored.spans.map(([key, start, end]): PathItemSpan => ({ key, start, end }));
  const outline = stored.outline && outlineOf(stored.outline);
  return {
    digest,
    kept: {
      pieces: { length, spans, heads, values, tail, ...(outline ? { outline } : {}) },
      check: { errors },
      ...(nodes === undefined ? {} : { nodes }),
      ...(refs ? { refs: { allInternal: refs.allInternal, noneIntoPaths: refs.noneIntoPaths } } : {}),
    },
  };
}

/**
 * Keeps a run's check for the next run into this folder, with the digest of the description's text. A check that
 * failed without errors is not kept: the next run checks whole anyway. A cache that cannot be written costs the next
 * run its speed only (writeSigned).
 */
export async function storeCheck(cache: RunCache, digest: string, kept: KeptCheck): Promise<void> {
  if (kept.check.failure !== undefined) return;
  const { spans, outline, ...pieces } = kept.pieces;
  const value: StoredCheck = {
    digest,
    ...pieces,
    spans: spans.map(({ key, start, end }): StoredSpan => [key, start, end]),
    ...(outline ? { outline: storedOutline(outline) } : {}),
    ...(kept.nodes === undefined ? {} : { nodes: kept.nodes }),
    ...(kept.refs ? { refs: kept.refs } : {}),
    errors: kept.check.errors,
  };
  await writeSigned(cache.outDir, CHECK_FILE, wholeBody(value), cache.signer);
}

const isText = (value: unknown): value is string => typeof value === 'string';

function storedOutline(outline: readonly OutlineSpan[]): StoredOutline[] {
  return outline.map(({ key, start, end, entries }): StoredOutline =>
    entries ? [key, start, end, storedOutline(entries)] : [key, start, end],
  );
}

function outlineOf(stored: readonly StoredOutline[]): OutlineSpan[] {
  return stored.map(([key, start, end, entries]) => ({ key, start, end, ...(entries ? { entries: outlineOf(entries) } : {}) }));
}

function isStoredCheck(value: unknown): value is StoredCheck {
  if (!isJsonObject(value)) return false;
  const { digest, length, spans, heads, values, tail, errors, outline, nodes, refs } = value;
  return (
    isText(digest) &&
    isCount(length) &&
    (nodes === undefined || isCount(nodes)) &&
    (refs === undefined ||
      (isJsonObject(refs) && typeof refs['allInternal'] === 'boolean' && typeof refs['noneIntoPaths'] === 'boolean')) &&
    (outline === undefined || isOutline(outline, 0, length, OUTLINE_LEVELS)) &&
    isText(tail) &&
    Array.isArray(spans) &&
    spans.every(isStoredSpan) &&
    ordered(spans, length) &&
    isTextList(heads) &&
    heads.length === spans.length &&
    isTextList(values) &&
    values.length === spans.length &&
    Array.isArray(errors) &&
    errors.every(isSchemaError)
  );
}

function isStoredSpan(value: unknown): value is StoredSpan {
  return Array.isArray(value) && value.length === 3 && isText(value[0]) && isCount(value[1]) && isCount(value[2]);
}

/** Whether spans lie in the text (or within [from, to]) one after the other, as the comparison of pieces reads them. */
function ordered(spans: readonly (StoredSpan | StoredOutline)[], to: number, from = 0): boolean {
  let last = from;
  for (const [, start, end] of spans) {
    if (start < last || end < start || end > to) return false;
    last = end;
  }
  return true;
}

/** Whether members lie one after the other within [from, to], and their entries within them, `levels` deep at most. */
function isOutline(value: unknown, from: number, to: number, levels: number): value is StoredOutline[] {
  if (levels === 0 || !Array.isArray(value) || !value.every(isOutlineMember) || !ordered(value, to, from)) return false;
  return value.every(([, start, end, entries]) => entries === undefined || isOutline(entries, start, end, levels - 1));
}

function isOutlineMember(value: unknown): value is StoredOutline {
  return Array.isArray(value) && (value.length === 3 || value.length === 4) && isStoredSpan(value.slice(0, 3));
}

function isSchemaError(value: unknown): value is SchemaError {
  if (!isJsonObject(value) || typeof value['instancePath'] !== 'string') return false;
  const { message, params } = value;
  return (message === undefined || typeof message === 'string') && (params === undefined || isJsonObject(params));
}
