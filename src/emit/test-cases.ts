import type { JsonObject, JsonValue } from '../kernel/json.js';
import type { ActionModel, ArgumentRoute, CredentialModel, ToolModel, ToolPlan } from '../plan/tool-plan.js';
import { baseMediaType } from '../kernel/media-types.js';
import type { CatalogAction, SearchSurface } from '../search/search-plan.js';
import { SEARCH_LIMIT } from '../search/search-tools.js';
import { findBreach, type BreachKind } from './breach-cases.js';
import { sampleValue } from './sample-values.js';

/**
 * What the API must receive for one action: method and path, and the names of the query keys (a trailing `[`
 * means "a key starting with"), headers, cookies and body fields the arguments fill (each left out when none).
 *
 * On the static surface `arguments` leave out the action selector: the generated test adds `action` for an action
 * with a name (a multi-action tool), as a client calls it. Written into every case it was 50 KB of GitHub's cases.
 */
export type ActionCase = {
  tool: string;
  action: string;
  arguments: Record<string, JsonValue>;
  method: string;
  path: string;
  query?: string[];
  headers?: string[];
  cookies?: string[];
  body?: { contentType: string; fields: string[] };
};
export type CredentialCase = {
  tool: string;
  action: string;
  arguments: Record<string, JsonValue>;
  env: Record<string, string>;
  /** Names the API's 401 answer must point the user at. */
  hint: string[];
  in: string;
  name: string;
  expect: string;
};
/** A call with x-mcp-header properties: the `Mcp-Param-*` headers a conforming client sends for its arguments. */
export type HeaderCase = { tool: string; action: string; arguments: Record<string, JsonValue>; headers: Record<string, string> };
/** A search for an action's own summary, which must list the action. */
export type SearchCase = { query: string; limit: number; action: string };
export type TestCases = {
  envPrefix: string;
  /**
   * The tools `tools/list` must show, in order. The test compares the listing with the tools' definitions in
   * src/tools (what they show is there; a copy here was 275 KB for GitHub).
   */
  tools: string[];
  /** `search`: action calls go through the call tools, their arguments under `arguments`. */
  surface: 'static' | 'search';
  searchTool: string;
  actions: ActionCase[];
  credentials: CredentialCase[];
  headers: HeaderCase[];
  searches: SearchCase[];
  breaches: BreachCase[];
};

/**
 * Where the action cases go: JSON Lines, one case per line. There is one per action (GitHub: 1,223), and laid out as
 * prettier lays out JSON, each took seven to twenty lines and a quarter of the file was indentation; on one line each,
 * a changed action is a changed line. `test/cases.json` holds the rest.
 */
export const ACTION_CASES_FILE = 'test/action-cases.jsonl';

export function actionCasesText(cases: ActionCase[]): string {
  // U+2028 and U+2029 escaped, as in every emitted file: raw, editors and older JavaScript parsers take them for line ends.
  return cases
    .map(
      (entry) =>
        `${JSON.stringify(entry)
          .replace(/\u2028/g, '\\u2028')
          .replace(/\u2029/g, '\\u2029')}\n`,
    )
    .join('');
}

/** A call that breaks the description's rules for one argument: refused with `expect` in the text, nothing sent. */
export type BreachCase = { tool: string; action: string; arguments: Record<string, JsonValue>; expect: string };

/** Breach cases per project: a few, from different tools, with different rules where the description has them. */
const MAX_BREACH_CASES = 3;

/**
 * Arguments for an action: the action selector and a valid sample for every argument the action needs (`required`)
 * or takes (`all`); an optional argument without a sample is left out. Samples follow the action's full argument
 * schema where the plan gives one (with `argumentDefs`, the named schemas it references), since the server checks
 * calls against it; the tool's input schema may be leaner.
 */
export function sampleArguments(
  tool: ToolModel,
  actionName: string,
  extra: 'required' | 'all' = 'required',
  argumentDefs?: JsonObject,
): Record<string, JsonValue> | undefined {
  const action = tool.actions.find((candidate) => candidate.name === actionName);
  if (!action) return undefined;
  const args = argumentSamples(tool.inputSchema, action, extra, argumentDefs);
  return args && tool.actions.length > 1 ? { action: actionName, ...args } : args;
}

