// Your own tools: this file belongs to you. openapi-to-mcp creates it once and never overwrites it.
//
// Register extra tools next to the generated ones, for example a workflow that calls several actions:
//
//   server.registerTool('hello', { description: 'Says hello.', inputSchema: fromJsonSchema({ type: 'object' }) },
//     async () => ({ content: [{ type: 'text', text: 'Hello!' }] }));

import type { McpServer } from '@modelcontextprotocol/server';
import type { Settings } from '../runtime/config/settings.js';

export function registerCustomTools(_server: McpServer, _settings: Settings): void {}
