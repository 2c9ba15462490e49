// The tools the server serves besides the routed ones: the search surface's, which have their own handler, and the
// confirmation a handler asks for before a destructive call. Kept apart from core/types.ts because a handler takes
// the settings, which the description's types must not depend on.

import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
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
