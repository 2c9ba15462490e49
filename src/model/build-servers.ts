import { isJsonObject, textOf, type JsonObject, type JsonValue } from '../kernel/json.js';
import type { ServerModel, ServerVariableModel } from './api-model.js';
import { stringOf } from './resolve-ref.js';

/**
 * An OAS 3.x `servers` array → ServerModel[]; undefined when absent so callers can fall back a level.
 * @see https://spec.openapis.org/oas/v3.1.0#server-object
 */
export function buildServers3(value: JsonValue | undefined): ServerModel[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const out: ServerModel[] = [];
  for (const node of value) {
    if (!isJsonObject(node) || typeof node['url'] !== 'string') continue;
    const description = stringOf(node['description']);
    out.push({ url: node['url'], ...(description ? { description } : {}), variables: buildVariables(node['variables']) });
  }
  return out.length > 0 ? out : undefined;
}

function buildVariables(value: JsonValue | undefined): ServerVariableModel[] {
  if (!isJsonObject(value)) return [];
  return Object.entries(value)
    .filter((entry): entry is [string, JsonObject] => isJsonObject(entry[1]))
    .map(([name, node]) => {
      const values = Array.isArray(node['enum']) ? node['enum'].map(textOf) : undefined;
      const description = stringOf(node['description']);
      return {
        name,
        default: node['default'] === undefined ? (values?.[0] ?? '') : textOf(node['default']),
        ...(values && values.length > 0 ? { enum: values } : {}),
        ...(description ? { description } : {}),
      };
    });
}

/**
 * Swagger 2.0 `schemes`, `host` and `basePath` → servers, https first.
 * @see https://swagger.io/specification/v2/#swagger-object
 */
export function buildServers2(root: JsonObject): ServerModel[] {
  const basePath = typeof root['basePath'] === 'string' ? root['basePath'] : '';
  const host = typeof root['host'] === 'string' ? root['host'] : undefined;
  if (!host) return [{ url: basePath || '/', variables: [] }];
  const declared = Array.isArray(root['schemes']) ? root['schemes'].filter((s): s is string => s === 'https' || s === 'http') : [];
  const schemes = declared.length > 0 ? [...declared].sort((a, b) => (a === 'https' ? -1 : b === 'https' ? 1 : 0)) : ['https'];
  return schemes.map((scheme) => ({ url: `${scheme}://${host}${basePath}`, variables: [] }));
}
