import type { Argv } from 'yargs';
import type { HttpMethod } from '../model/api-model.js';
import type { Strategy } from '../plan/group-operations.js';
import type { PlanRunOptions } from '../pipeline.js';

/** Options shared by `generate` and `plan`: where the description comes from and how tools are planned. */
export function withPlanOptions<T>(yargs: Argv<T>) {
  return yargs
    .positional('spec', { type: 'string', describe: 'OpenAPI description: a file, - for stdin, or an http(s) URL', demandOption: true })
    .option('prefix', { type: 'string', describe: 'Namespace for tool names (github → github_issues_read)' })
    .option('strategy', {
      choices: ['auto', 'per-operation', 'by-tag'] as const,
      default: 'auto' as const,
      describe: 'How operations are grouped into tools',
    })
    .option('max-tools', { type: 'number', default: 64, describe: 'Most tools to generate' })
    .option('max-tool-tokens', { type: 'number', default: 3000, describe: 'Token budget of one tool in tools/list' })
    .option('tokens-per-operation', {
      type: 'number',
      default: 36,
      describe: 'Token budget of the whole tool list per operation (never below 4,000)',
    })
    .option('include-tag', { type: 'string', array: true, describe: 'Only operations with one of these tags' })
    .option('exclude-tag', { type: 'string', array: true, describe: 'Leave out operations with one of these tags' })
    .option('include-operation', { type: 'string', array: true, describe: 'Only these operationIds' })
    .option('exclude-operation', { type: 'string', array: true, describe: 'Leave out these operationIds' })
    .option('include-path', { type: 'string', array: true, describe: 'Only paths matching these globs (* within a segment, ** across)' })
    .option('exclude-path', { type: 'string', array: true, describe: 'Leave out paths matching these globs' })
    .option('include-method', { type: 'string', array: true, describe: 'Only these HTTP methods' })
    .option('exclude-method', { type: 'string', array: true, describe: 'Leave out these HTTP methods' })
    .option('exclude-deprecated', { type: 'boolean', default: false, describe: 'Leave out deprecated operations' })
    .option('env-prefix', { type: 'string', describe: 'Prefix of the environment variables the server reads' })
    .option('headers', {
      type: 'boolean',
      default: true,
      describe: 'Mark routing parameters with x-mcp-header (--no-headers: mark none; configured additions still apply)',
    })
    .option('ref-root', { type: 'string', describe: "Folder that file $refs may not leave (default: the description's folder)" })
    .option('allow-remote-refs', { type: 'boolean', default: false, describe: 'Follow $refs to http(s) URLs' })
    .option('max-input-mb', { type: 'number', default: 32, describe: 'Largest description accepted, in MB' })
    .option('validate', { type: 'boolean', default: true, describe: 'Check the description against the OpenAPI schema (warnings)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print results and diagnostics as JSON' })
    .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'Print only errors' })
    .option('verbose', { type: 'boolean', default: false, describe: 'Also print informational diagnostics' });
}

type ParsedPlanOptions = {
  spec: string;
  prefix?: string;
  strategy: Strategy;
  maxTools: number;
  maxToolTokens: number;
  tokensPerOperation: number;
  includeTag?: string[];
  excludeTag?: string[];
  includeOperation?: string[];
  excludeOperation?: string[];
  includePath?: string[];
  excludePath?: string[];
  includeMethod?: string[];
  excludeMethod?: string[];
  excludeDeprecated: boolean;
  envPrefix?: string;
  headers: boolean;
  refRoot?: string;
  allowRemoteRefs: boolean;
  maxInputMb: number;
  validate: boolean;
};

const methods = (list: string[] | undefined) => list?.map((method) => method.toLowerCase() as HttpMethod);

/** Parsed flags → pipeline options. */
export function toPlanRunOptions(argv: ParsedPlanOptions): PlanRunOptions {
  return {
    // yargs hands a lone `-` over as an empty string.
    spec: argv.spec === '' ? '-' : argv.spec,
    ...(argv.refRoot ? { refRoot: argv.refRoot } : {}),
    allowRemoteRefs: argv.allowRemoteRefs,
    maxInputBytes: Math.round(argv.maxInputMb * 1024 * 1024),
    validate: argv.validate,
    strategy: argv.strategy,
    maxTools: argv.maxTools,
    budget: { maxToolTokens: argv.maxToolTokens, tokensPerOperation: argv.tokensPerOperation },
    ...(argv.prefix ? { prefix: argv.prefix } : {}),
    ...(argv.envPrefix ? { envPrefix: argv.envPrefix } : {}),
    ...(argv.headers ? {} : { headers: { enabled: false } }),
    select: {
      ...(argv.includeTag ? { includeTags: argv.includeTag } : {}),
      ...(argv.excludeTag ? { excludeTags: argv.excludeTag } : {}),
      ...(argv.includeOperation ? { includeOperations: argv.includeOperation } : {}),
      ...(argv.excludeOperation ? { excludeOperations: argv.excludeOperation } : {}),
      ...(argv.includePath ? { includePaths: argv.includePath } : {}),
      ...(argv.excludePath ? { excludePaths: argv.excludePath } : {}),
      ...(argv.includeMethod ? { includeMethods: methods(argv.includeMethod) } : {}),
      ...(argv.excludeMethod ? { excludeMethods: methods(argv.excludeMethod) } : {}),
      excludeDeprecated: argv.excludeDeprecated,
    },
  };
}
