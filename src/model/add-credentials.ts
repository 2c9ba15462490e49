import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { closestName } from '../diagnostics/did-you-mean.js';
import { pointerOf } from '../diagnostics/json-pointer.js';
import type { ApiModel, OperationModel, SecurityRequirement, SecuritySchemeModel } from './api-model.js';

/**
 * A credential the description does not declare (GitHub's declares none, yet every call wants a token): how it is
 * sent, the environment variable that holds it, and which operations send it (default: all).
 */
export type AddedCredential =
  | { type: 'bearer'; env: string; operations?: string[]; description?: string }
  | { type: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string; env: string; operations?: string[]; description?: string }
  | { type: 'basic'; env: string; operations?: string[]; description?: string };

/**
 * Adds configured credentials to the model as security schemes of its own and to the security of the operations
 * they apply to. Each is sent whenever its variable is set, together with what the description's own requirements
 * send: an operation's alternatives `[r1, r2]` become `[r1 + added, r2 + added, added, r1, r2]`, and the server
 * applies the first alternative whose variables are all set.
 */
export function addCredentials(model: ApiModel, added: readonly AddedCredential[], diagnostics: Diagnostics, file?: string): ApiModel {
  if (added.length === 0) return model;
  const schemes = [...model.securitySchemes];
  const security = new Map<OperationModel, SecurityRequirement[]>(model.operations.map((operation) => [operation, operation.security]));
  const byId = new Map(model.operations.map((operation) => [operation.id, operation]));
  const byKey = new Map(model.operations.map((operation) => [normaliseKey(operation.key), operation]));
  added.forEach((credential, index) => {
    const scheme = schemeOf(credential, uniqueKey(credential.env.toLowerCase(), schemes));
    schemes.push(scheme);
    const targets: OperationModel[] = [];
    if (credential.operations === undefined) targets.push(...model.operations);
    else
      for (const name of credential.operations) {
        const operation = byId.get(name) ?? byKey.get(normaliseKey(name));
        if (operation) targets.push(operation);
        else {
          const close = closestName(name, byId.keys());
          diagnostics.warn('OTM_CONFIG_INVALID', `credentials[${index}].operations names no operation: ${JSON.stringify(name)}.`, {
            pointer: pointerOf('credentials', index, 'operations'),
            ...(file ? { file } : {}),
            hint: close ? `Did you mean ${close}?` : 'Name operations by operationId or by "METHOD /path".',
          });
        }
      }
    for (const operation of targets) security.set(operation, withAdded(security.get(operation) ?? [], scheme.key));
  });
  schemes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    ...model,
    securitySchemes: schemes,
    operations: model.operations.map((operation) => ({ ...operation, security: security.get(operation) ?? operation.security })),
  };
}

function schemeOf(credential: AddedCredential, key: string): SecuritySchemeModel {
  const description = credential.description ?? `Added by the configuration: ${describe(credential)}.`;
  switch (credential.type) {
    case 'bearer':
      return { key, kind: 'httpBearer', description, env: credential.env };
    case 'basic':
      return { key, kind: 'httpBasic', description, env: credential.env };
    case 'apiKey':
      return { key, kind: 'apiKey', in: credential.in, name: credential.name, description, env: credential.env };
  }
}

function describe(credential: AddedCredential): string {
  if (credential.type === 'bearer') return 'sent as a bearer token';
  if (credential.type === 'basic') return 'sent as HTTP basic authentication';
  return `sent as the ${credential.name} ${credential.in === 'query' ? 'query parameter' : credential.in}`;
}

function uniqueKey(base: string, schemes: readonly SecuritySchemeModel[]): string {
  const taken = new Set(schemes.map((scheme) => scheme.key));
  let key = base;
  for (let index = 2; taken.has(key); index++) key = `${base}_${index}`;
  return key;
}

/** `[r1, r2]` → `[r1 + key, r2 + key, key, r1, r2]`, without duplicates; no requirement at all → `[key]`. */
function withAdded(requirements: SecurityRequirement[], key: string): SecurityRequirement[] {
  if (requirements.length === 0) return [[{ scheme: key, scopes: [] }]];
  const originals = requirements;
  const out: SecurityRequirement[] = [];
  const seen = new Set<string>();
  const push = (requirement: SecurityRequirement) => {
    const id = JSON.stringify(requirement.map((entry) => entry.scheme).sort());
    if (seen.has(id)) return;
    seen.add(id);
    out.push(requirement);
  };
  for (const requirement of originals) push([...requirement, { scheme: key, scopes: [] }]);
  push([{ scheme: key, scopes: [] }]);
  for (const requirement of originals) push(requirement);
  return out;
}

/** `get /pets` and `GET  /pets` name the same operation. */
function normaliseKey(key: string): string {
  const [method = '', ...rest] = key.trim().split(/\s+/);
  return `${method.toUpperCase()} ${rest.join(' ')}`;
}
