// Types of the search surface's generated data (src/search/). regenerate instead of editing.

import type { ToolAnnotations, ToolDefinition } from '../core/types.js';

export type Intent = 'read' | 'write' | 'delete';

/**
 * One action the search surface reaches, under its id (`tool.action`, the tool name alone for a single-action tool;
 * stable across regenerations): what a search shows of it, and the routed tool that calls it.
 */
export type CatalogEntry = {
  tool: ToolDefinition;
  /** The action's name inside `tool`; empty for a single-action tool. */
  action: string;
  intent: Intent;
  summary: string;
  method: string;
  path: string;
  /** The arguments this action takes, as JSON text; calls are validated against it before anything is sent. */
  inputSchema: string;
};

/** An action's input schema, parsed. */
export type InputSchema = { type: 'object'; properties?: Record<string, unknown>; [keyword: string]: unknown };

/** The surface's tools as `tools/list` shows them, and what each does. */
export type SurfaceDefinition = {
  names: { search: string } & Partial<Record<Intent, string>>;
  tools: Array<{
    role: 'search' | Intent;
    name: string;
    title: string;
    description: string;
    annotations: ToolAnnotations;
    inputSchema: { type: 'object'; [keyword: string]: unknown };
  }>;
};
