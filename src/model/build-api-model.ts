import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { childPointer } from '../diagnostics/json-pointer.js';
import { type OpenApiDocument } from '../load/openapi-document.js';
import { isJsonObject, textOf, type JsonObject, type JsonValue } from '../kernel/json.js';
import {
  HTTP_METHODS,
  type ApiModel,
  type OperationModel,
  type ParameterModel,
  type RequestBodyModel,
  type SecurityRequirement,
  type SecuritySchemeModel,
  type ServerModel,
} from './api-model.js';
import { buildRequestBody2, buildRequestBody3, buildResponses, type BodyContext } from './build-bodies.js';
import { buildParameter2, buildParameter3 } from './build-parameters.js';
import { SchemaConverter } from './build-schema.js';
import { buildSecurityRequirements, buildSecuritySchemes } from './build-security.js';
import { buildServers2, buildServers3 } from './build-servers.js';
import { isClientHeader, isCredentialParameter, schemeForParameter } from './credential-parameters.js';
import { declaredHeaderValues } from './declared-headers.js';
import { deriveOperationId, uniqueOperationIds } from './operation-ids.js';
import { isLongRunning } from './long-running.js';
import type { PathItemMemo } from './path-item-memo.js';
import { readOperationExtension } from './read-extension.js';
import { identifyingSlug, nameSlug, titleSlug } from './identify-api.js';
import { resolveObject, stringOf } from './resolve-ref.js';

type Context = BodyContext & {
  swagger2: boolean;
  schemes: SecuritySchemeModel[];
  knownSchemes: Set<string>;
  /** The schemes made for credential parameters (credentialScheme), in the order they were made. */
  made: SecuritySchemeModel[];
  rootSecurity: SecurityRequirement[];
  rootServers: ServerModel[];
  consumes: string[];
  produces: string[];
};

/**
 * Stage 2: the bundled description → ApiModel. Paths are visited in sorted order and methods in a fixed order, so the
 * model never depends on the order of keys in the description.
 * @see https://spec.openapis.org/oas/v3.1.0#paths-object
 */
