// The MCP server: one McpServer per connection (stdio) or per request (stateless HTTP), with every generated tool
// registered in a stable order. Each tool's input and output validators are compiled once per process, on the
// tool's first call: Ajv compiling every schema at start-up was most of a large server's cold start (and per request
// it would cost milliseconds on every call), while `tools/list` only needs the JSON Schemas themselves.

import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import type { JsonSchemaType, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { api } from '../api.js';
import { registerCustomTools } from '../custom/tools.js';
import { tools } from '../tools/index.js';
import { callTool } from './call-tool.js';
import { conformOutput } from './output.js';
import { RateLimiter } from './rate-limit.js';
import { errorText } from './results.js';
import type { Settings } from './settings.js';
import type { ServedTool } from './types.js';
import { OwnPropertiesValidator } from './validate-input.js';

const validator = new OwnPropertiesValidator();

type LazySchema<T> = { schema: StandardSchemaWithJSON<T, T>; compile: () => void };

/** `fromJsonSchema` with the prototype-free validator, its Ajv compilation deferred to the first validation. */
function lazySchema<T>(jsonSchema: JsonSchemaType): LazySchema<T> {
  let compiled: StandardSchemaWithJSON<T, T> | undefined;
  const standard = () => (compiled ??= fromJsonSchema<T>(jsonSchema, validator))['~standard'];
  const schema = {
    '~standard': {
      version: 1,
      vendor: 'mcp',
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
      validate: (data) => standard().validate(data),
    },
  } as StandardSchemaWithJSON<T, T>;
  return { schema, compile: () => void standard() };
}

// Routed tools (the static surface) or tools with their own handler (the search surface).
const served: ServedTool[] = tools;
const registrations = served.map((tool) => ({
  tool,
  input: lazySchema<Record<string, unknown>>(tool.inputSchema as JsonSchemaType),
  output:
    'outputSchema' in tool && tool.outputSchema ? lazySchema<unknown>(tool.outputSchema as JsonSchemaType) : undefined,
}));

/**
 * Compiles every validator now. Hosts that refuse code generation while handling a request (Cloudflare Workers
 * allow it only while the script starts) call this at module scope; Node compiles each on first use instead.
 */
export function compileValidators(): void {
  for (const { tool, input, output } of registrations) {
    input.compile();
    output?.compile();
    if ('handle' in tool) tool.compile?.();
  }
}

/** How long clients may cache `tools/list`: the list only changes when the server is regenerated and redeployed. */
const LIST_TTL_MS = 5 * 60_000;

export function createServer(settings: Settings, limiter = new RateLimiter(settings.rateLimitPerMinute)): McpServer {
  const server = new McpServer(
    { name: api.name, version: api.version },
    {
      capabilities: { tools: { listChanged: false } },
      cacheHints: {
        'tools/list': { ttlMs: LIST_TTL_MS, cacheScope: 'public' },
        'server/discover': { ttlMs: LIST_TTL_MS, cacheScope: 'public' },
      },
    },
  );
  for (const { tool, input, output } of registrations) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: input.schema,
        ...(output ? { outputSchema: output.schema } : {}),
        annotations: tool.annotations,
      },
      async (args, context) => {
        const wait = limiter.take();
        if (wait !== undefined)
          return errorText(
            `Too many tool calls: this server allows ${settings.rateLimitPerMinute} per minute. Wait ${wait} seconds and call again.`,
          );
        const signal = context.mcpReq.signal;
        const result =
          'handle' in tool ? await tool.handle(args, settings, signal) : await callTool(tool, args, settings, signal);
        return output ? conformOutput(result, output.schema) : result;
      },
    );
  }
  registerCustomTools(server, settings);
  return server;
}
