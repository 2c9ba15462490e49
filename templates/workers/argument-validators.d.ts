import type { ValidateFunction } from 'ajv/dist/2020.js';

/**
 * Each action's argument checks by position (see runtime/arguments/check-arguments.ts), undefined where it has none: Ajv
 * standalone code that scripts/argument-validators.mjs builds into dist/argument-validators.js.
 */
export declare const argumentValidators: ReadonlyArray<ValidateFunction | undefined>;
