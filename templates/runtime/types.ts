// Runtime types of the generated server. regenerate instead of editing.

import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import type { ConfirmDefaults } from './confirmation-settings.js';
import type { Settings } from './settings.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
export type Style =
  'simple' | 'label' | 'matrix' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject' | 'tabDelimited';
export type BodyKind = 'json' | 'form' | 'multipart' | 'text' | 'binary';

/** How one tool argument reaches the HTTP request, every default filled in (see define-tool.ts). */
export type ArgumentRoute =
  | {
      arg: string;
      in: 'path' | 'query' | 'header' | 'cookie';
      name: string;
      style: Style;
      explode: boolean;
      allowReserved?: boolean;
      /** Sent as JSON text (a parameter described with `content`). */
      json?: boolean;
    }
  | { arg: string; in: 'body'; name: string; file?: boolean; contentType?: string; style?: Style; explode?: boolean }
  | { arg: string; in: 'body-whole'; file?: boolean };

/** Where an argument goes. */
export type ArgumentLocation = ArgumentRoute['in'];

/**
 * An argument's route as a tool module writes it, under the argument's name: its location alone when everything
 * else is OpenAPI's default, else only what differs — `name` when the request calls it otherwise, `style` when it
 * is not the location's (`simple` in path and header, `form` in query and cookie), `explode` when it is not true
 * exactly for `form`, `allowReserved` and `json` when true.
 */
export type ArgumentSpec =
  | ArgumentLocation
  | {
      in: 'path' | 'query' | 'header' | 'cookie';
      name?: string;
      style?: Style;
      explode?: boolean;
      allowReserved?: boolean;
      json?: boolean;
    }
  | { in: 'body'; name?: string; file?: boolean; contentType?: string; style?: Style; explode?: boolean }
  | { in: 'body-whole'; file?: boolean };

export type ServerVariable = { name: string; default: string; enum?: string[] };
export type ServerConfig = { url: string; variables?: ServerVariable[] };

/** One alternative of an operation's security: every scheme listed applies together. */
export type SecurityRequirement = string[];

export type PaginationHint = { arguments: string[]; nextFields: string[]; nextLinkHeader: boolean };

/** Lists of a result (the body itself, or a top-level field) and the item fields the concise view keeps. */
export type ConciseView = { lists: Array<{ field?: string; keep: string[] }> };

export type ActionRoute = {
  operationId: string;
  method: HttpMethod;
  /** Path template relative to the server URL: `/pets/{petId}`. */
  path: string;
  fixedQuery?: Array<[string, string]>;
  arguments: ArgumentRoute[];
  /** Arguments this action cannot do without. */
  required: string[];
  body?: { mediaType: string; kind: BodyKind; required: boolean };
  security: SecurityRequirement[];
  servers?: ServerConfig[];
  /** Media types to ask for (`Accept`); empty: JSON. */
  accepts: string[];
  /** `Accept` / `Content-Type` values the description pins; a request body's own type still wins. */
  headers?: Array<[string, string]>;
  pagination?: PaginationHint;
  /** Set when the action's list results have a concise view (`response_format`). */
  concise?: ConciseView;
  /** The operation may answer before its work is done: a status follow-up is offered (operation-status.ts). */
  longRunning?: true;
  /**
   * The description's full rules for the arguments (JSON Schema 2020-12 keyed by argument names; `#/$defs/<name>`
   * points into src/schemas.ts), checked before any request is sent. Absent when there is nothing to check.
   */
  argumentsSchema?: { [keyword: string]: unknown };
  /**
   * Only the server's own credentials authorize this operation, and the generator's configuration lets the per-user
   * upstream modes send it with them (`sharedCredentials`): shared by every signed-in user. Unset, those modes never
   * send the environment's credentials for it (auth.ts).
   */
  sharedCredentials?: true;
};

/**
 * An action's route as a tool module writes it: arguments by name, in the order they are sent; `required` without
 * the path arguments, which always are; empty lists left out, and `accepts` too when it is JSON alone (what the
 * server asks for when it is empty); a body's media type only when it is not its kind's own (`BODY_MEDIA_TYPES` in
 * define-tool.ts) and `required` only when true (OpenAPI's default is false).
 */
export type ActionSpec = Omit<ActionRoute, 'arguments' | 'required' | 'security' | 'accepts' | 'body'> & {
  arguments?: ByName<ArgumentSpec>;
  body?: { kind: BodyKind; mediaType?: string; required?: boolean };
  required?: string[];
  security?: SecurityRequirement[];
  accepts?: string[];
};