/** Samples for an action's arguments from an input schema that types them (a tool's, or the action's own). */
function argumentSamples(
  schema: JsonObject,
  action: ActionModel,
  extra: 'required' | 'all',
  argumentDefs?: JsonObject,
): Record<string, JsonValue> | undefined {
  const properties = (schema['properties'] ?? {}) as JsonObject;
  const defs = (schema['$defs'] ?? {}) as JsonObject;
  const full = argumentDefs ? fullProperties(action) : {};
  const args: Record<string, JsonValue> = {};
  const names = extra === 'all' ? action.route.arguments.map((argument) => argument.arg) : action.required;
  for (const name of names) {
    const route = action.route.arguments.find((argument) => argument.arg === name);
    const location = route?.in;
    const scalar = location === 'path' || location === 'header' || location === 'cookie';
    // A file argument takes base64 text whatever its schema says of the content ('<binary string>').
    const value =
      route && 'file' in route && route.file
        ? FILE_SAMPLE
        : Object.hasOwn(full, name)
          ? sampleFor(full[name], argumentDefs ?? {}, scalar)
          : sampleFor(properties[name], defs, scalar);
    if (value === undefined || (location === 'header' && !headerText(value))) {
      if (action.required.includes(name)) return undefined;
      continue;
    }
    Object.defineProperty(args, name, { value, enumerable: true, writable: true, configurable: true });
  }
  withoutUnmetDependencies(args, action);
  return args;
}

/**
 * Leaves out the body fields whose companions have no sample (an optional body's required fields, when no value
 * satisfies their schema): sent alone, they would break the rule that a body has its required fields.
 */
function withoutUnmetDependencies(args: Record<string, JsonValue>, action: ActionModel): void {
  const dependencies = action.argumentsSchema?.['dependentRequired'];
  if (!isPlainObject(dependencies ?? null)) return;
  // Leaving out one field may leave another without its companion: until nothing changes.
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, needs] of Object.entries(dependencies as JsonObject)) {
      if (!Object.hasOwn(args, name) || !Array.isArray(needs)) continue;
      if (!needs.some((need) => typeof need === 'string' && !Object.hasOwn(args, need))) continue;
      delete args[name];
      changed = true;
    }
  }
}

/**
 * Whether a sample can travel as a header: the server refuses line breaks, control and non-ASCII characters there
 * (a description's default may hold them), so such a sample would test a refusal, not the request.
 */
function headerText(value: JsonValue): boolean {
  return typeof value !== 'string' || /^[\x20-\x7e\t]*$/.test(value);
}

function fullProperties(action: ActionModel): JsonObject {
  const properties = action.argumentsSchema?.['properties'];
  return isPlainObject(properties ?? null) ? (properties as JsonObject) : {};
}

/** `hello` in base64: the content of sample file arguments. */
const FILE_SAMPLE = 'aGVsbG8=';

/**
 * A sample for one action's argument. A property that several actions of the tool share with different schemas is
 * their `anyOf` (Google's `account`: an object in one action's body, a string in another's path); a path, header or
 * cookie parameter takes the first variant that gives a scalar.
 */
function sampleFor(schema: JsonValue | undefined, defs: JsonObject, scalar: boolean): JsonValue | undefined {
  const variants = scalar && schema !== null && typeof schema === 'object' && !Array.isArray(schema) ? schema['anyOf'] : undefined;
  if (Array.isArray(variants)) {
    for (const variant of variants) {
      const value = sampleValue(variant, defs);
      if (value !== undefined && (value === null || typeof value !== 'object')) return value;
    }
  }
  return sampleValue(schema, defs);
}

/**
 * The data the generated test suite runs on: one case per action, one per credential the routes use; on the search
 * surface the calls go through the call tools, and every action is also searched for by its own summary.
 */
export function buildTestCases(plan: ToolPlan, search?: SearchSurface): TestCases {
  const { envPrefix, tools, surface, searchTool, ...rest } = otherTestCases(plan, search);
  return { envPrefix, tools, surface, searchTool, actions: plan.tools.flatMap(actionCasesOf(plan, search)), ...rest };
}

/**
 * The cases of one tool's actions. On the static surface they read only the tool and the plan's argument
 * definitions (the named schemas), so that a regeneration can take an unchanged tool's cases from the last run.
 */
