import path from 'node:path';
import type { Argv } from 'yargs';
import { CONFIG_DEFAULTS, type ConfiguredCredential, type UserConfig } from '../config/config-schema.js';

/**
 * Options shared by `generate`, `plan` and `diff`: where the description comes from and how tools are planned.
 * None has a yargs default: an option not given on the command line must not hide the configuration file's value,
 * so defaults are applied after the merge (and only described here).
 */
export function withPlanOptions<T>(yargs: Argv<T>) {
  return yargs
    .option('config', {
      alias: 'c',
      type: 'string',
      describe: 'Configuration file',
      defaultDescription: 'openapi-to-mcp.config.{json,yaml} in the working directory',
    })
    .option('prefix', { type: 'string', describe: 'Namespace for tool names (github → github_issues_read)' })
    .option('strategy', {
      choices: ['auto', 'per-operation', 'by-tag'] as const,
      describe: 'How operations are grouped into tools',
      defaultDescription: CONFIG_DEFAULTS.strategy,
    })
    .option('max-tools', { type: 'number', describe: 'Most tools to generate', defaultDescription: String(CONFIG_DEFAULTS.maxTools) })
    .option('max-name-length', {
      type: 'number',
      describe: 'Longest tool name, prefix included (16-64; room for a host prefix such as mcp__server__)',
      defaultDescription: String(CONFIG_DEFAULTS.maxNameLength),
    })
    .option('max-tool-tokens', {
      type: 'number',
      describe: 'Token budget of one tool in tools/list',
      defaultDescription: String(CONFIG_DEFAULTS.maxToolTokens),
    })
    .option('tokens-per-operation', {
      type: 'number',
      describe: 'Token budget of the whole tool list per operation (never below 10,000)',
      defaultDescription: String(CONFIG_DEFAULTS.tokensPerOperation),
    })
    .option('max-total-tokens', {
      type: 'number',
      describe: 'Most tokens the whole tool list may take, however many operations',
      defaultDescription: String(CONFIG_DEFAULTS.maxTotalTokens),
    })
    .option('include-tag', { type: 'string', array: true, describe: 'Only operations with one of these tags' })
    .option('exclude-tag', { type: 'string', array: true, describe: 'Leave out operations with one of these tags' })
    .option('include-operation', { type: 'string', array: true, describe: 'Only these operationIds' })
    .option('exclude-operation', { type: 'string', array: true, describe: 'Leave out these operationIds' })
    .option('include-path', { type: 'string', array: true, describe: 'Only paths matching these globs (* within a segment, ** across)' })
    .option('exclude-path', { type: 'string', array: true, describe: 'Leave out paths matching these globs' })
    .option('include-method', { type: 'string', array: true, describe: 'Only these HTTP methods' })
    .option('exclude-method', { type: 'string', array: true, describe: 'Leave out these HTTP methods' })
    .option('exclude-deprecated', { type: 'boolean', describe: 'Leave out deprecated operations' })
    .option('surface', {
      choices: ['static', 'search', 'auto'] as const,
      describe:
        'What tools/list serves: static (grouped tools), search (a few tools that find and call every action), auto (search when the static plan misses its budget)',
      defaultDescription: CONFIG_DEFAULTS.surface,
    })
    .option('output-schema', {
      choices: ['none', 'loose'] as const,
      describe:
        'Declare an outputSchema on tools: none (default), or loose (the shape of the success responses, every field optional and nullable, so drifting APIs still conform)',
    })
    .option('env-prefix', { type: 'string', describe: 'Prefix of the environment variables the server reads' })
    .option('name', {
      type: 'string',
      describe:
        "The API's name for the project and its variables (default from the title, else the server host, logo, contact or file name)",
    })
    .option('credential', {
      type: 'string',
      array: true,
      describe:
        'Add a credential the description does not declare: bearer=VAR, basic=VAR (VAR_USERNAME, VAR_PASSWORD), header:NAME=VAR, query:NAME=VAR or cookie:NAME=VAR; @opId,… limits it to some operations',
    })
    .option('headers', {
      type: 'boolean',
      describe: 'Mark routing parameters with x-mcp-header (--no-headers: mark none; configured additions still apply)',
      defaultDescription: String(CONFIG_DEFAULTS.headersEnabled),
    })
    .option('ref-root', { type: 'string', describe: "Folder that file $refs may not leave (default: the description's folder)" })
    .option('allow-remote-refs', { type: 'boolean', describe: 'Follow $refs to http(s) URLs' })
    .option('max-input-mb', {
      type: 'number',
      describe: 'Largest description accepted, in MB',
      defaultDescription: String(CONFIG_DEFAULTS.maxInputMb),
    })
    .option('validate', {
      type: 'boolean',
      describe: 'Check the description against the OpenAPI schema (warnings)',
      defaultDescription: String(CONFIG_DEFAULTS.validate),
    })
    .option('json', { type: 'boolean', default: false, describe: 'Print results and diagnostics as JSON on stdout' })
    .option('quiet', { alias: 'q', type: 'boolean', describe: 'Print only errors (no progress, no summary)' })
    .option('verbose', {
      type: 'boolean',
      describe: 'Also print informational diagnostics, and each repeat of a diagnostic (by default once, with a count)',
    });
}

