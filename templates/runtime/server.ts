// The MCP server: one McpServer per connection (stdio) or per request (stateless HTTP), with every generated tool
// registered in a stable order. Each tool's input and output validators are compiled once per process, on the
// tool's first call: Ajv compiling every schema at start-up was most of a large server's cold start (and per request
// it would cost milliseconds on every call), while `tools/list` only needs the JSON Schemas themselves.

import { fromJsonSchema, isInputRequiredResult, McpServer } from '@modelcontextprotocol/server';
import type { Icon, JsonSchemaType, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { api } from '../api.js';
import { registerCustomTools } from '../custom/tools.js';
import { iconsByTool, serverIcons, toolIcons } from '../icons.js';
import { tools } from '../tools/index.js';
import { argumentBoundsProblem } from './argument-bounds.js';
import { callTool, checkCall } from './call-tool.js';
import { checkedInput } from './check-arguments.js';
import { confirmBeforeSending } from './confirmation.js';
import { conformOutput } from './output.js';
import { type ConcurrencyLimiter, RateLimiter } from './rate-limit.js';
import { errorText } from './results.js';
import type { Settings } from './settings.js';
import type { ConfirmCall, ServedTool, ToolDefinition } from './types.js';
import { perUserTool } from './per-user-tools.js';
import { registerResultLinks } from './read-result-link.js';
import { OwnPropertiesValidator, withoutFormats, withoutPrototypes } from './validate-input.js';

const validator = new OwnPropertiesValidator();

type LazySchema<T> = { schema: StandardSchemaWithJSON<T, T>; compile: () => void };
type ValidationResult = { readonly value: unknown } | { readonly issues: ReadonlyArray<{ readonly message: string }> };

/**
 * `fromJsonSchema` with the prototype-free validator, its Ajv compilation deferred to the first validation. Tool
 * input (`input`) is checked without formats (the argument checks own them), as its action's rules see it (a value
 * that sends the declared value's bytes passes: `checked`), and a refusal is explained in their words (`explain`)
 * instead of Ajv's; `tools/list` still shows the schema as it is, and the handler gets the arguments as given.
 */
function lazySchema<T>(
  jsonSchema: JsonSchemaType,
  input?: {
    explain: (data: unknown) => Promise<string | undefined>;
    checked: (data: Record<string, unknown>) => Record<string, unknown>;
  },
  bounded = input !== undefined,
): LazySchema<T> {
  let compiled: StandardSchemaWithJSON<T, T> | undefined;
  const checked = () => (input ? (withoutFormats(jsonSchema) as JsonSchemaType) : jsonSchema);
  const standard = () => (compiled ??= fromJsonSchema<T>(checked(), validator))['~standard'];
  const explained = async (result: ValidationResult, data: unknown): Promise<ValidationResult> => {
    if (!('issues' in result) || !result.issues || !input) return result;
    const problem = await input.explain(data);
    return problem === undefined ? result : { issues: [{ message: problem }] };
  };
  const schema = {
    '~standard': {
      version: 1,
      vendor: 'mcp',
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
      validate: (data) => {
        // Tool input: its shape is bounded before any validator walks it (argument-bounds.ts).
        const tooLarge = bounded ? argumentBoundsProblem(data) : undefined;
        if (tooLarge !== undefined) return { issues: [{ message: tooLarge }] };
        const given = input && isObject(data) ? (withoutPrototypes(data) as Record<string, unknown>) : undefined;
        const result = standard().validate(given && input ? input.checked(given) : data) as
          ValidationResult | Promise<ValidationResult>;
        const settle = (settled: ValidationResult): ValidationResult | Promise<ValidationResult> => {
          if ('issues' in settled && settled.issues) return input ? explained(settled, data) : settled;
          return given ? { value: given } : settled;
        };
        // Valid input stays synchronous; only a refusal waits for the diagnosis.
        return result instanceof Promise ? result.then(settle) : settle(result);
      },
    },
  } as StandardSchemaWithJSON<T, T>;
  return { schema, compile: () => void standard() };
}

const isObject = (value: unknown): value is object =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * What is wrong with refused input, in the words the handler would use: the input schema a model sees is the
 * tool's union of its actions, and its validator can only say which keyword failed where; the action's own checks
 * name the action, the argument, the rule and a value that keeps it.
 */
function diagnosis(tool: ToolDefinition): (data: unknown) => Promise<string | undefined> {
  return async (data) => {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
    const checked = await checkCall(tool, withoutPrototypes(data) as Record<string, unknown>);
    return checked.ok ? undefined : checked.problem;
  };
}

type Registration = {
  tool: ServedTool;
  input: LazySchema<Record<string, unknown>>;
  output: LazySchema<unknown> | undefined;
};

function registration(tool: ServedTool): Registration {
  return {
    tool,
    input: lazySchema<Record<string, unknown>>(
      tool.inputSchema as JsonSchemaType,
      'handle' in tool ? undefined : { explain: diagnosis(tool), checked: (data) => checkedInput(tool, data) },
      true,
    ),
    output:
      'outputSchema' in tool && tool.outputSchema
        ? lazySchema<unknown>(tool.outputSchema as JsonSchemaType)
        : undefined,
  };
}

// Routed tools (the static surface) or tools with their own handler (the search surface, which checks each action's
// arguments itself).
const served: ServedTool[] = tools;
const registrations = served.map(registration);

let perUserRegistrations: Registration[] | undefined;

/**
 * What the per-user upstream modes list: each routed tool's per-user view (per-user-tools.ts), without the tools
 * they offer nothing of; handled tools decide for themselves (a call tool of the search surface whose class has no
 * offered action is left out).
 */
function perUserServed(): Registration[] {
  perUserRegistrations ??= served.flatMap((tool) => {
    if ('handle' in tool) return tool.perUser === false ? [] : [registrations[served.indexOf(tool)] as Registration];
    const view = perUserTool(tool);
    if (!view) return [];
    return [view === tool ? (registrations[served.indexOf(tool)] as Registration) : registration(view)];
  });
  return perUserRegistrations;
}

/**
 * Compiles every validator now. Hosts that refuse code generation while handling a request (Cloudflare Workers
 * allow it only while the script starts) call this at module scope; Node compiles each on first use instead.
 */
export function compileValidators(): void {
  for (const { tool, input, output } of [...registrations, ...perUserServed()]) {
    input.compile();
    output?.compile();
    if ('handle' in tool) tool.compile?.();
  }
}

/** A tool's icons (src/icons.ts, embedded at generation): its own, else every tool's; none when none are given. */
function iconsOf(name: string): { icons?: Icon[] } {
  const icons = Object.hasOwn(iconsByTool, name) ? iconsByTool[name] : toolIcons;
  return icons && icons.length > 0 ? { icons } : {};
}

/** How long clients may cache `tools/list`: the list only changes when the server is regenerated and redeployed. */
const LIST_TTL_MS = 5 * 60_000;

/**
 * `limiter`: the caller's calls per minute; `calls`: the tool calls in flight across every request of the process
 * (HTTP), taken per call so that a JSON-RPC batch of the older protocol counts each of its calls.
 */
export function createServer(
  settings: Settings,
  limiter = new RateLimiter(settings.rateLimitPerMinute),
  calls?: ConcurrencyLimiter,
): McpServer {
  const server = new McpServer(
    { name: api.name, version: api.version, ...(serverIcons.length > 0 ? { icons: serverIcons } : {}) },
    {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
      cacheHints: {
        'tools/list': { ttlMs: LIST_TTL_MS, cacheScope: 'public' },
        'resources/templates/list': { ttlMs: LIST_TTL_MS, cacheScope: 'public' },
        'server/discover': { ttlMs: LIST_TTL_MS, cacheScope: 'public' },
      },
    },
  );
  const clientCapabilities = () => server.server.getClientCapabilities();
  for (const { tool, input, output } of settings.upstreamAuth ? perUserServed() : registrations) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: input.schema,
        ...(output ? { outputSchema: output.schema } : {}),
        annotations: tool.annotations,
        ...iconsOf(tool.name),
      },
      async (args, context) => {
        const wait = limiter.take();
        if (wait !== undefined)
          return errorText(
            `Too many tool calls: this server allows ${settings.rateLimitPerMinute} per minute. Wait ${wait} seconds and call again.`,
          );
        const signal = context.mcpReq.signal;
        if (calls && !(await calls.enter(signal)))
          return errorText('The server is busy with other calls: call again in a few seconds.');
        try {
          // A destructive action is confirmed with the user first, or refused, or sent (confirmation.ts).
          const confirm: ConfirmCall = (routed, input) =>
            confirmBeforeSending(routed, input, context, settings, clientCapabilities);
          const confirmation = 'handle' in tool ? undefined : await confirm(tool, args);
          if (confirmation) return confirmation;
          const result =
            'handle' in tool
              ? await tool.handle(args, settings, signal, confirm)
              : await callTool(tool, args, settings, signal);
          if (isInputRequiredResult(result)) return result;
          return output ? conformOutput(result, output.schema) : result;
        } finally {
          calls?.leave();
        }
      },
    );
  }
  registerResultLinks(server, settings, limiter);
  registerCustomTools(server, settings);
  return server;
}
