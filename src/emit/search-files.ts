import type { SearchSurface } from '../search/search-plan.js';
import { surfaceToolNames } from '../search/search-tools.js';
import { toolConstName } from './identifiers.js';
import { Code, printConst, type PrintValue } from './print/print-value.js';
import { moduleText, namedImport, typeImport } from './source-files.js';

/** Runtime modules only a search-surface project has: the index, the two handlers, their term processing and types. */
export const SEARCH_RUNTIME_MODULES = [
  'search/action-search.ts',
  'search/call-action.ts',
  'search/search-ranking.ts',
  'search/search-surface.ts',
  'search/search-terms.ts',
  'search/search-types.ts',
];

/**
 * The generated part of a search-surface project: `src/search/surface.ts` (the tools `tools/list` shows),
 * `src/search/catalog.ts` (every action with its schema and the routed tool that calls it) and
 * `src/search/index-data.ts` (the serialised index), plus `src/tools/index.ts`, which serves the surface's tools
 * instead of the routed ones.
 */
export function searchSources(
  search: SearchSurface,
  prefix: string | undefined,
  toolFiles: Map<string, string>,
): Array<{ path: string; content: string }> {
  const names = surfaceToolNames(prefix);
  const roles = new Set(search.tools.map((tool) => tool.role));
  const surface = {
    names: {
      search: names.search,
      ...(roles.has('read') ? { read: names.read } : {}),
      ...(roles.has('write') ? { write: names.write } : {}),
      ...(roles.has('delete') ? { delete: names.delete } : {}),
    },
    tools: search.tools.map(({ role, name, title, description, annotations, inputSchema }) => ({
      role,
      name,
      title,
      description,
      annotations,
      inputSchema,
    })),
  };
  const usedTools = [...new Set(search.catalog.map((entry) => entry.tool))];
  // A record, not an array: TypeScript infers a union over the elements of an array literal, which for thousands
  // of actions is "too complex to represent" (TS2590).
  const catalog: Record<string, PrintValue> = {};
  for (const entry of search.catalog)
    Object.defineProperty(catalog, entry.id, {
      value: {
        tool: new Code(toolConstName(entry.tool)),
        action: entry.action,
        intent: entry.intent,
        summary: entry.summary,
        method: entry.method,
        path: entry.path,
        // JSON text, parsed when a search shows the action or a call validates against it: a JavaScript object
        // literal of Microsoft Graph's 11,422 schemas took seconds to load at every start.
        inputSchema: JSON.stringify(entry.inputSchema),
      },
      enumerable: true,
    });
  return [
    {
      path: 'src/search/surface.ts',
      content: moduleText(
        'src/search/surface.ts',
        [],
        [typeImport('../runtime/search/search-types.js', 'SurfaceDefinition')],
        [printConst('surface', 'SurfaceDefinition', surface as PrintValue)],
      ),
    },
    {
      path: 'src/search/catalog.ts',
      content: moduleText(
        'src/search/catalog.ts',
        [],
        [
          typeImport('../runtime/search/search-types.js', 'CatalogEntry'),
          ...usedTools.map((tool) => namedImport(`../tools/${(toolFiles.get(tool) ?? '').replace(/\.ts$/, '.js')}`, toolConstName(tool))),
        ],
        [printConst('catalog', 'Record<string, CatalogEntry>', catalog)],
      ),
    },
    {
      path: 'src/search/index-data.ts',
      content: moduleText(
        'src/search/index-data.ts',
        ['The full-text index over the catalog (MiniSearch), as JSON: the server parses it once at start.'],
        [],
        [printConst('searchIndexJson', 'string', search.index)],
      ),
    },
    {
      path: 'src/tools/index.ts',
      content: moduleText(
        'src/tools/index.ts',
        ['The search surface: these tools find and call every action of the tools in this folder.'],
        [],
        ["export { tools } from '../runtime/search/search-surface.js';"],
      ),
    },
  ];
}
