import { CONFIRM_POLICIES, type ConfirmOptions } from '../emit/confirm-defaults.js';
import type { OperationOverride as ModelOperationOverride } from '../model/apply-overrides.js';
import { PARAMETER_TYPES } from '../model/reconcile-parameter-types.js';

/**
 * The configuration file's JSON Schema: the one definition of what `openapi-to-mcp.config.{json,yaml}` may hold.
 * The validator checks files against it, the package ships it as `openapi-to-mcp.config.schema.json` for editors
 * (a unit test keeps that file equal to this value), and the README's configuration reference lists its keys.
 */

/** The subset of JSON Schema the config validator understands (see validate-config.ts). */
export type ConfigSchemaNode = {
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';
  description?: string;
  properties?: Record<string, ConfigSchemaNode>;
  additionalProperties?: boolean | ConfigSchemaNode;
  propertyNames?: { pattern: string };
  required?: string[];
  items?: ConfigSchemaNode;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  pattern?: string;
  default?: unknown;
};

const stringList = (description: string): ConfigSchemaNode => ({
  type: 'array',
  description,
  items: { type: 'string', minLength: 1 },
});

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const methodList = (description: string): ConfigSchemaNode => ({
  type: 'array',
  description,
  items: { type: 'string', enum: [...HTTP_METHODS, ...HTTP_METHODS.map((method) => method.toUpperCase())] },
});

const selection = (verb: 'Only' | 'Leave out'): Record<string, ConfigSchemaNode> => ({
  tags: stringList(`${verb} operations with one of these tags (case-insensitive).`),
  operations: stringList(`${verb} these operationIds.`),
  paths: stringList(`${verb} paths matching these globs (\`*\` within a segment, \`**\` across).`),
  methods: methodList(`${verb} these HTTP methods.`),
});

const annotations: ConfigSchemaNode = {
  type: 'object',
  description: 'Tool annotations to assert for the tool holding this operation (they override the derived hints).',
  additionalProperties: false,
  properties: {
    readOnlyHint: { type: 'boolean' },
    destructiveHint: { type: 'boolean' },
    idempotentHint: { type: 'boolean' },
    openWorldHint: { type: 'boolean' },
  },
};

const operationOverride: ConfigSchemaNode = {
  type: 'object',
  description: 'The same fields as the x-mcp extension on an operation; they win over what the description says.',
  additionalProperties: false,
  properties: {
    hidden: { type: 'boolean', description: 'Leave the operation out.' },
    tool: { type: 'string', minLength: 1, description: 'Put the operation into the tool of this name (with others that name it).' },
    action: { type: 'string', minLength: 1, description: 'Name of its action inside the tool.' },
    group: { type: 'string', minLength: 1, description: 'Keep operations with the same group together in one tool.' },
    description: { type: 'string', minLength: 1, description: "Replaces the operation's description for the model." },
    annotations,
    parameters: {
      type: 'object',
      description:
        "Types of the operation's parameters, by name: they win over the description's type and over the type the generator believes where the description contradicts itself (OTM_PARAMETER_TYPE_BELIEVED).",
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['type'],
        properties: {
          type: { type: 'string', enum: PARAMETER_TYPES, description: 'The type the model is told and the server checks.' },
          in: {
            type: 'string',
            enum: ['path', 'query', 'header', 'cookie'],
            description: 'Where the parameter is, when the operation has parameters of that name in several places.',
          },
        },
      },
    },
  },
};

const headerEntry = (withHeader: boolean): ConfigSchemaNode => ({
  type: 'object',
  additionalProperties: false,
  required: ['property'],
  properties: {
    tool: { type: 'string', minLength: 1, description: 'Only in this tool (default: every tool with the property).' },
    property: { type: 'string', minLength: 1, description: 'Top-level property of the tool input.' },
    ...(withHeader ? { header: { type: 'string', minLength: 1, description: 'Header name after `Mcp-Param-` (default: derived).' } } : {}),
  },
});

/**
 * Every option's default, written once. The schema below publishes them (editors show them), the starter that `init`
 * writes lists them, the CLI's help shows them, and resolve-options.ts applies them to what a caller leaves unset.
 */
