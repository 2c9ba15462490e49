import type { JsonObject, JsonValue } from '../kernel/json.js';
import { NODE_ENGINE } from '../kernel/version.js';
import type { ToolModel, ToolPlan } from '../plan/tool-plan.js';
import { RESPONSE_FORMAT } from '../plan/describe/concise-view.js';
import { OPERATION_STATUS } from '../plan/describe/operation-status.js';
import type { SearchSurface } from '../search/search-plan.js';
import { bundleManifest } from './bundle-manifest.js';
import { clientSetups } from './client-setups.js';
import type { ConfirmDefaults } from './confirm-defaults.js';
import { promptedVariables } from './credential-choices.js';
import { credentialKindLabel, credentialView } from './credential-view.js';
import { serverVersion } from './server-version.js';
import { compareFiles, type EmittedFile } from './file-set.js';
import { finishFile } from './format.js';
import { iconsSource } from './icons-source.js';
import type { IconSet } from '../load/read-icons.js';
import { toolFileName } from './identifiers.js';
import { Compact, printJsonDocument, type PrintValue } from './print/print-value.js';
import { apiSource, GENERATED_HEADER, routedToolsSource, schemasSource, toolSource, toolsIndexSource } from './source-files.js';
import { SEARCH_RUNTIME_MODULES, searchSources } from './search-files.js';
import { readTemplate, renderTemplate } from './templates.js';
import { ACTION_CASES_FILE, actionCasesOf, actionCasesText, otherTestCases } from './test-cases.js';
import { perUserView, userAuthView } from './user-auth-view.js';

/** Static runtime modules copied into every project, in `templates/runtime/`. */
export const RUNTIME_MODULES = [
  'arguments/action-routes.ts',
  'arguments/argument-bounds.ts',
  'arguments/argument-errors.ts',
  'arguments/check-arguments.ts',
  'arguments/compile-arguments.ts',
  'arguments/declared-values.ts',
  'arguments/formats.ts',
  'arguments/schema-nodes.ts',
  'arguments/validate-input.ts',
  'calls/call-tool.ts',
  'calls/checked-call.ts',
  'calls/confirmation-text.ts',
  'calls/confirmation.ts',
  'calls/handled-tool.ts',
  'calls/operation-handles.ts',
  'calls/operation-status.ts',
  'calls/per-user-tools.ts',
  'calls/read-result-link.ts',
  'config/confirmation-settings.ts',
  'config/env-file.ts',
  'config/placeholders.ts',
  'config/sealing-keys.ts',
  'config/settings.ts',
  'config/state-keys.ts',
  'config/upstream-auth.ts',
  'core/define-tool.ts',
  'core/errors.ts',
  'core/log.ts',
  'core/rate-limit.ts',
  'core/redact.ts',
  'core/types.ts',
  'credentials/auth.ts',
  'credentials/callers.ts',
  'credentials/mcp-auth.ts',
  'requests/body.ts',
  'requests/files.ts',
  'requests/http.ts',
  'requests/request.ts',
  'requests/serialize.ts',
  'results/concise.ts',
  'results/output.ts',
  'results/result-link.ts',
  'results/results.ts',
  'results/upstream-errors.ts',
  'serving/client-address.ts',
  'serving/serve-http.ts',
  'serving/serve-stdio.ts',
  'serving/server.ts',
];

/**
 * The per-user upstream modes (`oauth`, `token-exchange`): only in projects whose description declares a scheme a
 * user's token stands for (`userAuth`), with the libraries they use. Other projects get `user-access.ts` from
 * `user-access-unavailable.ts`, which refuses those modes.
 */
export const PER_USER_RUNTIME_MODULES = [
  'serving/user-access.ts',
  'sign-in/oauth-clients.ts',
  'sign-in/oauth-http.ts',
  'sign-in/oauth-pages.ts',
  'sign-in/oauth-server.ts',
  'sign-in/oauth-upstream.ts',
  'sign-in/sealed.ts',
  'sign-in/store.ts',
  'sign-in/token-exchange.ts',
  'sign-in/upstream-token-endpoint.ts',
];

/** Versions the generated project depends on: the ones this generator is tested with. */
export const PROJECT_DEPENDENCIES = {
  server: '2.4.0',
  /** The argument checks' validator (the SDK bundles its own copy, without the 2020-12 class to build one on). */
  ajv: '8.20.0',
  node: '2.1.2',
  client: '2.4.0',
  /** Only on the search surface: the full-text index and its stemmer. */
  minisearch: '7.2.0',
  stemmer: '2.0.1',
  /** Only with the per-user modes: sealing (JWE), the OAuth/OpenID client, cookies, the optional shared store. */
  jose: '6.2.17',
  oauth4webapi: '3.8.8',
  cookie: '1.1.1',
  redis: '6.3.1',
  typesNode: '20.19.25',
  /** Bundles the built modules into dist/main.js (`npm run build`): the one Vite itself builds on. */
  rolldown: '1.2.19',
  typescript: '7.0.2',
  vite: '8.3.8',
  vitest: '4.1.12',
  /** Only with `--target workers`; it needs Node 22 itself. */
  wrangler: '4.164.0',
};

