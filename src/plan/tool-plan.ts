/**
 * The plan stage's output: the tool surface a model sees, and for every action the route the generated server
 * follows to call the API. Types only. The emitter turns this into code without making any decision of its own.
 */

import type {
  BodyKind,
  HttpMethod,
  JsonObject,
  ParameterLocation,
  ParameterStyle,
  SchemaModel,
  SecurityRequirement,
  ServerModel,
} from '../model/api-model.js';
import type { Intent } from '../surface/surface.js';

export type ToolAnnotations = {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

/** How one tool argument reaches the HTTP request. */
export type ArgumentRoute =
  | {
      arg: string;
      in: ParameterLocation;
      name: string;
      style: ParameterStyle;
      explode: boolean;
      allowReserved: boolean;
      /** Serialised as JSON (a parameter with `content`). */
      json?: boolean;
      required: boolean;
    }
  | {
      arg: string;
      in: 'body';
      name: string;
      required: boolean;
      file?: boolean;
      contentType?: string;
      style?: ParameterStyle;
      explode?: boolean;
    }
  /** The whole request body comes from one argument (arrays, primitives, unions, binary uploads). */
  | { arg: string; in: 'body-whole'; required: boolean; file?: boolean };

export type RouteModel = {
  method: HttpMethod;
  /** Path template without fragment or literal query: `/repos/{owner}/{repo}`. */
  path: string;
  /** Query pairs written into the path key (`/responses?beta=true`). */
  fixedQuery: Array<[string, string]>;
  arguments: ArgumentRoute[];
  body?: { mediaType: string; kind: BodyKind; required: boolean };
  security: SecurityRequirement[];
  /** Set when the operation has its own servers (per-path or per-operation). */
  servers?: ServerModel[];
  /** Media types the operation answers with on success, to set `Accept`. */
  accepts: string[];
  /** Header values the description pins (`Content-Type`); a request body's own type still wins. */
  headers?: Array<[string, string]>;
};

export type ActionModel = {
  /** Value of the tool's `action` argument; empty for single-action tools. */
  name: string;
  summary: string;
  operation: { key: string; id: string; method: HttpMethod; path: string; deprecated: boolean };
  /** Tool arguments the action needs; checked before any request is sent. */
  required: string[];
  route: RouteModel;
  /** Paging arguments and result fields, for the note that tells a model how to fetch more. */
  pagination?: PaginationModel;
  /** How list results shrink when the model asks for `response_format: concise`. */
  concise?: ConciseModel;
  /** The operation may answer before its work is done: its answer's status follow-up is offered (`operation_status`). */
  longRunning?: true;
  /**
   * The description's full rules for the action's arguments, keyed by tool argument names (`properties`, and for
   * flattened bodies `dependentRequired`/`anyOf`); `$ref`s point into `ToolPlan.argumentDefs`. The generated server
   * checks every call against it before sending anything. Absent when there is nothing to check.
   */
  argumentsSchema?: JsonObject;
  /**
   * Set when only the server's own credentials authorize the operation and the configuration lets the per-user
   * upstream modes send it with them (`sharedCredentials`): shared by every signed-in user.
   */
  sharedCredentials?: true;
};

/**
 * What the per-user upstream modes (`<PREFIX>_UPSTREAM_AUTH=oauth|token-exchange`) serve of a tool, when that is not
 * the tool as it is: the actions a signed-in user's own token can authorize (or that are named for shared
 * credentials), with the title, description and input schema of those actions alone. No actions: the tool is not offered.
 */
export type PerUserToolModel = { actions: string[]; title?: string; description?: string; inputSchema?: JsonObject; tokens?: number };

/**
 * The concise view of a list result: each list (the body, or a top-level field of it) keeps, per item, only the
 * fields that identify and summarise it.
 */
export type ConciseModel = { lists: Array<{ field?: string; keep: string[] }> };

/** Whether tools declare an `outputSchema`: `none`, or `loose` (a permissive projection of the success responses). */
export type OutputSchemaMode = 'none' | 'loose';

export type PaginationModel = {
  /** Arguments the model passes to ask for another page. */
  arguments: string[];
  /** Result fields or headers that carry the next page (`next_cursor`, `Link`). */
  nextFields: string[];
  nextLinkHeader: boolean;
};

export type HeaderDecision = {
  /** Top-level property of the input schema. */
  property: string;
  /** `Mcp-Param-<header>`; absent when refused. */
  header?: string;
  reason: string;
};

export type ToolModel = {
  name: string;
  title: string;
  description: string;
  intent: Intent;
  annotations: ToolAnnotations;
  inputSchema: JsonObject;
  /** Present only with `outputSchema: 'loose'` and when every action answers JSON. */
  outputSchema?: JsonObject;
  actions: ActionModel[];
  headers: { marked: HeaderDecision[]; refused: HeaderDecision[] };
  /** o200k tokens of this tool's entry in `tools/list`. */
  tokens: number;
  /**
   * How much schema detail was kept to fit the budget: 0 (all) … 7 (least), the eight `LEVELS` of
   * arguments/tool-schema.ts (`MAX_DETAIL`).
   */
  detail: number;
  /** Absent when the per-user modes serve the tool as it is. */
  perUser?: PerUserToolModel;
};

export type CredentialModel = {
  scheme: string;
  kind: 'apiKey' | 'httpBearer' | 'httpBasic' | 'oauth2ClientCredentials' | 'oauth2Token' | 'openIdConnectToken';
  /** Environment variables this scheme reads, in order: the secret first. */
  env: string[];
  /** apiKey placement. */
  in?: 'header' | 'query' | 'cookie';
  name?: string;
  tokenUrl?: string;
  scopes?: string[];
  description?: string;
  /** The value format the description shows (`Bot <token>`), for .env.example and the README. */
  format?: string;
  /** Literal prefix the server puts before a header credential that lacks it (`Bot `). */
  prefix?: string;
};

/** How users sign in to the API, for the generated server's per-user upstream modes (see `user-auth.ts`). */
export type UserAuthModel = {
  /** The security scheme a user's own token stands for. */
  scheme: string;
  /** The scheme's OAuth 2.0 authorization code flow, when it has one. */
  authorizationUrl?: string;
  tokenUrl?: string;
  /** Scopes the selected operations ask of the scheme. */
  scopes: string[];
};

export type PlanTotals = {
  tools: number;
  actions: number;
  operations: number;
  excluded: number;
  tokens: number;
  budget: { maxTools: number; maxToolTokens: number; maxTotalTokens: number };
  withinBudget: boolean;
};

export type ToolPlan = {
  api: {
    title: string;
    version: string;
    description?: string;
    slug: string;
    /** Prefix of every environment variable the server reads: `PETSTORE`. */
    envPrefix: string;
    /** What every tool name starts with, before an underscore (`--prefix`, `x-mcp.prefix`): `github`. */
    toolPrefix?: string;
    servers: ServerModel[];
    credentials: CredentialModel[];
    userAuth?: UserAuthModel;
  };
  tools: ToolModel[];
  /** Named schemas the actions' `argumentsSchema`s reference (`#/$defs/<name>`), in their validation view. */
  argumentDefs: Record<string, SchemaModel>;
  excluded: Array<{ key: string; reason: string }>;
  totals: PlanTotals;
};
