import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { closestName } from '../diagnostics/did-you-mean.js';
import { pointerOf } from '../diagnostics/json-pointer.js';
import type { ApiModel, OperationExtension, OperationModel } from './api-model.js';

export type OverrideOptions = {
  /** Per-operation `x-mcp` fields, keyed by operationId or by `METHOD /path` (the operation key). */
  overrides: Record<string, OperationExtension>;
  /** Where the overrides came from, for diagnostics: the configuration file, relative to the working directory. */
  file?: string;
};

/**
 * Applies configured overrides to the model as if the description carried them in its `x-mcp` extensions, so the
 * planner sees one source of truth. Configured fields win over the description's; annotations merge hint by hint.
 * An override that names no operation is reported with the closest operationId, never silently ignored.
 */
export function applyOverrides(model: ApiModel, options: OverrideOptions, diagnostics: Diagnostics): ApiModel {
  const entries = Object.entries(options.overrides);
  if (entries.length === 0) return model;
  const byId = new Map(model.operations.map((operation) => [operation.id, operation]));
  const byKey = new Map(model.operations.map((operation) => [normaliseKey(operation.key), operation]));
  const patches = new Map<OperationModel, OperationExtension>();
  for (const [name, override] of entries) {
    const operation = byId.get(name) ?? byKey.get(normaliseKey(name));
    if (!operation) {
      const close = closestName(name, byId.keys());
      diagnostics.warn('OTM_CONFIG_INVALID', `operations.${name} names no operation of the description; the override was ignored.`, {
        pointer: pointerOf('operations', name),
        ...(options.file ? { file: options.file } : {}),
        hint: close
          ? `Did you mean ${close}?`
          : 'Key overrides by operationId or by "METHOD /path"; `openapi-to-mcp plan --json` lists them.',
      });
      continue;
    }
    patches.set(operation, mergeExtension(patches.get(operation) ?? operation.extension, override));
  }
  if (patches.size === 0) return model;
  return {
    ...model,
    operations: model.operations.map((operation) => {
      const extension = patches.get(operation);
      return extension ? { ...operation, extension } : operation;
    }),
  };
}

function mergeExtension(base: OperationExtension, override: OperationExtension): OperationExtension {
  const merged: OperationExtension = { ...base, ...override };
  if (base.annotations || override.annotations) merged.annotations = { ...base.annotations, ...override.annotations };
  return merged;
}

/** `get /pets` and `GET  /pets` name the same operation. */
function normaliseKey(key: string): string {
  const [method = '', ...rest] = key.trim().split(/\s+/);
  return `${method.toUpperCase()} ${rest.join(' ')}`;
}