export function buildApiModel(document: OpenApiDocument, diagnostics: Diagnostics, memo?: PathItemMemo): ApiModel {
  const { root } = document;
  const swagger2 = document.version === '2.0';
  const schemas = new SchemaConverter(root, document.version, diagnostics);
  const schemes = buildSecuritySchemes(root, swagger2, diagnostics);
  const context: Context = {
    root,
    schemas,
    diagnostics,
    swagger2,
    schemes,
    knownSchemes: new Set(schemes.map((scheme) => scheme.key)),
    made: [],
    rootSecurity: [],
    rootServers: swagger2 ? buildServers2(root) : (buildServers3(root['servers']) ?? [{ url: '/', variables: [] }]),
    consumes: stringList(root['consumes']),
    produces: stringList(root['produces']),
  };
  context.rootSecurity = buildSecurityRequirements(root['security'], '#/security', context.knownSchemes, diagnostics);

  const operations: OperationModel[] = [];
  const paths = isJsonObject(root['paths']) ? root['paths'] : {};
  const replaying = memo?.begin(root) ? memo : undefined;
  for (const pathKey of Object.keys(paths).sort()) {
    if (pathKey.startsWith('x-')) continue;
    // An item that is itself a `$ref` reads another part of the description: always built. An item the memo knows
    // unchanged without reading it is not read (it may not be parsed yet: load/lazy-document.ts).
    const plainItem = () => {
      const raw = paths[pathKey];
      return isJsonObject(raw) && raw['$ref'] === undefined ? raw : undefined;
    };
    const recorded = replaying?.recorded(pathKey, plainItem, { reached: schemas.reached, schemes: context.made });
    if (recorded && schemas.replay(recorded.converted)) {
      for (const scheme of recorded.schemes) addScheme({ ...scheme }, context);
      for (const item of recorded.diagnostics) diagnostics.add(item);
      // Copies: making ids unique below sets `id` on the operations of this model.
      for (const operation of recorded.operations) operations.push({ ...operation });
      continue;
    }
    const pointer = childPointer('#/paths', pathKey);
    const start = { diagnostics: diagnostics.items.length, schemas: schemas.mark(), schemes: context.made.length };
    const raw = paths[pathKey];
    const item = resolveObject(root, raw, pointer, diagnostics);
    const built = item ? buildPathItem(pathKey, item.node, pointer, context) : [];
    operations.push(...built);
    const plain = replaying && plainItem();
    if (plain)
      replaying?.record(
        pathKey,
        plain,
        { reached: start.schemas.reached, schemes: start.schemes },
        {
          operations: built.map((operation) => ({ ...operation })),
          diagnostics: diagnostics.items.slice(start.diagnostics),
          converted: schemas.since(start.schemas),
          schemes: context.made.slice(start.schemes),
        },
      );
  }
  replaying?.end({ reached: schemas.reached, schemes: context.made });
  uniqueOperationIds(operations, diagnostics);
  // A server without tools is legal (and what a webhooks-only description gives, reported when it was loaded), but
  // `paths: {}` is more often a mistake than an intention.
  if (operations.length === 0 && !diagnostics.items.some((item) => item.code === 'OTM_NO_PATHS')) {
    diagnostics.warn('OTM_NO_PATHS', 'The description has no operations: the server will have no tools.', {
      pointer: '#/paths',
      hint: 'Add operations (get, post, …) under `paths`.',
    });
  }

  const info = isJsonObject(root['info']) ? root['info'] : {};
  const title = stringOf(info['title'])?.trim() ?? 'API';
  const description = stringOf(info['description']);
  const rootExtension = isJsonObject(root['x-mcp']) ? root['x-mcp'] : {};
  const logo = isJsonObject(info['x-logo']) ? stringOf(info['x-logo']['url'])?.trim() : undefined;
  return {
    title,
    version: info['version'] === undefined ? '0.0.0' : textOf(info['version']),
    ...(description ? { description } : {}),
    slug: slugOf(title, () =>
      identifyingSlug(info, context.rootServers, document.source.kind === 'file' ? document.source.location : undefined),
    ),
    specVersion: document.version,
    servers: context.rootServers,
    securitySchemes: context.schemes,
    operations,
    schemas: schemas.defs,
    extension: typeof rootExtension['prefix'] === 'string' ? { prefix: rootExtension['prefix'] } : {},
    ...(logo ? { logo } : {}),
  };
}

function buildPathItem(pathKey: string, item: JsonObject, pointer: string, context: Context): OperationModel[] {
  const pathParameters = rawParameters(item['parameters'], childPointer(pointer, 'parameters'), context);
  const pathServers = context.swagger2 ? undefined : buildServers3(item['servers']);
  const out: OperationModel[] = [];
  for (const method of HTTP_METHODS) {
    const operation = item[method];
    if (operation === undefined) continue;
    const operationPointer = childPointer(pointer, method);
    if (!isJsonObject(operation)) {
      context.diagnostics.warn('OTM_INVALID_OBJECT', `${method.toUpperCase()} ${pathKey} is not an operation object; it was skipped.`, {
        pointer: operationPointer,
      });
      continue;
    }
    out.push(buildOperation({ pathKey, method, operation, pointer: operationPointer, pathParameters, pathServers }, context));
  }
  return out;
}

type RawParameter = { node: JsonObject; pointer: string };

function rawParameters(value: JsonValue | undefined, pointer: string, context: Context): RawParameter[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    context.diagnostics.warn('OTM_INVALID_OBJECT', '`parameters` must be a list; it was ignored.', { pointer });
    return [];
  }
  const out: RawParameter[] = [];
  value.forEach((entry, index) => {
    const resolved = resolveObject(context.root, entry, childPointer(pointer, index), context.diagnostics);
    if (resolved) out.push({ node: resolved.node, pointer: childPointer(pointer, index) });
  });
  return out;
}

type OperationInput = {
  pathKey: string;
  method: OperationModel['method'];
  operation: JsonObject;
  pointer: string;
  pathParameters: RawParameter[];
  pathServers: ServerModel[] | undefined;
};