/** Where the generated server runs: always Node (stdio, HTTP, Docker); `workers` adds a Cloudflare Workers entry. */
export type Target = 'node' | 'workers';

export type EmitOptions = {
  /** npm package name of the generated server; defaults to `<api-slug>-mcp`. */
  packageName?: string;
  target?: Target;
  /** Serve the search surface instead of the plan's tools (which still carry the routes). */
  search?: SearchSurface;
  /** The tool name prefix, which the search surface's tools carry too. */
  prefix?: string;
  /** Tool modules printed by an earlier run (the regeneration cache); the files are the same without. */
  memo?: EmitMemo;
  /** Also the deployment files: Docker, Kubernetes, the MCP Bundle manifest. */
  deploy?: boolean;
  /** The server's and the tools' icons, embedded in `src/icons.ts`. */
  icons?: IconSet;
  /** The configuration's confirmation policies, as `src/api.ts` carries them (confirm-defaults.ts). */
  confirm?: ConfirmDefaults;
};

/** The regeneration cache's hooks: work an earlier run did from the same inputs. */
export type EmitMemo = {
  /** A tool's module, from an earlier run that printed the same tool under the same name. */
  toolSource(tool: ToolModel, fileName: string, make: () => { path: string; content: string }): { path: string; content: string };
  /** A tool's lines of ACTION_CASES_FILE, from an earlier run that wrote them for the same tool and named schemas. */
  toolCases(tool: ToolModel, make: () => string): string;
  /** A scaffold file as finished from its template: `key` is its path, its template and the view, as JSON. */
  scaffoldFile(key: string, make: () => Promise<string>): Promise<string>;
};

/**
 * Stage 4: ToolPlan → the files of a generated project, in their final (prettier) format and sorted by path. Pure
 * apart from reading this package's own templates.
 */
