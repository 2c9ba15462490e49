/**
 * The search surface's plan: a fixed handful of tools for the whole API (find an action, then call it with the tool
 * of its safety class), the catalog of every action they reach, and the full-text index over that catalog. Built
 * from a finished ToolPlan, so actions keep their names, routes, credentials and runtime. Types only.
 */

import type { HttpMethod, JsonObject } from '../model/api-model.js';
import type { ToolAnnotations } from '../plan/tool-plan.js';
import type { Intent } from '../surface/surface.js';

/** What `tools/list` serves: `static` (the planner's grouped tools) or `search` (this surface). */
export type SurfaceMode = 'static' | 'search';

/** What the user asked for: `auto` serves `search` when the static plan misses its budget. */
export type SurfaceRequest = SurfaceMode | 'auto';

/** One of the surface's tools as `tools/list` shows it, with its o200k token count. */
export type SurfaceTool = {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  inputSchema: JsonObject;
  tokens: number;
  /** `search` finds actions; the others call the actions of one safety class. */
  role: 'search' | Intent;
};

/** One action reachable through the surface: what a search returns about it, and how the server routes a call. */
export type CatalogAction = {
  /** `tool.action` of the static plan (the tool name alone for a single-action tool): stable across regenerations. */
  id: string;
  tool: string;
  action: string;
  intent: Intent;
  summary: string;
  method: HttpMethod;
  path: string;
  /** The arguments this action alone takes, with their descriptions and types; calls are validated against it. */
  inputSchema: JsonObject;
};

export type SearchIndexStats = {
  /** Size of the serialised index (UTF-8 bytes), as written into the generated project. */
  bytes: number;
  documents: number;
  terms: number;
};

export type SearchSurface = {
  tools: SurfaceTool[];
  /** o200k tokens of the whole `tools/list`. */
  tokens: number;
  /** Every action, in the plan's order (tools by name, then actions by name). */
  catalog: CatalogAction[];
  /** The serialised index the server loads at start (see search-index.ts for its shape). */
  index: string;
  indexStats: SearchIndexStats;
  /** UTF-8 bytes of the catalog's input schemas, the other large part of the generated project. */
  schemaBytes: number;
};

/** Which surface a plan is served with, and why (for `auto`). */
export type SurfaceChoice = {
  requested: SurfaceRequest;
  mode: SurfaceMode;
  /** Present when `auto` decided. */
  reason?: string;
  search?: SearchSurface;
};
