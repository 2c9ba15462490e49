import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../kernel/json.js';
import { scanRefs, type RefScan } from './data-refs.js';
import { withPathItemErrors } from './path-item-errors.js';
import { lazyDocument } from './lazy-document.js';
import { MAX_DOCUMENT_DEPTH, MAX_DOCUMENT_NODES, measureDocument } from './measure-document.js';
import { documentSpans, type PathItemSpan } from './path-item-spans.js';
import type { SourceText } from './read-source.js';
import { changedItem, textPieces, type TextPieces } from './text-pieces.js';
import { checkDescription } from './validate-concurrently.js';
import { checkPathItem, reportSchemaCheck, schemaCheckDiagnostics, type SchemaCheck } from './validate-document.js';

/**
 * A description's schema check, kept from one run to the next (the regeneration cache keeps the last run's): the
 * pieces of the JSON text checked (load/text-pieces.ts), and what the check found (Ajv's errors, in Ajv's order).
 * `nodes`: at most how many values the document holds (measured, or a bound: the last run's and the changed item's);
 * `refs`: what its `$ref`s show (load/data-refs.ts).
 */
export type KeptCheck = { pieces: TextPieces; check: SchemaCheck; nodes?: number; refs?: RefScan };

/**
 * How a text differs from the last run's, where only one path item's value changed: its key (none: the text is the
 * same), and the new text's pieces. The rest of the description is the last one's, item for item.
 */
export type ChangeFromLast = { key?: string; pieces: TextPieces };

/** What validateKeeping starts from: the last run's check, and how the text differs from its text where known. */
export type KeepingFrom = { last?: KeptCheck; change?: ChangeFromLast; nodes?: number; refs?: RefScan };

/** Levels kept free below the document depth limit for the item's place (`paths`, the item) and the measure's margin. */
const ITEM_DEPTH_MARGIN = 8;

/** A document resumed from the last run's (resumedDocument): its root, how it changed, a bound of its values, its `$ref`s. */
export type ResumedDocument = { root: JsonObject; change: ChangeFromLast; nodes: number; refs: RefScan };

/**
 * A JSON text that differs from the last run's only inside one path item (or not at all), as a document parsed only
 * as far as it is read (load/lazy-document.ts), with that change, a bound of its values and what its `$ref`s show: the
 * rest of the text is the last run's, which was parsed, measured, scanned and outlined then. Undefined where it
 * differs otherwise, the last run left no outline or had a `$ref` to another document, or the changed item is no JSON
 * value of its own, has such a `$ref` or comes near the limits of a document: the caller parses it whole.
 */
export function resumedDocument(text: string, last: KeptCheck): ResumedDocument | undefined {
  const { outline } = last.pieces;
  if (!outline || last.nodes === undefined || !last.refs?.allInternal) return undefined;
  const changed = changedItem(last.pieces, text);
  if (!changed) return undefined;
  const span = changed.pieces.spans[changed.index];
  if (!span)
    return { root: lazyDocument(text, outline, last.pieces.spans), change: { pieces: last.pieces }, nodes: last.nodes, refs: last.refs };
  // Every condition a scan checks holds for each `$ref` (and escape) in the text, and none crosses an item's bounds.
  const itemRefs = scanRefs(changed.itemText);
  if (!itemRefs.allInternal) return undefined;
  const refs = { allInternal: true, noneIntoPaths: last.refs.noneIntoPaths && itemRefs.noneIntoPaths };
  let value: JsonValue;
  try {
    value = JSON.parse(changed.itemText) as JsonValue;
  } catch {
    return undefined;
  }
  const shape = measureDocument(value);
  const nodes = shape.ok ? last.nodes + shape.nodes : Infinity;
  if (!shape.ok || shape.depth + ITEM_DEPTH_MARGIN > MAX_DOCUMENT_DEPTH || nodes > MAX_DOCUMENT_NODES) return undefined;
  const root = lazyDocument(text, changed.pieces.outline ?? outline, changed.pieces.spans, { key: span.key, value });
  return { root, change: { key: span.key, pieces: changed.pieces }, nodes, refs };
}

/**
 * Validates a JSON description parsed by JSON.parse, whole or as far as it is read (`source`: its text, which starts
 * with its root object), reporting what the whole document's validation reports. Answers what the next run needs to
 * do the same from this one (`kept`: undefined where it cannot, spans that cannot be told or a worker that failed), and
 * how the text differs from the last run's (`change`, where only inside one path item; given in `from` where the
 * caller found it already, with the document's bound of values and its `$ref`s, which are kept with the check).
 *
 * Where the text differs from the last run's only inside one path item, only that item is checked and its errors take
 * the old item's place among the last check's (load/path-item-errors.ts, as a watch's save does): a regeneration after
 * a one-operation change spares the whole validation (GitHub's: a worker that parses and checks 13 MB again). Else
 * the document is checked whole, and its pieces are found beside the check (in the validation worker for a large one).
 */
export function validateKeeping(
  root: JsonObject,
  source: SourceText,
  diagnostics: Diagnostics,
  { last, change: known, nodes, refs }: KeepingFrom,
): { kept: Promise<KeptCheck | undefined>; change?: ChangeFromLast } {
  const change = known ?? (last && changeFromLast(last.pieces, root, source.text));
  const changed = change ? { change } : {};
  const counted = { ...(nodes === undefined ? {} : { nodes }), ...(refs ? { refs } : {}) };
  const fromLast = last && change && checkFromLast(last, root, change);
  if (fromLast) {
    reportSchemaCheck(fromLast.check, diagnostics);
    return { kept: Promise.resolve({ ...fromLast, ...counted }), ...changed };
  }
  const whole = checkDescription(root, source, { pieces: true });
  if (!(whole instanceof Promise)) {
    reportSchemaCheck(whole, diagnostics);
    const spans = documentSpans(source.text);
    return { kept: Promise.resolve(spans && { pieces: textPieces(source.text, spans), check: whole, ...counted }), ...changed };
  }
  diagnostics.defer(whole.then(schemaCheckDiagnostics));
  return { kept: whole.then(({ pieces, ...check }) => pieces && { pieces, check, ...counted }), ...changed };
}

/** How `text` (parsed as `root`) differs from the pieced text before, where only inside one path item's value. */
export function changeFromLast(last: TextPieces, root: JsonObject, text: string): ChangeFromLast | undefined {
  if (!isJsonObject(root['paths'])) return undefined;
  const changed = changedItem(last, text);
  if (!changed) return undefined;
  if (changed.index < 0) return { pieces: last };
  // The rest of the text is the last one's: with the item's new text one JSON value, the document is the last one
  // with that value replaced (the same keys, in the same order), and nothing else changed.
  try {
    JSON.parse(changed.itemText);
  } catch {
    return undefined;
  }
  return { key: (changed.pieces.spans[changed.index] as PathItemSpan).key, pieces: changed.pieces };
}

/** The check of `root` from the last run's, given how its text changed, or undefined when it has to be checked whole. */
export function checkFromLast(last: KeptCheck, root: JsonObject, change: ChangeFromLast): KeptCheck | undefined {
  const paths = root['paths'];
  if (last.check.failure !== undefined || !isJsonObject(paths)) return undefined;
  if (change.key === undefined) return last;
  const item = checkPathItem(root, change.key);
  const errors = item && withPathItemErrors(last.check.errors, Object.keys(paths), change.key, item);
  return errors ? { pieces: change.pieces, check: { errors } } : undefined;
}