export async function emitProject(plan: ToolPlan, options: EmitOptions = {}): Promise<EmittedFile[]> {
  const packageName = options.packageName ?? `${plan.api.slug}-mcp`;
  const files: EmittedFile[] = [];
  const generated = (path: string, content: string) => files.push({ path, content, ownership: 'generated' });
  // Scaffold files rendered from templates are rendered and finished (JSON in prettier's layout) once every file is listed.
  const scaffold: Array<{ path: string; template: string }> = [];
  const rendered = (path: string, template: string) => scaffold.push({ path, template });

  const fileNames = uniqueFileNames(plan.tools.map((tool) => tool.name));
  const { search } = options;
  plan.tools.forEach((tool, index) => {
    const served = search ? routingOnly(tool) : tool;
    const fileName = fileNames[index] ?? toolFileName(tool.name);
    const make = () => toolSource(served, fileName);
    const { path, content } = options.memo ? options.memo.toolSource(served, fileName, make) : make();
    generated(path, content);
  });
  const toolFiles = plan.tools.map((tool, index) => ({ tool, fileName: fileNames[index] ?? toolFileName(tool.name) }));
  if (search) {
    const files = new Map(toolFiles.map(({ tool, fileName }) => [tool.name, fileName]));
    for (const file of searchSources(search, options.prefix, files)) generated(file.path, file.content);
  } else {
    generated(...pair(toolsIndexSource(toolFiles)));
  }
  generated(...pair(routedToolsSource(toolFiles, Boolean(search))));
  generated(...pair(apiSource(plan, packageName, options.confirm)));
  generated(...pair(schemasSource(plan)));
  generated(...pair(iconsSource(options.icons)));
  // Static modules are stored already formatted (a unit test keeps them so).
  const perUser = plan.api.userAuth !== undefined;
  for (const module of [...RUNTIME_MODULES, ...(search ? SEARCH_RUNTIME_MODULES : []), ...(perUser ? PER_USER_RUNTIME_MODULES : [])].sort())
    generated(`src/runtime/${module}`, withHeader(readTemplate(`runtime/${module}`)));
  if (!perUser) generated('src/runtime/serving/user-access.ts', withHeader(readTemplate('runtime/serving/user-access-unavailable.ts')));
  generated('src/main.ts', withHeader(readTemplate('main.ts')));
  const target = options.target ?? 'node';
  if (target === 'workers') {
    generated('src/worker.ts', withHeader(readTemplate('workers/worker.ts')));
    generated('src/argument-validators.d.ts', withHeader(readTemplate('workers/argument-validators.d.ts')));
    generated('scripts/argument-validators.mjs', withHeader(readTemplate('workers/argument-validators.mjs')));
  }
  files.push({ path: 'src/custom/hooks.ts', content: readTemplate('custom/hooks.ts'), ownership: 'user' });
  files.push({ path: 'src/custom/tools.ts', content: readTemplate('custom/tools.ts'), ownership: 'user' });

  const deploy = options.deploy ?? false;
  const project = projectView(plan, packageName, search, options.confirm);
  const longRunning = plan.tools.some((tool) => tool.actions.some((action) => action.longRunning));
  const view = {
    ...project,
    ...userAuthView(plan),
    perUser,
    ...perUserView(plan),
    longRunning,
    // `<PREFIX>_STATE_KEYS` signs confirmations' state and status handles: documented where either exists.
    stateKeys: longRunning || project.confirmation !== undefined,
    workers: target === 'workers',
    deploy,
  };
  rendered('package.json', 'project/package.json.hbs');
  rendered('tsconfig.json', 'project/tsconfig.json.hbs');
  rendered('README.md', 'project/README.md.hbs');
  rendered('.env.example', 'project/env.example.hbs');
  rendered('.gitignore', 'project/gitignore.hbs');
  if (deploy) {
    rendered('Dockerfile', 'project/Dockerfile.hbs');
    rendered('.dockerignore', 'project/dockerignore.hbs');
    rendered('deploy/kubernetes.yaml', 'project/deploy/kubernetes.yaml.hbs');
    rendered('.mcpbignore', 'project/mcpbignore.hbs');
    generated(
      'manifest.json',
      printJsonDocument(
        bundleManifest(plan, {
          packageName,
          packageVersion: view.packageVersion,
          description: view.description,
          ...(search ? { served: search.tools } : {}),
        }),
      ),
    );
  }
  if (target === 'workers') rendered('wrangler.toml', 'workers/wrangler.toml.hbs');
  generated('rolldown.config.mjs', withHeader(readTemplate('project/rolldown.config.mjs')));
  generated('vitest.config.ts', withHeader(readTemplate('project/vitest.config.ts')));
  generated('test/server.test.ts', readTemplate('project/test/server.test.ts'));
  // Compact: each case's arguments on one line where they fit (prettier keeps them so).
  generated('test/cases.json', printJsonDocument(new Compact(otherTestCases(plan, search) as PrintValue)));
  const casesOf = actionCasesOf(plan, search);
  const toolCases = (tool: ToolModel) => {
    const make = () => actionCasesText(casesOf(tool));
    // On the search surface a tool's cases read the search catalog too.
    return options.memo && !search ? options.memo.toolCases(tool, make) : make();
  };
  generated(ACTION_CASES_FILE, plan.tools.map(toolCases).join(''));
  const finished = await Promise.all(
    scaffold.map(async ({ path, template }): Promise<EmittedFile> => {
      const make = async () => finishFile(path, renderTemplate(template, view));
      const content = options.memo ? await options.memo.scaffoldFile(JSON.stringify([path, template, view]), make) : await make();
      return { path, content, ownership: 'generated' };
    }),
  );
  return [...files, ...finished].sort(compareFiles);
}

function pair(file: { path: string; content: string }): [string, string] {
  return [file.path, file.content];
}

/**
 * On the search surface the plan's tools are not listed: they route calls, and the catalog holds each action's own
 * schema. Their input schema keeps only what the runtime reads from it (whether `response_format` and
 * `operation_status` are taken);
 * Microsoft Graph's grouped schemas were 23 MB of modules loaded at every start for nothing.
 */
function routingOnly(tool: ToolModel): ToolModel {
  const properties = (tool.inputSchema['properties'] ?? {}) as JsonObject;
  const kept: JsonObject = {};
  for (const name of [RESPONSE_FORMAT, OPERATION_STATUS]) if (Object.hasOwn(properties, name)) kept[name] = properties[name] as JsonValue;
  return {
    ...tool,
    inputSchema: { type: 'object', ...(Object.keys(kept).length > 0 ? { properties: kept } : {}) },
    // The call tools run what the per-user modes offer; the view's text and schema are the search results' business.
    ...(tool.perUser ? { perUser: { actions: tool.perUser.actions } } : {}),
  };
}

/** The generated-file header goes first (after a shebang, which must stay on line one). */
function withHeader(source: string): string {
  const shebang = source.startsWith('#!') ? source.slice(0, source.indexOf('\n') + 1) : '';
  return `${shebang}${GENERATED_HEADER}\n${source.slice(shebang.length)}`;
}