export const CONFIG_DEFAULTS = {
  target: 'node',
  deploy: false,
  strategy: 'auto',
  maxTools: 128,
  maxNameLength: 40,
  maxToolTokens: 3000,
  tokensPerOperation: 80,
  maxTotalTokens: 48_000,
  outputSchema: 'none',
  surface: 'static',
  excludeDeprecated: false,
  headersEnabled: true,
  allowRemoteRefs: false,
  maxInputMb: 32,
  validate: true,
  cache: true,
  quiet: false,
  verbose: false,
} as const satisfies {
  target: NonNullable<UserConfig['target']>;
  strategy: NonNullable<UserConfig['strategy']>;
  outputSchema: NonNullable<UserConfig['outputSchema']>;
  surface: NonNullable<UserConfig['surface']>;
  [key: string]: unknown;
};

export const CONFIG_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://www.npmjs.com/package/openapi-mcp-planner/openapi-to-mcp.config.schema.json',
  title: 'openapi-to-mcp configuration',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string', description: 'Path or URL of this schema, for editors.' },
    spec: {
      type: 'string',
      minLength: 1,
      description: 'The OpenAPI description: a path (relative to this file), `-` for stdin, or an http(s) URL.',
    },
    out: { type: 'string', minLength: 1, description: 'Output folder, relative to this file (default `./<api-name>-mcp`).' },
    packageName: {
      type: 'string',
      pattern: '^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$',
      description: 'npm name of the generated project (default `<api-name>-mcp`).',
    },
    target: {
      type: 'string',
      enum: ['node', 'workers'],
      default: CONFIG_DEFAULTS.target,
      description: '`workers` adds a Cloudflare Workers entry (src/worker.ts, wrangler.toml) to the Node project.',
    },
    deploy: {
      type: 'boolean',
      default: CONFIG_DEFAULTS.deploy,
      description:
        'Also write the deployment files: Dockerfile and .dockerignore, deploy/kubernetes.yaml, and the MCP Bundle manifest (manifest.json, .mcpbignore) for Claude Desktop. Turned off on a project that has them, regeneration removes them (or warns about the ones edited by hand).',
    },
    name: {
      type: 'string',
      minLength: 1,
      description:
        "The API's name for the project and its variables (`Sentry` → `sentry-mcp`, `SENTRY_*`); default from the title, or the server host, logo, contact or file name when the title names nothing.",
    },
    credentials: {
      type: 'array',
      description:
        'Credentials the description does not declare, sent whenever their variable is set (GitHub: `[{ type: bearer, env: GITHUB_TOKEN }]`).',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'env'],
        properties: {
          type: {
            type: 'string',
            enum: ['bearer', 'apiKey', 'basic'],
            description: '`bearer` (Authorization: Bearer), `apiKey` (a header, query parameter or cookie) or `basic`.',
          },
          env: {
            type: 'string',
            pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
            description: 'The environment variable that holds it (for basic, the prefix of `<ENV>_USERNAME` and `<ENV>_PASSWORD`).',
          },
          in: { type: 'string', enum: ['header', 'query', 'cookie'], description: 'apiKey: where it goes.' },
          name: { type: 'string', minLength: 1, description: 'apiKey: the header, query parameter or cookie name.' },
          operations: stringList('Only these operations (operationId or `METHOD /path`; default: every operation).'),
          description: { type: 'string', minLength: 1, description: 'What it is, for .env.example and the README.' },
        },
      },
    },
    sharedCredentials: {
      type: 'object',
      additionalProperties: false,
      description:
        "Operations that per-user deployments (`<PREFIX>_UPSTREAM_AUTH=oauth` or `token-exchange`) may still call with the server's own credentials, shared by every signed-in user. By default an operation that only the deployment's credentials authorize is not offered in those modes.",
      properties: {
        operations: stringList('These operations (operationId or `METHOD /path`).'),
        tags: stringList('Every operation with one of these tags (case-insensitive).'),
        tools: stringList('Every action of these tools.'),
      },
    },
    confirm: {
      type: 'object',
      additionalProperties: false,
      description:
        "Whether the generated server asks the user before a tool that deletes sends its request: `ask` asks a client that declares form elicitation and sends for one that cannot, `require` refuses one that cannot, `off` never asks. The deployment's `<PREFIX>_CONFIRM_TOOLS` and `<PREFIX>_CONFIRM` win, per tool first.",
      properties: {
        policy: { type: 'string', enum: CONFIRM_POLICIES, default: 'ask', description: 'For every tool that deletes.' },
        tools: {
          type: 'object',
          description: 'Per tool that deletes, by the names `openapi-to-mcp plan` shows; they win over `policy`.',
          additionalProperties: { type: 'string', enum: CONFIRM_POLICIES },
        },
      },
    },
    prefix: { type: 'string', minLength: 1, description: 'Namespace for tool names (`github` → `github_issues_read`).' },
    envPrefix: {
      type: 'string',
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      description: 'Prefix of the environment variables the server reads (default from the API title).',
    },
    strategy: {
      type: 'string',
      enum: ['auto', 'per-operation', 'by-tag'],
      default: CONFIG_DEFAULTS.strategy,
      description: 'How operations are grouped into tools.',
    },
    maxTools: { type: 'integer', minimum: 1, default: CONFIG_DEFAULTS.maxTools, description: 'Most tools to generate.' },
    maxNameLength: {
      type: 'integer',
      minimum: 16,
      maximum: 64,
      default: CONFIG_DEFAULTS.maxNameLength,
      description:
        'Longest tool name, prefix included. Hosts cap names at 64 characters with their own prefix counted (Claude Code calls a tool `mcp__<server>__<tool>`): the default leaves room for it.',
    },
    maxToolTokens: {
      type: 'integer',
      minimum: 100,
      default: CONFIG_DEFAULTS.maxToolTokens,
      description: 'Token budget of one tool in tools/list.',
    },
    tokensPerOperation: {
      type: 'integer',
      minimum: 1,
      default: CONFIG_DEFAULTS.tokensPerOperation,
      description: 'Token budget of the whole tool list per operation (never below 10,000 in total).',
    },
    maxTotalTokens: {
      type: 'integer',
      minimum: 1000,
      default: CONFIG_DEFAULTS.maxTotalTokens,
      description: 'Most tokens the whole tool list may take, however many operations the API has.',
    },
    outputSchema: {
      type: 'string',
      enum: ['none', 'loose'],
      default: CONFIG_DEFAULTS.outputSchema,
      description: 'Declare an outputSchema on tools: none, or loose (types and nesting only, every field optional and nullable).',
    },
    surface: {
      type: 'string',
      enum: ['static', 'search', 'auto'],
      default: CONFIG_DEFAULTS.surface,
      description:
        'What tools/list serves: static (the grouped tools), search (a few tools that find and call every action), or auto (search when the static plan misses its budget).',
    },
    include: {
      type: 'object',
      description: 'Keep only operations that match every rule given here.',
      additionalProperties: false,
      properties: selection('Only'),
    },
    exclude: {
      type: 'object',
      description: 'Leave out operations that match any rule given here.',
      additionalProperties: false,
      properties: {
        ...selection('Leave out'),
        deprecated: { type: 'boolean', default: CONFIG_DEFAULTS.excludeDeprecated, description: 'Leave out deprecated operations.' },
      },
    },
    operations: {
      type: 'object',
      description: 'Per-operation overrides, keyed by operationId (or `METHOD /path`), with the fields of the x-mcp extension.',
      additionalProperties: operationOverride,
    },
    headers: {
      type: 'object',
      description: 'Which tool properties carry x-mcp-header (sent as Mcp-Param-* headers for routing).',
      additionalProperties: false,
      properties: {
        enabled: {
          type: 'boolean',
          default: CONFIG_DEFAULTS.headersEnabled,
          description: 'Derive markings from the description; false marks none but `add`.',
        },
        add: { type: 'array', description: 'Mark these properties.', items: headerEntry(true) },
        remove: { type: 'array', description: 'Never mark these properties.', items: headerEntry(false) },
      },
    },
    icons: {
      type: 'object',
      additionalProperties: false,
      description:
        "Icons the server and its tools show in clients: each a path (relative to this file) or a data: URI of a PNG, JPEG, WebP or SVG image of at most 32 KiB, embedded in the server at generation (nothing is fetched, at generation or at run time). Default for the server: the description's info.x-logo when it is a data: URI.",
      properties: {
        server: { type: 'string', minLength: 1, description: "The server's icon (serverInfo)." },
        tools: { type: 'string', minLength: 1, description: "Every tool's icon, unless byTool gives one (default: the server's)." },
        byTool: {
          type: 'object',
          description: 'Icons of single tools, by tool name (`openapi-to-mcp plan` lists them).',
          additionalProperties: { type: 'string', minLength: 1 },
        },
      },
    },
    renameTools: {
      type: 'object',
      description: 'Deliberate renames of tools the lock file pins: `{ old_name: new_name }`.',
      additionalProperties: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_-]{0,63}$' },
    },
    refRoot: { type: 'string', minLength: 1, description: "Folder that file $refs may not leave (default: the description's folder)." },
    allowRemoteRefs: { type: 'boolean', default: CONFIG_DEFAULTS.allowRemoteRefs, description: 'Follow $refs to http(s) URLs.' },
    maxInputMb: {
      type: 'number',
      exclusiveMinimum: 0,
      default: CONFIG_DEFAULTS.maxInputMb,
      description: 'Largest description accepted, in MB.',
    },
    validate: {
      type: 'boolean',
      default: CONFIG_DEFAULTS.validate,
      description: 'Check the description against the OpenAPI schema (warnings).',
    },
    cache: {
      type: 'boolean',
      default: CONFIG_DEFAULTS.cache,
      description:
        'Keep a regeneration cache in the output folder (`.openapi-to-mcp-cache/`, git-ignored, signed with a key in your user cache folder): an unchanged description and configuration reuse the previous output. The output is the same either way.',
    },
    quiet: { type: 'boolean', default: CONFIG_DEFAULTS.quiet, description: 'Print only errors.' },
    verbose: { type: 'boolean', default: CONFIG_DEFAULTS.verbose, description: 'Also print informational diagnostics.' },
  },
} satisfies ConfigSchemaNode & { $schema: string; $id: string; title: string };

