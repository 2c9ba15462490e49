/**
 * The version-neutral intermediate model: what the planner needs to know about an API, whatever the description's
 * version. Types only. Schemas are JSON Schema 2020-12 objects; named schemas live in `schemas` and are referenced
 * as `{ "$ref": "#/$defs/<name>" }`.
 */

import type { JsonObject, JsonValue } from '../kernel/json.js';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

export const HTTP_METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A JSON Schema 2020-12 object (or boolean schema). */
export type SchemaModel = JsonObject | boolean;

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export type ParameterStyle = 'simple' | 'label' | 'matrix' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject' | 'tabDelimited';

export type ParameterModel = {
  name: string;
  in: ParameterLocation;
  required: boolean;
  description?: string;
  deprecated: boolean;
  schema: SchemaModel;
  style: ParameterStyle;
  explode: boolean;
  allowReserved: boolean;
  /** Set when the parameter is serialised as a media type (`content`) instead of a style. */
  contentType?: string;
  /** `x-mcp-header` on the parameter: a header name, or false to forbid marking it. */
  mcpHeader?: string | false;
  pointer: string;
};

export type BodyKind = 'json' | 'form' | 'multipart' | 'text' | 'binary';

export type MediaTypeModel = {
  mediaType: string;
  kind: BodyKind;
  schema: SchemaModel;
  /** Per-property encoding of form and multipart bodies (content types, styles). */
  encoding: Record<string, { contentType?: string; style?: ParameterStyle; explode?: boolean }>;
};

export type RequestBodyModel = {
  required: boolean;
  description?: string;
  /** In the description's order; the planner picks one. */
  contents: MediaTypeModel[];
  pointer: string;
};

export type ResponseModel = {
  /** `200`, `2XX`, `default`. */
  status: string;
  description?: string;
  contents: Array<{ mediaType: string; schema?: SchemaModel }>;
  /** Names of response headers the description declares (`Link`, `X-Next-Cursor` …). */
  headers: string[];
};

export type SecurityRequirement = Array<{ scheme: string; scopes: string[] }>;

/**
 * `env` is set on schemes the configuration adds (credentials the description does not declare): the variable the
 * user named (for basic, the prefix of `_USERNAME` and `_PASSWORD`), used as it is.
 */
export type SecuritySchemeModel =
  | { key: string; kind: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string; description?: string; env?: string }
  | { key: string; kind: 'httpBearer'; bearerFormat?: string; description?: string; env?: string }
  | { key: string; kind: 'httpBasic'; description?: string; env?: string }
  | { key: string; kind: 'oauth2'; flows: OAuthFlowModel[]; description?: string }
  | { key: string; kind: 'openIdConnect'; url: string; description?: string }
  | { key: string; kind: 'unsupported'; type: string; description?: string };

export type OAuthFlowModel = {
  flow: 'clientCredentials' | 'authorizationCode' | 'implicit' | 'password';
  tokenUrl?: string;
  authorizationUrl?: string;
  scopes: string[];
};

export type ServerVariableModel = { name: string; default: string; enum?: string[]; description?: string };

export type ServerModel = { url: string; description?: string; variables: ServerVariableModel[] };

/** What the description says about an operation through the `x-mcp` extension. */
export type OperationExtension = {
  hidden?: boolean;
  tool?: string;
  action?: string;
  group?: string;
  description?: string;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
};

export type OperationModel = {
  /** Unique, stable key of the operation: `METHOD path-key` (as written in the description). */
  key: string;
  /** operationId, or one derived from method and path when missing; unique. */
  id: string;
  /** True when the description gave no operationId. */
  derivedId: boolean;
  method: HttpMethod;
  /** The path key as written (may carry `?query`, `#fragment` or `:verb`). */
  path: string;
  summary?: string;
  description?: string;
  tags: string[];
  deprecated: boolean;
  parameters: ParameterModel[];
  /** `Accept` / `Content-Type` values the description pins through header parameters (not tool arguments). */
  declaredHeaders?: Array<[string, string]>;
  requestBody?: RequestBodyModel;
  responses: ResponseModel[];
  /** It may answer before its work is done (a `202` with a `Location`, `x-ms-long-running-operation`): see long-running.ts. */
  longRunning?: true;
  /** Alternatives (any one suffices); each lists schemes that apply together. Empty: no authentication. */
  security: SecurityRequirement[];
  /** Effective servers: operation, then path item, then document. */
  servers: ServerModel[];
  extension: OperationExtension;
  pointer: string;
};

export type ApiModel = {
  title: string;
  version: string;
  description?: string;
  /** Lower-case, dash-separated name for the project and environment variables (`github-rest-api`). */
  slug: string;
  specVersion: '2.0' | '3.0' | '3.1';
  servers: ServerModel[];
  securitySchemes: SecuritySchemeModel[];
  operations: OperationModel[];
  /** Named schemas, normalised to JSON Schema 2020-12; `$ref`s inside point at `#/$defs/<name>`. */
  schemas: Record<string, SchemaModel>;
  /** Document-level `x-mcp` settings. */
  extension: { prefix?: string };
  /** `info.x-logo.url` as written (a URL or a `data:` URI): the server's icon when it is embedded data. */
  logo?: string;
};

export type { JsonObject, JsonValue };
