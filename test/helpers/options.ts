import { resolveOptions, type PlanSettings } from '../../src/config/resolve-options.js';

/** A stage's options as the pipeline hands them over: the caller's settings with every default applied. */
export function withDefaults<T extends Partial<PlanSettings>>(settings: T = {} as T) {
  return resolveOptions({ spec: '-', ...settings });
}
