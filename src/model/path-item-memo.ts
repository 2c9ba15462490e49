import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { JsonObject } from '../kernel/json.js';
import type { OperationModel, SecuritySchemeModel } from './api-model.js';
import type { ConvertedSince, ReachedSchema } from './build-schema.js';

/**
 * What building one path item did: its operations as built (before ids are made unique), its diagnostics, the named
 * schemas it reached first and the security schemes it made for credential parameters.
 */
export type PathItemBuild = {
  operations: OperationModel[];
  diagnostics: Diagnostic[];
  converted: ConvertedSince;
  schemes: SecuritySchemeModel[];
};

/**
 * What the items built before an item made that its build reads: the named schemas reached (SchemaConverter.reached)
 * and the schemes made for credential parameters, in order; as lists, or as their lengths where an item starts.
 */
export type ModelState = { reached: readonly ReachedSchema[]; schemes: readonly SecuritySchemeModel[] };
export type ModelStateMark = { reached: number; schemes: number };

/**
 * The path items of the model before, for a process that builds the model again and again (a watch): an item whose
 * content is what it was, built from the same state (the rest of the description as it was, the same named schemas
 * reached and credential schemes made before it), is taken from the build before instead of built again (buildApiModel).
 */
export type PathItemMemo = {
  /** Starts a model of `root`: false when nothing can be replayed (the rest of the description changed). */
  begin(root: JsonObject): boolean;
  /**
   * The item's build before, when its content and what was made before it (`state`) are as they were. `item`: the
   * item, where it is a plain path item (no `$ref`); asked for only where its content must be compared.
   */
  recorded(pathKey: string, item: () => JsonObject | undefined, state: ModelState): PathItemBuild | undefined;
  /** This model's build of an item, and where the state stood when it started. */
  record(pathKey: string, item: JsonObject, before: ModelStateMark, build: PathItemBuild): void;
  /** Ends the model, with what it made. */
  end(state: ModelState): void;
};
