// The tools the server serves besides the routed ones: the search surface's, which have their own handler. Kept apart
// from core/types.ts because a handler takes the settings, which the description's types must not depend on.

import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Settings } from '../config/settings.js';
import type { ToolAnnotations, ToolDefinition } from '../core/types.js';

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
  handle: (args: Record<string, unknown>, settings: Settings, signal?: AbortSignal) => Promise<CallToolResult>;
  /** Compiles the validators the handler uses later (see compileValidators in server.ts). */
  compile?: () => void;
  /** False: not listed in the per-user upstream modes (a call tool whose class they offer no action of). */
  perUser?: false;
};

/** What `tools/list` shows: routed tools (the static surface) or handled ones (the search surface). */
export type ServedTool = ToolDefinition | HandledTool;