export function actionCasesOf(plan: ToolPlan, search?: SearchSurface): (tool: ToolModel) => ActionCase[] {
  const via = search ? searchCalls(search, plan.argumentDefs as JsonObject) : undefined;
  return (tool) => {
    const actions: ActionCase[] = [];
    for (const action of tool.actions) {
      const call = via?.(tool, action, 'all');
      const args = via ? call?.arguments : sampleArguments(tool, action.name, 'all', plan.argumentDefs as JsonObject);
      if (args)
        actions.push(
          actionCase(call?.tool ?? tool.name, action, via ? args : withoutSelector(args, action.name), call?.actionArguments ?? args),
        );
    }
    return actions;
  };
}

/** The test cases besides the actions' (ACTION_CASES_FILE holds those), in the order test/cases.json lists them. */
export function otherTestCases(plan: ToolPlan, search?: SearchSurface): Omit<TestCases, 'actions'> {
  const via = search ? searchCalls(search, plan.argumentDefs as JsonObject) : undefined;
  const env: Record<string, string> = {};
  for (const credential of plan.api.credentials) Object.assign(env, dummyEnv(credential));
  const credentials: CredentialCase[] = [];
  for (const credential of plan.api.credentials) {
    const found = findAction(plan, credential.scheme, via);
    if (!found) continue;
    const placement = expectedPlacement(credential, env);
    if (placement) credentials.push({ ...found, env, hint: credential.env.slice(0, 1), ...placement });
  }
  const header = search ? undefined : headerCase(plan);
  return {
    envPrefix: plan.api.envPrefix,
    tools: (search ? search.tools : plan.tools).map((tool) => tool.name),
    surface: search ? 'search' : 'static',
    searchTool: search?.tools.find((tool) => tool.role === 'search')?.name ?? '',
    credentials,
    headers: header ? [header] : [],
    searches: search ? search.catalog.map((entry) => ({ query: entry.summary, limit: SEARCH_LIMIT.max, action: entry.id })) : [],
    // Breaches are called on the static tools; the search surface's call tools run the same checks.
    breaches: search ? [] : breachCases(plan),
  };
}

/** The first breachable action of each tool; then as many different kinds of rule as there are, up to the maximum. */
function breachCases(plan: ToolPlan): BreachCase[] {
  const defs = plan.argumentDefs as JsonObject;
  const candidates: Array<BreachCase & { kind: BreachKind }> = [];
  for (const tool of plan.tools) {
    for (const action of tool.actions) {
      if (!action.argumentsSchema) continue;
      const breach = findBreach(action.argumentsSchema, defs);
      const args = breach ? sampleArguments(tool, action.name, 'required', defs) : undefined;
      if (!breach || !args) continue;
      Object.defineProperty(args, breach.argument, { value: breach.value, enumerable: true, writable: true, configurable: true });
      candidates.push({
        tool: tool.name,
        action: action.name,
        arguments: withoutSelector(args, action.name),
        expect: breach.expect,
        kind: breach.kind,
      });
      break;
    }
  }
  const chosen: Array<BreachCase & { kind: BreachKind }> = [];
  for (const candidate of candidates)
    if (chosen.length < MAX_BREACH_CASES && !chosen.some((entry) => entry.kind === candidate.kind)) chosen.push(candidate);
  for (const candidate of candidates) if (chosen.length < MAX_BREACH_CASES && !chosen.includes(candidate)) chosen.push(candidate);
  return chosen.map(({ kind: _kind, ...entry }) => entry);
}

type SearchCall = (
  tool: ToolModel,
  action: ActionModel,
  extra: 'required' | 'all',
) => { tool: string; action: string; arguments: Record<string, JsonValue>; actionArguments: Record<string, JsonValue> } | undefined;

/** How an action is called on the search surface: its call tool, its id, and samples from its own schema. */
function searchCalls(search: SearchSurface, argumentDefs: JsonObject): SearchCall {
  const entries = new Map<string, CatalogAction>(search.catalog.map((entry) => [`${entry.tool}\u0000${entry.action}`, entry]));
  const callTools = new Map(search.tools.map((tool) => [tool.role, tool.name]));
  return (tool, action, extra) => {
    const entry = entries.get(`${tool.name}\u0000${action.name}`);
    const args = entry ? argumentSamples(entry.inputSchema, action, extra, argumentDefs) : undefined;
    if (!entry || !args) return undefined;
    return {
      tool: callTools.get(entry.intent) ?? '',
      action: action.name,
      arguments: { action: entry.id, arguments: args },
      actionArguments: args,
    };
  };
}

