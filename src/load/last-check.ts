import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { isJsonObject, type JsonObject } from '../kernel/json.js';
import { withPathItemErrors } from './path-item-errors.js';
import { pathItemSpans } from './path-item-spans.js';
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
 * Validates a JSON description parsed whole by JSON.parse (`source`: its text, which starts with its root object),
 * reporting what the whole document's validation reports, and answers what the next run needs to do the same from
 * this one (undefined where it cannot: spans that cannot be told, a worker that failed).
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
): Promise<KeptCheck | undefined> {
  const fromLast = last && checkFromLast(last, root, source.text);
  if (fromLast) {
    reportSchemaCheck(fromLast.check, diagnostics);
    return Promise.resolve(fromLast);
  }
  const whole = checkDescription(root, source, { pieces: true });
  if (!(whole instanceof Promise)) {
    reportSchemaCheck(whole, diagnostics);
    const spans = pathItemSpans(source.text);
    return Promise.resolve(spans && { pieces: textPieces(source.text, spans), check: whole });
  }
  diagnostics.defer(whole.then(schemaCheckDiagnostics));
  return whole.then(({ pieces, ...check }) => pieces && { pieces, check });
}

/** The check of `root` (parsed from `text`) from the last run's, or undefined when it has to be checked whole. */
export function checkFromLast(last: KeptCheck, root: JsonObject, text: string): KeptCheck | undefined {
  const paths = root['paths'];
  if (last.check.failure !== undefined || !isJsonObject(paths)) return undefined;
  const changed = changedItem(last.pieces, text);
  if (!changed) return undefined;
  if (changed.index < 0) return last;
  // The rest of the text is the last one's: with the item's new text one JSON value, the document is the last one
  // with that value replaced (the same keys, in the same order), and nothing else changed.
  try {
    JSON.parse(changed.itemText);
  } catch {
    return undefined;
  }
  const { key } = changed.pieces.spans[changed.index] as { key: string };
  const item = checkPathItem(root, key);
  const errors = item && withPathItemErrors(last.check.errors, Object.keys(paths), key, item);
  return errors ? { pieces: changed.pieces, check: { errors } } : undefined;
}
