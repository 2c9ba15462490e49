import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { isJsonObject, type JsonObject } from '../kernel/json.js';
import { withPathItemErrors } from './path-item-errors.js';
import { pathItemSpans, type PathItemSpan } from './path-item-spans.js';
import type { SourceText } from './read-source.js';
import { changedItem, textPieces, type TextPieces } from './text-pieces.js';
import { checkDescription } from './validate-concurrently.js';
import { checkPathItem, reportSchemaCheck, schemaCheckDiagnostics, type SchemaCheck } from './validate-document.js';

/**
 * A description's schema check, kept from one run to the next (the regeneration cache keeps the last run's): the
 * pieces of the JSON text checked (load/text-pieces.ts), and what the check found (Ajv's errors, in Ajv's order).
 */
export type KeptCheck = { pieces: TextPieces; check: SchemaCheck };

/**
 * How a text differs from the last run's, where only one path item's value changed: its key (none: the text is the
 * same), and the new text's pieces. The rest of the description is the last one's, item for item.
 */
export type ChangeFromLast = { key?: string; pieces: TextPieces };

/**
 * Validates a JSON description parsed whole by JSON.parse (`source`: its text, which starts with its root object),
 * reporting what the whole document's validation reports. Answers what the next run needs to do the same from this
 * one (`kept`: undefined where it cannot, spans that cannot be told or a worker that failed), and how the text differs
 * from the last run's (`change`, where only inside one path item).
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
  last: KeptCheck | undefined,
): { kept: Promise<KeptCheck | undefined>; change?: ChangeFromLast } {
  const change = last && changeFromLast(last.pieces, root, source.text);
  const changed = change ? { change } : {};
  const fromLast = change && checkFromLast(last, root, change);
  if (fromLast) {
    reportSchemaCheck(fromLast.check, diagnostics);
    return { kept: Promise.resolve(fromLast), ...changed };
  }
  const whole = checkDescription(root, source, { pieces: true });
  if (!(whole instanceof Promise)) {
    reportSchemaCheck(whole, diagnostics);
    const spans = pathItemSpans(source.text);
    return { kept: Promise.resolve(spans && { pieces: textPieces(source.text, spans), check: whole }), ...changed };
  }
  diagnostics.defer(whole.then(schemaCheckDiagnostics));
  return { kept: whole.then(({ pieces, ...check }) => pieces && { pieces, check }), ...changed };
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
