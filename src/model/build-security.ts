import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { childPointer } from '../diagnostics/json-pointer.js';
import { isJsonObject, textOf, type JsonObject, type JsonValue } from '../kernel/json.js';
import type { OAuthFlowModel, SecurityRequirement, SecuritySchemeModel } from './api-model.js';
import { isHttpToken } from '../kernel/http-token.js';
import { resolveObject, stringOf } from './resolve-ref.js';

/**
 * Security schemes of the document (`components.securitySchemes` or Swagger 2.0 `securityDefinitions`), sorted by
 * key so that environment variable names and order never depend on the description's key order.
 * @see https://spec.openapis.org/oas/v3.1.0#security-scheme-object
 */
export function buildSecuritySchemes(root: JsonObject, swagger2: boolean, diagnostics: Diagnostics): SecuritySchemeModel[] {
  const container = swagger2
    ? root['securityDefinitions']
    : isJsonObject(root['components'])
      ? root['components']['securitySchemes']
      : undefined;
  if (!isJsonObject(container)) return [];
  const base = swagger2 ? '#/securityDefinitions' : '#/components/securitySchemes';
  const out: SecuritySchemeModel[] = [];
  for (const key of Object.keys(container).sort()) {
    const pointer = childPointer(base, key);
    const resolved = resolveObject(root, container[key], pointer, diagnostics);
    if (!resolved) continue;
    const scheme = buildScheme(key, resolved.node, swagger2);
    if (scheme.kind === 'unsupported') {
      diagnostics.warn('OTM_SECURITY_SCHEME', `Security scheme "${key}" (${scheme.type}) cannot be applied automatically.`, {
        pointer,
        hint: 'Add the credential in src/custom/hooks.ts of the generated project.',
      });
    }
    out.push(scheme);
  }
  return out;
}

function buildScheme(key: string, node: JsonObject, swagger2: boolean): SecuritySchemeModel {
  const description = stringOf(node['description']);
  const common = { key, ...(description ? { description } : {}) };
  const type = textOf(node['type']);
  if (type === 'apiKey') {
    const location = node['in'];
    const name = node['name'];
    if ((location === 'header' || location === 'query' || location === 'cookie') && typeof name === 'string' && name !== '') {
      if (location !== 'query' && !isHttpToken(name))
        return { ...common, kind: 'unsupported', type: `apiKey ${location} ${JSON.stringify(name)}, not a valid ${location} name` };
      return { ...common, kind: 'apiKey', in: location, name };
    }
    return { ...common, kind: 'unsupported', type: 'apiKey without name or location' };
  }
  if (type === 'basic') return { ...common, kind: 'httpBasic' };
  if (type === 'http') {
    const scheme = textOf(node['scheme']).toLowerCase();
    if (scheme === 'bearer') {
      const bearerFormat = stringOf(node['bearerFormat']);
      return { ...common, kind: 'httpBearer', ...(bearerFormat ? { bearerFormat } : {}) };
    }
    if (scheme === 'basic') return { ...common, kind: 'httpBasic' };
    return { ...common, kind: 'unsupported', type: `http ${scheme}` };
  }
  if (type === 'oauth2') return { ...common, kind: 'oauth2', flows: swagger2 ? swagger2Flows(node) : oauthFlows(node['flows']) };
  if (type === 'openIdConnect') return { ...common, kind: 'openIdConnect', url: textOf(node['openIdConnectUrl']) };
  return { ...common, kind: 'unsupported', type: type || 'unknown' };
}

function oauthFlows(value: JsonValue | undefined): OAuthFlowModel[] {
  if (!isJsonObject(value)) return [];
  const flows: OAuthFlowModel[] = [];
  for (const flow of ['clientCredentials', 'authorizationCode', 'implicit', 'password'] as const) {
    const node = value[flow];
    if (isJsonObject(node)) flows.push(flowOf(flow, node));
  }
  return flows;
}

function swagger2Flows(node: JsonObject): OAuthFlowModel[] {
  const names: Record<string, OAuthFlowModel['flow']> = {
    application: 'clientCredentials',
    accessCode: 'authorizationCode',
    implicit: 'implicit',
    password: 'password',
  };
  const flow = names[textOf(node['flow'])];
  return flow ? [flowOf(flow, node)] : [];
}

function flowOf(flow: OAuthFlowModel['flow'], node: JsonObject): OAuthFlowModel {
  const tokenUrl = stringOf(node['tokenUrl']);
  const authorizationUrl = stringOf(node['authorizationUrl']);
  return {
    flow,
    ...(tokenUrl ? { tokenUrl } : {}),
    ...(authorizationUrl ? { authorizationUrl } : {}),
    scopes: isJsonObject(node['scopes']) ? Object.keys(node['scopes']).sort() : [],
  };
}

/** A Security Requirement list → alternatives; unknown scheme names are dropped with a warning. */
export function buildSecurityRequirements(
  value: JsonValue | undefined,
  pointer: string,
  known: ReadonlySet<string>,
  diagnostics: Diagnostics,
): SecurityRequirement[] {
  if (!Array.isArray(value)) return [];
  const out: SecurityRequirement[] = [];
  value.forEach((alternative, index) => {
    if (!isJsonObject(alternative)) return;
    const requirement: SecurityRequirement = [];
    for (const [scheme, scopes] of Object.entries(alternative)) {
      if (!known.has(scheme)) {
        diagnostics.warn('OTM_SECURITY_SCHEME', `Security requirement names an undefined scheme "${scheme}"; it was ignored.`, {
          pointer: childPointer(pointer, index, scheme),
        });
        continue;
      }
      requirement.push({ scheme, scopes: Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [] });
    }
    out.push(requirement);
  });
  return out;
}