/** The flags of withPlanOptions as yargs hands them over (camel-cased), plus generate's own. */
export type ParsedFlags = {
  spec?: string;
  config?: string;
  prefix?: string;
  strategy?: UserConfig['strategy'];
  maxTools?: number;
  maxNameLength?: number;
  maxToolTokens?: number;
  tokensPerOperation?: number;
  maxTotalTokens?: number;
  includeTag?: string[];
  excludeTag?: string[];
  includeOperation?: string[];
  excludeOperation?: string[];
  includePath?: string[];
  excludePath?: string[];
  includeMethod?: string[];
  excludeMethod?: string[];
  excludeDeprecated?: boolean;
  outputSchema?: UserConfig['outputSchema'];
  surface?: UserConfig['surface'];
  envPrefix?: string;
  name?: string;
  credential?: string[];
  headers?: boolean;
  refRoot?: string;
  allowRemoteRefs?: boolean;
  maxInputMb?: number;
  validate?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  out?: string;
  packageName?: string;
  target?: UserConfig['target'];
  deploy?: boolean;
  renameTool?: string[];
  cache?: boolean;
};

/** Configuration key path → the flag that sets it, so a bad flag value is reported under the flag's name. */
export const FLAG_OF: Record<string, string> = {
  spec: '<spec>',
  out: '--out',
  packageName: '--package-name',
  target: '--target',
  deploy: '--deploy',
  prefix: '--prefix',
  envPrefix: '--env-prefix',
  name: '--name',
  credentials: '--credential',
  strategy: '--strategy',
  maxTools: '--max-tools',
  maxNameLength: '--max-name-length',
  maxToolTokens: '--max-tool-tokens',
  tokensPerOperation: '--tokens-per-operation',
  maxTotalTokens: '--max-total-tokens',
  outputSchema: '--output-schema',
  surface: '--surface',
  'include.tags': '--include-tag',
  'exclude.tags': '--exclude-tag',
  'include.operations': '--include-operation',
  'exclude.operations': '--exclude-operation',
  'include.paths': '--include-path',
  'exclude.paths': '--exclude-path',
  'include.methods': '--include-method',
  'exclude.methods': '--exclude-method',
  'exclude.deprecated': '--exclude-deprecated',
  'headers.enabled': '--headers',
  renameTools: '--rename-tool',
  refRoot: '--ref-root',
  allowRemoteRefs: '--allow-remote-refs',
  maxInputMb: '--max-input-mb',
  validate: '--validate',
  cache: '--cache',
  quiet: '--quiet',
  verbose: '--verbose',
};

