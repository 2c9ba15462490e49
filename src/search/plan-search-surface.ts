import { Diagnostics } from '../diagnostics/diagnostic.js';
import type { ApiModel, OperationModel } from '../model/api-model.js';
import { buildArguments } from '../plan/arguments/build-arguments.js';
import { inputDefs } from '../plan/arguments/input-defs.js';
import type { ActionDraft, PlannedArguments } from '../plan/drafts.js';
import { cleanText } from '../plan/text/sanitize-text.js';
import type { RouteModel, ToolPlan } from '../plan/tool-plan.js';
import type { Intent } from '../surface/surface.js';
import { compareStrings } from '../plan/text/words.js';
import type { JsonObject } from '../kernel/json.js';
import { rememberText } from '../kernel/text-memo.js';
import { ActionSchemas } from './action-schemas.js';
import { jsonBytes } from './json-bytes.js';
import { scopeFamilies } from './scope-families.js';
import { ConcurrentIndex } from './build-index-concurrently.js';
import type { SearchDocument } from './search-index.js';
import { schemaWords } from './schema-words.js';
import type { CatalogAction, SearchSurface } from './search-plan.js';
import { surfaceTools } from './search-tools.js';

export type SearchSurfaceOptions = {
  /** The tool name prefix (`--prefix`, or the description's `x-mcp.prefix`). */
  prefix?: string;
};

/** Areas named in the search tool's description, and the characters they may take. */
const MAX_AREAS = 40;
const MAX_AREAS_CHARS = 400;

/**
 * The search surface of a finished plan: every action of every planned tool becomes a catalog entry (its id is
 * `tool.action`, its route stays in the tool), described to the index by its names, summary, description, path,
 * tags and arguments. The plan's own tools are not shown to the model; they still carry the routes the server calls.
 */
export async function planSearchSurface(
  plan: ToolPlan,
  model: ApiModel,
  options: SearchSurfaceOptions = {},
  /** The arguments the planner built (the same the model gives again: rebuilt when not given). */
  given?: PlannedArguments,
): Promise<SearchSurface> {
  const defs = given?.defs ?? inputDefs(model.schemas);
  const operations = new Map(model.operations.map((operation) => [operation.key, operation]));
  const catalog: CatalogAction[] = [];
  // Indexed as the catalog is made: a large catalog's index is built by a second thread meanwhile.
  const index = new ConcurrentIndex(plan.tools.reduce((sum, tool) => sum + tool.actions.length, 0));
  const schemas = new ActionSchemas(defs);
  // Drafts rebuilt from the model are the planner's; their diagnostics were reported by the plan already.
  const quiet = new Diagnostics();
  for (const tool of plan.tools) {
    for (const action of tool.actions) {
      const operation = operations.get(action.operation.key);
      if (!operation) throw new Error(`The plan's operation ${action.operation.key} is not in the model.`);
      const draft = given?.drafts.get(operation.key) ?? buildArguments(operation, defs, quiet);
      if (!routesArguments(action.route, draft)) throw new Error(`The arguments of ${action.operation.key} differ from the plan's route.`);
      const keys = draft.arguments.map((argument) => argument.key).join(',');
      const id = action.name ? `${tool.name}.${action.name}` : tool.name;
      const entry: CatalogAction = {
        id,
        tool: tool.name,
        action: action.name,
        intent: tool.intent,
        summary: action.summary,
        method: action.operation.method,
        path: action.operation.path,
        inputSchema: schemas.of(draft, action.concise !== undefined),
      };
      catalog.push(entry);
      index.add(searchDocument(entry, action.name || tool.name, operation, keys));
    }
  }
  // A worker serialises the index now; what is left here is done meanwhile.
  const indexed = index.finish(scopeFamilies(catalog));
  const planned = new Set(plan.tools.flatMap((tool) => tool.actions.map((action) => action.operation.key)));
  const counts: Record<Intent, number> = { read: 0, write: 0, delete: 0 };
  for (const entry of catalog) counts[entry.intent]++;
  const tools = surfaceTools({
    apiName: apiName(plan.api.title),
    counts,
    areas: areasOf(model.operations.filter((operation) => planned.has(operation.key))),
    ...(options.prefix ? { prefix: options.prefix } : {}),
  });
  const schemaBytes = catalog.reduce((sum, entry) => sum + jsonBytes(entry.inputSchema), 0);
  const built = await indexed;
  return {
    tools,
    tokens: tools.reduce((sum, tool) => sum + tool.tokens, 0),
    catalog,
    index: built.json,
    indexStats: { bytes: Buffer.byteLength(built.json), documents: catalog.length, terms: built.terms },
    schemaBytes,
  };
}

