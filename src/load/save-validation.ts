import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { isJsonObject, type JsonObject } from '../kernel/json.js';
import { withPathItemErrors } from './path-item-errors.js';
import type { Reparsed } from './reparse-document.js';
import { checkDescription, ValidationThread } from './validate-concurrently.js';
import { checkPathItem, schemaCheckDiagnostics, type SchemaCheck } from './validate-document.js';

/**
 * Validation for a process that loads again and again (a watch). A save that replaced one path item of the last
 * document (load/reparse-document.ts) is validated by checking that item alone and putting its errors in place of the
 * old item's among the last document's errors (load/path-item-errors.ts): what validating the whole document
 * reports, for the cost of one item instead of a parse and a validation of the whole text (GitHub's: 120–140 ms of a
 * second core, which planning on a 2-core machine wants for the collector). Anything else is validated whole, by
 * the worker kept here for the watch's life.
 */
export class SaveValidation {
  private readonly thread = new ValidationThread();
  /** Each document's check, while something (the reparse's memory of the last document) keeps the document. */
  private readonly checks = new WeakMap<JsonObject, Promise<SchemaCheck>>();

  /**
   * Defers the document's diagnostics into `diagnostics`; `change` is how it was parsed from the last one, if it was.
   * Answers whether the check starts from the last document's (else it is whole from the start).
   */
  validate(
    root: JsonObject,
    source: { text: string; location: string } | undefined,
    diagnostics: Diagnostics,
    change: Reparsed | undefined,
  ): 'from the last' | 'whole' {
    const whole = () => checkDescription(root, source, { thread: this.thread });
    const last = change && this.checks.get(change.from);
    const check = last ? last.then((before) => fromLast(before, root, change?.key) ?? whole()) : Promise.resolve(whole());
    this.checks.set(root, check);
    diagnostics.defer(check.then(schemaCheckDiagnostics));
    return last ? 'from the last' : 'whole';
  }

  /** Ends the worker, if one runs. */
  close(): Promise<void> {
    return this.thread.close();
  }
}

/** The check of `root` from the check of the document it was parsed from, or undefined when it has to be whole. */
function fromLast(before: SchemaCheck, root: JsonObject, key: string | undefined): SchemaCheck | undefined {
  if (key === undefined) return before;
  const paths = root['paths'];
  if (before.failure !== undefined || !isJsonObject(paths)) return undefined;
  const item = checkPathItem(root, key);
  const errors = item && withPathItemErrors(before.errors, Object.keys(paths), key, item);
  return errors && { errors };
}
