import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { closestName } from '../diagnostics/did-you-mean.js';
import { pointerOf } from '../diagnostics/json-pointer.js';
import type { ApiModel, OperationExtension, OperationModel } from './api-model.js';
import type { ParameterTypePin, TypeReconciliation } from './reconcile-parameter-types.js';

/** One operation's override in the configuration: the fields of its `x-mcp` extension, and its parameters' types. */
export type OperationOverride = OperationExtension & { parameters?: Record<string, ParameterTypePin> };

export type OverrideOptions = {
  /** Per-operation `x-mcp` fields, keyed by operationId or by `METHOD /path` (the operation key). */
  overrides: Record<string, OperationOverride>;
  /** Where the overrides came from, for diagnostics: the configuration file, relative to the working directory. */
  file?: string;
};

/**
 * Applies configured overrides to the model as if the description carried them in its `x-mcp` extensions, so the
 * planner sees one source of truth. Configured fields win over the description's; annotations merge hint by hint.
 * An override that names no operation is reported with the closest operationId, never silently ignored. The
 * parameter types an override pins come back for reconcileParameterTypes, which applies them.
 */
export function applyOverrides(
  model: ApiModel,
  options: OverrideOptions,
  diagnostics: Diagnostics,
): { model: ApiModel; types: TypeReconciliation } {
  const types: TypeReconciliation = { pins: [], ...(options.file ? { file: options.file } : {}) };
  const entries = Object.entries(options.overrides);
  if (entries.length === 0) return { model, types };
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
    const { parameters, ...fields } = override;
    if (parameters) types.pins.push({ operation, key: name, parameters });
    patches.set(operation, mergeExtension(patches.get(operation) ?? operation.extension, fields));
  }
  if (patches.size === 0) return { model, types };
  return {
    model: {
      ...model,
      operations: model.operations.map((operation) => {
        const extension = patches.get(operation);
        return extension ? { ...operation, extension } : operation;
      }),
    },
    types,
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
