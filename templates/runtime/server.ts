// The MCP server: one McpServer per connection (stdio) or per request (stateless HTTP), with every generated tool
// registered in a stable order. Input schemas are wrapped once, at module load: Ajv compiles each schema when it is
// wrapped, so doing it per request would cost milliseconds and memory on every call.

import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import type { JsonSchemaType } from '@modelcontextprotocol/server';
import { api } from '../api.js';
import { registerCustomTools } from '../custom/tools.js';
import { tools } from '../tools/index.js';
import { callTool } from './call-tool.js';
import { RateLimiter } from './rate-limit.js';
import { errorText } from './results.js';
import type { Settings } from './settings.js';
import { OwnPropertiesValidator } from './validate-input.js';

const validator = new OwnPropertiesValidator();
const registrations = tools.map((tool) => ({
  tool,
  input: fromJsonSchema<Record<string, unknown>>(tool.inputSchema as JsonSchemaType, validator),
}));

/**
 * How long clients may cache `tools/list`: the list only changes when the server is regenerated and redeployed. It is
 * `public` (shareable by intermediaries) because it is the same for every caller: bearer-token protection, when on,
 * decides who may call, never which tools are listed.
 */
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
  for (const { tool, input } of registrations) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: input, annotations: tool.annotations },
      async (args, context) => {
        const wait = limiter.take();
        if (wait !== undefined)
          return errorText(
            `Too many tool calls: this server allows ${settings.rateLimitPerMinute} per minute. Wait ${wait} seconds and call again.`,
          );
        return callTool(tool, args, settings, context.mcpReq.signal);
      },
    );
  }
  registerCustomTools(server, settings);
  return server;
}