function buildOperation(input: OperationInput, context: Context): OperationModel {
  const { pathKey, method, operation, pointer } = input;
  // Operation-level parameters override path-level ones with the same name and location.
  const merged = new Map<string, RawParameter>();
  for (const parameter of [
    ...input.pathParameters,
    ...rawParameters(operation['parameters'], childPointer(pointer, 'parameters'), context),
  ]) {
    const location = textOf(parameter.node['in']);
    const name = textOf(parameter.node['name']);
    merged.set(`${location}:${location === 'header' ? name.toLowerCase() : name}`, parameter);
  }
  const raw = [...merged.values()];
  const parameters: ParameterModel[] = [];
  for (const parameter of raw) {
    const location = parameter.node['in'];
    if (context.swagger2 && (location === 'body' || location === 'formData')) continue;
    const built = context.swagger2
      ? buildParameter2(parameter.node, parameter.pointer, context)
      : buildParameter3(parameter.node, parameter.pointer, context);
    if (built) parameters.push(built);
  }
  const security =
    operation['security'] !== undefined
      ? buildSecurityRequirements(operation['security'], childPointer(pointer, 'security'), context.knownSchemes, context.diagnostics)
      : context.rootSecurity.map((requirement) => [...requirement]);
  const described = context.swagger2
    ? buildRequestBody2(raw, stringList(operation['consumes'] ?? context.consumes), context)
    : operation['requestBody'] === undefined
      ? undefined
      : buildRequestBody3(operation['requestBody'], childPointer(pointer, 'requestBody'), context);
  const requestBody = described && BODYLESS_METHODS.has(method) ? ignoreBody(described, method, context) : described;
  const declaredHeaders = declaredHeaderValues(parameters);
  const operationId = stringOf(operation['operationId'])?.trim();
  const summary = stringOf(operation['summary']);
  const description = stringOf(operation['description']);
  const responses = buildResponses(
    operation['responses'],
    childPointer(pointer, 'responses'),
    context.swagger2 ? stringList(operation['produces'] ?? context.produces) : undefined,
    context,
  );
  return {
    key: `${method.toUpperCase()} ${pathKey}`,
    id: operationId ?? deriveOperationId(method, pathKey),
    derivedId: operationId === undefined,
    method,
    path: pathKey,
    ...(summary ? { summary } : {}),
    ...(description ? { description } : {}),
    tags: stringList(operation['tags']),
    deprecated: operation['deprecated'] === true,
    parameters: separateCredentials(completePathParameters(parameters, pathKey, pointer, context), security, pointer, context),
    ...(declaredHeaders.length > 0 ? { declaredHeaders } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    ...(isLongRunning(operation, responses) ? { longRunning: true as const } : {}),
    security,
    servers: (context.swagger2 ? undefined : (buildServers3(operation['servers']) ?? input.pathServers)) ?? context.rootServers,
    extension: readOperationExtension(operation['x-mcp'], pointer, context.diagnostics),
    pointer,
  };
}

/** Methods whose requests HTTP clients (fetch among them) refuse to send with a body. */
const BODYLESS_METHODS = new Set<OperationModel['method']>(['get', 'head']);

/**
 * A GET or HEAD with a request body (PagerDuty has one) could never be sent: fetch refuses the body. The body is
 * left out, with a warning, instead of becoming arguments that make every call fail.
 */
function ignoreBody(body: RequestBodyModel, method: OperationModel['method'], context: Context): undefined {
  context.diagnostics.warn(
    'OTM_BODY_IGNORED',
    `A ${method.toUpperCase()} request cannot carry a body; the request body described here was left out.`,
    { pointer: body.pointer, hint: 'Move the fields to query parameters, or use POST for the operation.' },
  );
  return undefined;
}

/** Every `{name}` of the path template gets a path parameter; path parameters the template lacks are dropped. */
function completePathParameters(parameters: ParameterModel[], pathKey: string, pointer: string, context: Context): ParameterModel[] {
  const template = pathKey.split(/[?#]/)[0] ?? pathKey;
  const variables = [...template.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1] as string);
  const out = parameters.filter((parameter) => {
    if (parameter.in !== 'path' || variables.includes(parameter.name)) return true;
    context.diagnostics.warn('OTM_INVALID_OBJECT', `Path parameter "${parameter.name}" does not appear in ${template}; it was skipped.`, {
      pointer: parameter.pointer,
    });
    return false;
  });
  for (const variable of variables) {
    if (out.some((parameter) => parameter.in === 'path' && parameter.name === variable)) continue;
    context.diagnostics.warn(
      'OTM_PATH_PARAMETER_MISSING',
      `Path variable {${variable}} of ${template} has no parameter; a string parameter was added.`,
      {
        pointer,
        hint: 'Declare it with `in: path`, `required: true` and a schema.',
      },
    );
    out.push({
      name: variable,
      in: 'path',
      required: true,
      deprecated: false,
      schema: { type: 'string' },
      style: 'simple',
      explode: false,
      allowReserved: false,
      pointer,
    });
  }
  return out;
}

/**
 * Credentials never become tool inputs. A parameter that duplicates an apiKey scheme is filled by that scheme; other
 * credential parameters become apiKey schemes of their own, filled from the environment. Either way, an operation
 * whose security does not cover it gets the scheme as its requirement, so that each operation declaring the
 * parameter sends it (GitHub's three package-restore operations each take a `token` query parameter).
 */
function separateCredentials(
  parameters: ParameterModel[],
  security: SecurityRequirement[],
  pointer: string,
  context: Context,
): ParameterModel[] {
  const kept: ParameterModel[] = [];
  for (const parameter of parameters) {
    if (isClientHeader(parameter)) continue;
    const declared = schemeForParameter(parameter, context.schemes);
    const credential = declared !== undefined || (parameter.in !== 'path' && isCredentialParameter(parameter));
    if (!credential) {
      kept.push(parameter);
      continue;
    }
    if (typeof parameter.mcpHeader === 'string') {
      context.diagnostics.warn(
        'OTM_HEADER_REFUSED',
        `Parameter "${parameter.name}" (${parameter.in}) carries a credential: it is filled from the environment, never a tool argument, so it is not sent as an Mcp-Param header.`,
        {
          pointer: childPointer(parameter.pointer, 'x-mcp-header'),
          hint: 'Remove the x-mcp-header marking; credentials must not travel in headers that proxies log.',
        },
      );
    }
    const coveredBySecurity = security.some((requirement) => requirement.length > 0);
    if (!coveredBySecurity && parameter.in !== 'path') {
      const key = declared?.key ?? credentialScheme(parameter as ParameterModel & { in: 'header' | 'query' | 'cookie' }, context);
      if (security.length === 0) security.push([]);
      for (const requirement of security) requirement.push({ scheme: key, scopes: [] });
    }
    if (declared) continue;
    context.diagnostics.add({
      severity: 'info',
      code: 'OTM_CREDENTIAL_PARAMETER',
      message: `Parameter "${parameter.name}" (${parameter.in}) carries a credential; it is filled from the environment, not by the model.`,
      pointer: parameter.pointer ?? pointer,
    });
  }
  return kept;
}

/** The apiKey scheme made for a credential parameter the description declares no scheme for. */
function credentialScheme(parameter: ParameterModel & { in: 'header' | 'query' | 'cookie' }, context: Context): string {
  const key = `${parameter.name.replace(/[^A-Za-z0-9]+/g, '_')}_${parameter.in}`;
  if (!context.knownSchemes.has(key))
    addScheme(
      { key, kind: 'apiKey', in: parameter.in, name: parameter.name, description: `The ${parameter.name} ${parameter.in} parameter.` },
      context,
    );
  return key;
}

function addScheme(scheme: SecuritySchemeModel, context: Context): void {
  context.schemes.push(scheme);
  context.schemes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  context.knownSchemes.add(scheme.key);
  context.made.push(scheme);
}

function stringList(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * A short name for the project and its environment variables: from the title (`Swagger Petstore - OpenAPI 3.0` →
 * `swagger-petstore`, `GitHub v3 REST API` → `github`), else from what else identifies the API (a title such as
 * `API Reference` names nothing: Sentry's server `https://{region}.sentry.io` does), else the title's own words.
 */
export function slugOf(title: string, identify?: () => string | undefined): string {
  const fromTitle = titleSlug(title);
  if (fromTitle) return fromTitle;
  const identified = identify?.();
  if (identified) return identified;
  return nameSlug(title.split(/\s+[-–—+|:(]\s*|\s*\(|,/)[0] ?? title);
}