/** Whether the route takes the draft's arguments, in its order. */
function routesArguments(route: RouteModel, draft: ActionDraft): boolean {
  const { arguments: routed } = route;
  if (routed.length !== draft.arguments.length) return false;
  for (let index = 0; index < routed.length; index++) if (routed[index]?.arg !== draft.arguments[index]?.key) return false;
  return true;
}

/** What the index knows of an action: text per field (see FIELD_BOOSTS for what each is worth). */
function searchDocument(
  entry: CatalogAction,
  /** The action's own name: a grouped tool's name holds words of its other actions. */
  name: string,
  operation: OperationModel,
  argumentKeys: string,
): SearchDocument {
  const ownSummary = cleanText(operation.summary, 200).text;
  const { lead, rest } = leadOf(cleanText(operation.description, 600).text);
  const segments = literalSegments(operation.path);
  return {
    id: entry.id,
    summary: ownSummary && ownSummary !== entry.summary ? `${entry.summary} ${ownSummary}` : entry.summary,
    name: [name, operation.derivedId ? '' : operation.id, ...segments, ...operation.tags].join(' '),
    resource: segments.at(-1) ?? '',
    params: argumentKeys,
    fields: fieldWords(entry.inputSchema),
    verb: verbOf(operation, entry.intent),
    lead,
    description: rest,
  };
}

/** A description's first sentence and the rest, remembered: one operation at many scopes repeats its description. */
const leadOf = rememberText((description: string) => {
  const [lead = '', ...rest] = description.split(/(?<=[.!?])\s+/);
  return { lead, rest: rest.join(' ') };
});

/** The words of an input schema's fields, once per schema (actions alike share one, see action-schemas.ts). */
function fieldWords(schema: JsonObject): string {
  let words = fieldWordsOf.get(schema);
  if (words === undefined) fieldWordsOf.set(schema, (words = schemaWords(schema).join(' ')));
  return words;
}

const fieldWordsOf = new WeakMap<JsonObject, string>();

/** The path's literal segments: `/repos/{owner}/{repo}/issues?state=open` → repos, issues. */
function literalSegments(path: string): string[] {
  return (path.split(/[?#]/)[0] ?? '').split('/').filter((segment) => segment && !segment.includes('{'));
}

/**
 * The verb a person would use for what the action does; the term table adds its synonyms. A read of a path that
 * ends in a literal segment (`/repos/{owner}/{repo}/issues`) usually lists what it names; one that ends in a
 * parameter (`…/issues/{issue_number}`) gets one thing.
 */
function verbOf(operation: OperationModel, intent: Intent): string {
  if (intent === 'delete') return 'delete';
  if (intent === 'read') {
    if (operation.method !== 'get') return 'search';
    return /\}$/.test(operation.path.split(/[?#]/)[0] ?? '') ? 'get' : 'get list';
  }
  return operation.method === 'post' ? 'create' : 'update';
}

/** The API's name as descriptions use it: the title before any commentary (`Swagger Petstore - OpenAPI 3.0`). */
function apiName(title: string): string {
  const head = title.split(/\s+[-–—|:]\s+|\s*\(/)[0] ?? title;
  return cleanText(head, 60).text || cleanText(title, 60).text || 'API';
}

/**
 * What the API covers, for the search tool's description: its tags when they name several areas, else the first
 * literal path segments; most operations first, as many as fit.
 */
function areasOf(operations: OperationModel[]): string[] {
  const count = (keys: (operation: OperationModel) => string[]) => {
    const counts = new Map<string, number>();
    for (const operation of operations) for (const key of keys(operation)) counts.set(key, (counts.get(key) ?? 0) + 1);
    return counts;
  };
  let counts = count((operation) => [...new Set(operation.tags.map((tag) => cleanText(tag, 40).text).filter(Boolean))]);
  if (counts.size < 2) counts = count((operation) => literalSegments(operation.path).slice(0, 1));
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0])).map(([area]) => area);
  const areas: string[] = [];
  let length = 0;
  for (const area of ranked.slice(0, MAX_AREAS)) {
    if (length + area.length + 2 > MAX_AREAS_CHARS) break;
    areas.push(area);
    length += area.length + 2;
  }
  return areas;
}