/** File names per tool; two names that differ only in `-`/`_` or case would share a file otherwise. */
function uniqueFileNames(names: string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const base = toolFileName(name).replace(/\.ts$/, '');
    let candidate = base;
    for (let index = 2; taken.has(candidate.toLowerCase()) || candidate === 'index'; index++) candidate = `${base}-${index}`;
    taken.add(candidate.toLowerCase());
    return `${candidate}.ts`;
  });
}

function projectView(plan: ToolPlan, packageName: string, search: SearchSurface | undefined, confirm?: ConfirmDefaults) {
  const server = plan.api.servers[0];
  const packageVersion = serverVersion(plan.api.version);
  const resourceName = dnsLabel(packageName);
  const { clientEnvList, ...credentials } = credentialView(plan);
  const prompted = new Map(
    plan.api.credentials.flatMap((credential) =>
      promptedVariables([credential]).map((name, index) => [name, { credential, index }] as const),
    ),
  );
  return {
    packageName,
    packageVersion,
    nodeEngine: NODE_ENGINE,
    nodeMinimum: NODE_ENGINE.replace(/^>=\s*/, ''),
    description: `MCP server for ${plan.api.title}`.slice(0, 200),
    title: plan.api.title,
    apiTitle: plan.api.title,
    apiVersion: plan.api.version,
    envPrefix: plan.api.envPrefix,
    versions: PROJECT_DEPENDENCIES,
    resourceName,
    workerName: resourceName,
    secretName: `${resourceName}-env`.slice(0, 63),
    image: `${resourceName}:${packageVersion}`,
    allowedHosts: resourceName,
    toolCount: search ? search.tools.length : plan.tools.length,
    operationCount: plan.totals.operations,
    // Prism (the README's mock) takes minutes on descriptions this large; the README says so.
    largeApi: plan.totals.operations > 150,
    search: search ? searchView(search) : false,
    tools: plan.tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      kind: toolKind(tool.annotations),
      actionCount: tool.actions.length,
    })),
    confirmation: confirmationView(plan, confirm),
    defaultBaseUrl: server?.url ?? '(none: set the base URL)',
    serverVariables: (server?.variables ?? []).map((variable) => ({
      name: variable.name,
      value: variable.default,
      envName: variable.name.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase(),
      ...(variable.enum && variable.enum.length > 0 ? { choices: variable.enum.join(', ') } : {}),
      ...(variable.description ? { description: variable.description } : {}),
    })),
    ...credentials,
    clientEnvList,
    clientSetups: clientSetups({
      name: packageName,
      entry: `/path/to/${packageName}/dist/main.js`,
      url: 'http://127.0.0.1:3000/mcp',
      env: clientEnvList.map((name) => {
        const { credential, index } = prompted.get(name) ?? {};
        return {
          name,
          label: credential ? credentialKindLabel(credential.kind) : 'credential',
          // A user name and a client id are not secrets; everything else is.
          secret: !(index === 0 && (credential?.kind === 'httpBasic' || credential?.kind === 'oauth2ClientCredentials')),
        };
      }),
    }),
  };
}

/**
 * The tools whose actions the server confirms with the user before sending (templates/runtime/calls/confirmation.ts), by
 * the names `<PREFIX>_CONFIRM_TOOLS` takes; false when nothing the API offers is destructive.
 */
function confirmationView(plan: ToolPlan, confirm: ConfirmDefaults | undefined) {
  const tools = plan.tools.filter((tool) => tool.annotations.destructiveHint === true).map((tool) => tool.name);
  if (tools.length === 0) return false;
  const configured = Object.entries(confirm?.tools ?? {}).map(([name, policy]) => `${name}=${policy}`);
  return { tools, example: tools[0], policy: confirm?.policy ?? 'ask', configured: configured.join(',') };
}

/** The search surface for the README: its tools. */
function searchView(search: SearchSurface) {
  const callTool = new Map(search.tools.map((tool) => [tool.role, tool.name]));
  return {
    searchTool: callTool.get('search') ?? '',
    tools: search.tools.map((tool) => ({ name: tool.name, title: tool.title, kind: toolKind(tool.annotations) })),
  };
}

/** A Kubernetes object and Worker name: a DNS label (lower case, digits, dashes, at most 63 characters). */
function dnsLabel(packageName: string): string {
  const label = packageName
    .replace(/^@[^/]+\//, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 59)
    .replace(/-+$/, '');
  return label || 'mcp-server';
}

function toolKind(annotations: ToolPlan['tools'][number]['annotations']): string {
  if (annotations.readOnlyHint) return 'read-only';
  if (annotations.destructiveHint) return 'destructive';
  return annotations.idempotentHint ? 'writes (idempotent)' : 'writes';
}