/** The first action that takes a marked property, with a sample value for it and the headers that go with it. */
function headerCase(plan: ToolPlan): HeaderCase | undefined {
  for (const tool of plan.tools) {
    const properties = (tool.inputSchema['properties'] ?? {}) as JsonObject;
    const defs = (tool.inputSchema['$defs'] ?? {}) as JsonObject;
    for (const decision of tool.headers.marked) {
      for (const action of tool.actions) {
        if (!action.route.arguments.some((argument) => argument.arg === decision.property)) continue;
        const args = sampleArguments(tool, action.name, 'required', plan.argumentDefs as JsonObject);
        const value =
          args?.[decision.property] ??
          sampleArguments(tool, action.name, 'all', plan.argumentDefs as JsonObject)?.[decision.property] ??
          sampleValue(properties[decision.property], defs);
        if (!args || value === undefined) continue;
        const withValue = { ...args, [decision.property]: value };
        const headers: Record<string, string> = {};
        for (const marked of tool.headers.marked) {
          const argument = withValue[marked.property];
          if (argument !== undefined && argument !== null && marked.header) headers[`Mcp-Param-${marked.header}`] = headerValue(argument);
        }
        return { tool: tool.name, action: action.name, arguments: withoutSelector(withValue, action.name), headers };
      }
    }
  }
  return undefined;
}

/**
 * SEP-2243 client encoding: integers in decimal, booleans as true/false, strings as they are when they are plain
 * printable ASCII without surrounding space (and do not look like the sentinel), else `=?base64?<UTF-8 Base64>?=`.
 */
export function headerValue(value: JsonValue): string {
  if (typeof value !== 'string') return String(value);
  const plain = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !(value.startsWith('=?base64?') && value.endsWith('?='));
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** A static tool's call arguments without the `action` selector, which the generated test adds back. */
function withoutSelector(args: Record<string, JsonValue>, action: string): Record<string, JsonValue> {
  if (action === '') return args;
  const { action: _selector, ...rest } = args;
  return rest;
}

/** `args` go to `tool`; `sent` are the action's own arguments among them (the same object on the static surface). */
function actionCase(tool: string, action: ActionModel, args: Record<string, JsonValue>, sent: Record<string, JsonValue>): ActionCase {
  const query: string[] = action.route.fixedQuery.map(([key]) => key);
  const headers: string[] = [];
  const cookies: string[] = [];
  const fields: string[] = [];
  for (const argument of action.route.arguments) {
    if (!Object.hasOwn(sent, argument.arg)) continue;
    const value = sent[argument.arg] as JsonValue;
    if (argument.in === 'query') query.push(...queryKeys(argument, value));
    else if (argument.in === 'header') headers.push(argument.name.toLowerCase());
    else if (argument.in === 'cookie') cookies.push(...cookieNames(argument, value));
    else if (argument.in === 'body') fields.push(...bodyKeys(argument, value, action.route.body?.kind));
  }
  const body = action.route.body;
  const sendsBody =
    body !== undefined &&
    (body.required || action.route.arguments.some((argument) => argument.in.startsWith('body') && Object.hasOwn(sent, argument.arg)));
  return {
    tool,
    action: action.name,
    arguments: args,
    method: action.route.method.toUpperCase(),
    path: action.route.path,
    ...(query.length > 0 ? { query } : {}),
    ...(headers.length > 0 ? { headers } : {}),
    ...(cookies.length > 0 ? { cookies } : {}),
    ...(sendsBody && body ? { body: { contentType: sentContentType(body), fields } } : {}),
  };
}

/** The route of a path, query, header or cookie parameter. */
type ParameterRoute = Extract<ArgumentRoute, { style: unknown; allowReserved: boolean }>;

const isPlainObject = (value: JsonValue): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Query keys a value produces: `name`, `name[…]` for deepObject, or an exploded form object's own keys. */
function queryKeys(argument: ParameterRoute, value: JsonValue): string[] {
  if (Array.isArray(value) && value.length === 0) return [];
  if (isPlainObject(value) && !argument.json) {
    if (Object.keys(value).length === 0) return [];
    if (argument.style === 'deepObject') return [`${argument.name}[`];
    if (argument.explode) return Object.keys(value);
  }
  return [argument.name];
}

function cookieNames(argument: ParameterRoute, value: JsonValue): string[] {
  if (isPlainObject(value) && argument.explode) return Object.keys(value);
  if (Array.isArray(value) && value.length === 0) return [];
  return [argument.name];
}

function bodyKeys(argument: Extract<ArgumentRoute, { in: 'body' }>, value: JsonValue, kind: string | undefined): string[] {
  if (kind === 'multipart' && Array.isArray(value) && value.length === 0) return [];
  if (kind === 'form') {
    if (Array.isArray(value) && value.length === 0) return [];
    if (isPlainObject(value) && argument.style === 'deepObject') return carriesValue(value) ? [`${argument.name}[`] : [];
  }
  return [argument.name];
}

/** A deepObject value sends a key only for values inside it: `{ address: {} }` (Stripe's billing) sends none. */
function carriesValue(value: JsonValue): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.values(value).some(carriesValue);
  return true;
}