/**
 * The flags actually given, in the configuration's shape. Paths are resolved against the working directory here,
 * while a configuration file's are resolved against its own folder.
 */
export function flagsToConfig(flags: ParsedFlags, cwd: string): UserConfig {
  const config: UserConfig = {};
  const local = (value: string) => (value === '-' || /^https?:\/\//i.test(value) ? value : path.resolve(cwd, value));
  // yargs hands a lone `-` over as an empty string.
  if (flags.spec !== undefined) config.spec = flags.spec === '' ? '-' : local(flags.spec);
  if (flags.out !== undefined) config.out = local(flags.out);
  if (flags.refRoot !== undefined) config.refRoot = local(flags.refRoot);
  const copied = [
    'packageName',
    'target',
    'deploy',
    'prefix',
    'envPrefix',
    'name',
    'strategy',
    'maxTools',
    'maxNameLength',
    'maxToolTokens',
    'tokensPerOperation',
    'maxTotalTokens',
    'outputSchema',
    'surface',
    'allowRemoteRefs',
    'maxInputMb',
    'validate',
    'cache',
    'quiet',
    'verbose',
  ] as const;
  for (const key of copied) if (flags[key] !== undefined) Object.assign(config, { [key]: flags[key] });
  const include = {
    ...(flags.includeTag ? { tags: flags.includeTag } : {}),
    ...(flags.includeOperation ? { operations: flags.includeOperation } : {}),
    ...(flags.includePath ? { paths: flags.includePath } : {}),
    ...(flags.includeMethod ? { methods: flags.includeMethod } : {}),
  };
  const exclude = {
    ...(flags.excludeTag ? { tags: flags.excludeTag } : {}),
    ...(flags.excludeOperation ? { operations: flags.excludeOperation } : {}),
    ...(flags.excludePath ? { paths: flags.excludePath } : {}),
    ...(flags.excludeMethod ? { methods: flags.excludeMethod } : {}),
    ...(flags.excludeDeprecated !== undefined ? { deprecated: flags.excludeDeprecated } : {}),
  };
  if (Object.keys(include).length > 0) config.include = include;
  if (Object.keys(exclude).length > 0) config.exclude = exclude;
  if (flags.headers !== undefined) config.headers = { enabled: flags.headers };
  if (flags.renameTool) config.renameTools = parseRenames(flags.renameTool);
  if (flags.credential) config.credentials = flags.credential.map(parseCredential);
  return config;
}

/** Thrown for a malformed flag value; the CLI prints it as a usage error (exit 2). */
export class FlagError extends Error {}

function parseRenames(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const [from, to] = pair.split('=');
    if (!from || !to) throw new FlagError(`--rename-tool takes old_name=new_name, not ${JSON.stringify(pair)}.`);
    out[from] = to;
  }
  return out;
}

/** `bearer=GITHUB_TOKEN`, `basic=ACME`, `header:X-Api-Key=ACME_KEY@getThing,listThings` → a configured credential. */
function parseCredential(value: string): ConfiguredCredential {
  const match = /^(bearer|basic|header|query|cookie)(?::([^=]+))?=([A-Za-z_][A-Za-z0-9_]*)(?:@(.+))?$/.exec(value.trim());
  const kind = match?.[1];
  const placed = kind === 'header' || kind === 'query' || kind === 'cookie';
  if (!match || placed !== (match[2] !== undefined))
    throw new FlagError(
      `--credential takes bearer=VAR, basic=VAR, header:NAME=VAR, query:NAME=VAR or cookie:NAME=VAR (then @operationId,… for some operations only), not ${JSON.stringify(value)}.`,
    );
  const operations = match[4] ? { operations: match[4].split(',').filter(Boolean) } : {};
  if (placed) return { type: 'apiKey', in: kind, name: match[2] as string, env: match[3] as string, ...operations };
  return { type: kind as 'bearer' | 'basic', env: match[3] as string, ...operations };
}