type Selection = { tags?: string[]; operations?: string[]; paths?: string[]; methods?: string[] };

/** A credential the description does not declare, as the configuration file writes it. */
export type ConfiguredCredential = {
  type: 'bearer' | 'apiKey' | 'basic';
  env: string;
  in?: 'header' | 'query' | 'cookie';
  name?: string;
  operations?: string[];
  description?: string;
};

/** One operation's override: the fields of the `x-mcp` extension, and the types of its parameters. */
export type OperationOverride = ModelOperationOverride;

/** What a configuration file may hold; every key is optional and documented in CONFIG_SCHEMA. */
export type UserConfig = {
  $schema?: string;
  spec?: string;
  out?: string;
  packageName?: string;
  target?: 'node' | 'workers';
  deploy?: boolean;
  name?: string;
  credentials?: ConfiguredCredential[];
  sharedCredentials?: { operations?: string[]; tags?: string[]; tools?: string[] };
  confirm?: ConfirmOptions;
  prefix?: string;
  envPrefix?: string;
  strategy?: 'auto' | 'per-operation' | 'by-tag';
  maxTools?: number;
  maxNameLength?: number;
  maxToolTokens?: number;
  tokensPerOperation?: number;
  maxTotalTokens?: number;
  outputSchema?: 'none' | 'loose';
  surface?: 'static' | 'search' | 'auto';
  include?: Selection;
  exclude?: Selection & { deprecated?: boolean };
  operations?: Record<string, OperationOverride>;
  headers?: {
    enabled?: boolean;
    add?: Array<{ tool?: string; property: string; header?: string }>;
    remove?: Array<{ tool?: string; property: string }>;
  };
  renameTools?: Record<string, string>;
  icons?: { server?: string; tools?: string; byTool?: Record<string, string> };
  refRoot?: string;
  allowRemoteRefs?: boolean;
  maxInputMb?: number;
  validate?: boolean;
  cache?: boolean;
  quiet?: boolean;
  verbose?: boolean;
};