/**
 * The Content-Type the server sends for a body: a media range (any type, or `image/*`) is not a type, so files go as
 * their own type (`application/octet-stream` for the base64 samples), JSON as application/json and text as text/plain.
 */
function sentContentType(body: { kind: string; mediaType: string }): string {
  if (body.kind === 'multipart') return 'multipart/form-data';
  const base = baseMediaType(body.mediaType);
  if (!base.includes('*')) return base;
  if (body.kind === 'json') return 'application/json';
  return body.kind === 'text' ? 'text/plain' : 'application/octet-stream';
}

/**
 * An action that applies this scheme when every credential is configured: the scheme is in its first security
 * alternative, and no other scheme there writes the same place (two bearer schemes would overwrite each other).
 */
function findAction(
  plan: ToolPlan,
  scheme: string,
  via: SearchCall | undefined,
): { tool: string; action: string; arguments: Record<string, JsonValue> } | undefined {
  const placeOf = (name: string) => {
    const credential = plan.api.credentials.find((entry) => entry.scheme === name);
    return credential?.kind === 'apiKey' ? `${credential.in}:${credential.name?.toLowerCase()}` : 'header:authorization';
  };
  for (const tool of plan.tools) {
    for (const action of tool.actions) {
      const first = action.route.security[0];
      if (!first || !first.some((entry) => entry.scheme === scheme)) continue;
      if (first.some((entry) => entry.scheme !== scheme && placeOf(entry.scheme) === placeOf(scheme))) continue;
      if (via) {
        const call = via(tool, action, 'required');
        if (call) return { tool: call.tool, action: call.action, arguments: call.arguments };
        continue;
      }
      const args = sampleArguments(tool, action.name, 'required', plan.argumentDefs as JsonObject);
      if (args) return { tool: tool.name, action: action.name, arguments: withoutSelector(args, action.name) };
    }
  }
  return undefined;
}

function dummyEnv(credential: CredentialModel): Record<string, string> {
  const out: Record<string, string> = {};
  credential.env.forEach((name, index) => {
    out[name] = `test-${credential.scheme.replace(/[^A-Za-z0-9]+/g, '-')}-${index}-value`;
  });
  return out;
}

function expectedPlacement(
  credential: CredentialModel,
  env: Record<string, string>,
): { in: string; name: string; expect: string } | undefined {
  const value = (index: number) => env[credential.env[index] ?? ''] ?? '';
  switch (credential.kind) {
    case 'apiKey':
      return {
        in: credential.in ?? 'header',
        name: credential.name ?? '',
        expect: credential.in === 'cookie' ? encodeURIComponent(value(0)) : `${credential.prefix ?? ''}${value(0)}`,
      };
    case 'httpBasic':
      return { in: 'header', name: 'Authorization', expect: `Basic ${Buffer.from(`${value(0)}:${value(1)}`).toString('base64')}` };
    case 'oauth2ClientCredentials':
      return { in: 'header', name: 'Authorization', expect: `Bearer ${value(2)}` };
    default:
      return { in: 'header', name: 'Authorization', expect: `Bearer ${value(0)}` };
  }
}