export type ToolAnnotations = {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

export type ToolDefinition = {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  inputSchema: { type: 'object'; [keyword: string]: unknown };
  /** A loose projection of the success responses, when generated with `--output-schema loose`. */
  outputSchema?: { type: 'object'; [keyword: string]: unknown };
  /** Routes by action name; a single-action tool has one route under the empty name. */
  actions: Record<string, ActionRoute>;
  /** What the per-user upstream modes serve of the tool, when not the tool as it is (see per-user-tools.ts). */
  perUser?: PerUserView;
};

/**
 * The actions a signed-in user's own token can authorize (or that use shared credentials), with the title,
 * description and input schema of those actions alone; no actions: the tool is not offered in the per-user modes.
 */
export type PerUserView = {
  actions: string[];
  title?: string;
  description?: string;
  inputSchema?: { type: 'object'; [keyword: string]: unknown };
};

/** A tool as its module writes it; `defineTool` completes it into a `ToolDefinition`. */
export type ToolSpec = Omit<ToolDefinition, 'actions'> & { actions: ByName<ActionSpec> };

/**
 * Values by name in an object literal. A name may be one of Object's own members (`constructor`, `toString` …): typed
 * by the index signature alone, such a property takes Object's member as its type and its value is not checked
 * against `T` (a string literal widens and fails), so those names are declared with `T` too.
 */
export type ByName<T> = { [name: string]: T } & { [K in keyof Object]?: T | Object[K] };

/**
 * A tool served by its own handler instead of routes to the API: the search surface's tools, which find actions and
 * call them through the routed tools' definitions.
 */
export type HandledTool = {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  inputSchema: { type: 'object'; [keyword: string]: unknown };
  handle: (
    args: Record<string, unknown>,
    settings: Settings,
    signal?: AbortSignal,
    confirm?: ConfirmCall,
  ) => Promise<CallToolResult | InputRequiredResult>;
  /** Compiles the validators the handler uses later (see compileValidators in server.ts). */
  compile?: () => void;
  /** False: not listed in the per-user upstream modes (a call tool whose class they offer no action of). */
  perUser?: false;
};

/**
 * Confirms a destructive call of a routed tool with the user before it is sent (confirmation.ts): an answer that
 * sends nothing (a question, a refusal), or `undefined` to send it.
 */
export type ConfirmCall = (
  tool: ToolDefinition,
  input: Record<string, unknown>,
) => Promise<CallToolResult | InputRequiredResult | undefined>;

/** What `tools/list` shows: routed tools (the static surface) or handled ones (the search surface). */
export type ServedTool = ToolDefinition | HandledTool;

export type Credential =
  /** `prefix`: put before a header value that lacks it (`Bot `, as the description shows the format). */
  | { scheme: string; kind: 'apiKey'; env: string[]; in: 'header' | 'query' | 'cookie'; name: string; prefix?: string }
  | { scheme: string; kind: 'httpBearer' | 'oauth2Token' | 'openIdConnectToken'; env: string[] }
  | { scheme: string; kind: 'httpBasic'; env: string[] }
  | { scheme: string; kind: 'oauth2ClientCredentials'; env: string[]; tokenUrl: string; scopes: string[] };

export type ApiDefinition = {
  /** Name of the generated server (npm package name). */
  name: string;
  title: string;
  version: string;
  /** Prefix of the environment variables the server reads. */
  envPrefix: string;
  servers: ServerConfig[];
  credentials: Credential[];
  /** How users sign in to the API, for the per-user upstream modes (`<PREFIX>_UPSTREAM_AUTH`). */
  userAuth?: UserAuth;
  /** The generator configuration's confirmation policies (`confirm`); unset: ask before every deletion. */
  confirm?: ConfirmDefaults;
};

/**
 * The description's sign-in for users: the security scheme a user's own token stands for and its OAuth 2.0
 * authorization code flow. Variables override every part.
 */
export type UserAuth = {
  /** The scheme the user's token satisfies; unset: the token goes with every request. */
  scheme?: string;
  authorizationUrl?: string;
  tokenUrl?: string;
  /** The scopes of that scheme which the served operations ask for. */
  scopes: string[];
};

/** A request about to be sent; hooks may change it. */
export type OutgoingRequest = {
  method: string;
  url: URL;
  headers: Headers;
  body?: string | Blob | FormData;
  /** The API's base URL: a redirect that leaves it is reported, not followed (credentials and body would go along). */
  baseUrl?: URL;
};

export type CallContext = {
  tool: string;
  action: string;
  operationId: string;
  arguments: Record<string, unknown>;
};

/** A response as hooks see it; a hook may replace `body` or change `status`. */
export type IncomingResponse = { status: number; headers: Headers; body: Uint8Array };

/** User hooks (src/custom/hooks.ts): change requests and responses without editing generated code. */
export type Hooks = {
  beforeRequest?: (request: OutgoingRequest, context: CallContext) => void | Promise<void>;
  afterResponse?: (response: IncomingResponse, context: CallContext) => void | Promise<void>;
};
