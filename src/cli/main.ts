import { CONFIG_DEFAULTS } from '../config/config-schema.js';
import { GENERATOR_VERSION, PACKAGE_NAME, REGISTRY_RUN_COMMAND, RUN_COMMAND, TARBALL } from '../kernel/version.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { FlagError, withPlanOptions } from './options.js';
import { ansiColors, NO_COLORS, printable } from './reporter.js';
import { withoutHelpCaching } from './help-caching.js';
import { unknownArgumentHelp } from './suggest.js';

export { EXIT, type CliIo } from './io.js';
export { colorEnabled } from './terminal.js';

const DESCRIPTION =
  'Generate a typed MCP server project from an OpenAPI description (Swagger 2.0, OpenAPI 3.0, 3.1).\n' +
  'Options come from flags, then openapi-to-mcp.config.{json,yaml} in the working directory (or --config FILE).\n' +
  `In a clone (after npm ci && npm run build): node bin/openapi-to-mcp.js spec.yaml\n` +
  `Elsewhere: npm install /path/to/${TARBALL} (from npm pack in the clone), then ${RUN_COMMAND} spec.yaml\n` +
  `Once ${PACKAGE_NAME} is on the npm registry, from any folder: ${REGISTRY_RUN_COMMAND} spec.yaml`;

// Each command's module (and through it the pipeline) is imported when the command runs, so `--help`, `--version`
// and usage errors answer without loading the stages.

/** Parses arguments and runs a command; returns the exit code. Only the bin calls process.exit. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  // The version alone is answered before yargs and its terminal-width helpers load (about half of that start-up).
  if (argv.length === 1 && argv[0] === '--version') {
    io.stdout(`${GENERATOR_VERSION}\n`);
    return EXIT.ok;
  }
  const { default: yargs } = await import('yargs');
  const colors = io.color ? ansiColors() : NO_COLORS;
  let exitCode: number = EXIT.ok;
  const parser = yargs(argv)
    .scriptName('openapi-to-mcp')
    .usage(`$0 [spec] [options]\n\n${DESCRIPTION}`)
    .command(
      '$0 [spec]',
      'Generate an MCP server project',
      (command) =>
        withPlanOptions(command)
          .positional('spec', {
            type: 'string',
            describe: 'OpenAPI description: a file, - for stdin, or an http(s) URL (or `spec` in the config)',
          })
          .option('out', { alias: 'o', type: 'string', describe: 'Output folder', defaultDescription: './<api-name>-mcp' })
          .option('target', {
            choices: ['node', 'workers'] as const,
            describe: 'workers: also a Cloudflare Workers entry (src/worker.ts, wrangler.toml)',
            defaultDescription: CONFIG_DEFAULTS.target,
          })
          .option('deploy', {
            type: 'boolean',
            describe: 'Also write Dockerfile, deploy/kubernetes.yaml and the MCP Bundle manifest (manifest.json)',
            defaultDescription: String(CONFIG_DEFAULTS.deploy),
          })
          .option('check', { type: 'boolean', default: false, describe: 'Write nothing; exit 1 when the output folder is stale' })
          .option('force', { type: 'boolean', default: false, describe: 'Overwrite generated files edited by hand' })
          .option('package-name', { type: 'string', describe: 'npm name of the generated project' })
          .option('regroup', { type: 'boolean', default: false, describe: 'Ignore the names the lock file pins and plan from scratch' })
          .option('cache', {
            type: 'boolean',
            describe: 'Reuse the regeneration cache in the output folder; --no-cache does the full work (same output)',
            defaultDescription: String(CONFIG_DEFAULTS.cache),
          })
          .option('rename-tool', { type: 'string', array: true, describe: 'Rename a pinned tool on purpose: old_name=new_name' })
          .option('watch', {
            type: 'boolean',
            default: false,
            describe: 'Generate again whenever the description, a file it refers to or the configuration changes (Ctrl-C stops)',
          })
          .example('$0 petstore.yaml', 'Generate ./swagger-petstore-mcp from a local description')
          .example('$0 https://example.com/openapi.json -o my-server --prefix example', 'From a URL, tool names prefixed example_')
          .example('$0 spec.yaml -o server --check', 'Exit 1 when the checked-in server is stale (for CI)')
          .example('$0 spec.yaml --target workers', 'Also write a Cloudflare Workers entry')
          .example('$0 spec.yaml -o server --watch', 'Regenerate ./server on every save of the description')
          .example('$0', 'Everything from openapi-to-mcp.config.yaml (see `init`)'),
      async (args) => {
        const { generateOnce } = await import('./run-generate.js');
        exitCode = args.watch
          ? await (
              await import('./watch-command.js')
            ).watchCommand(args, io, colors, (again, runIo, session) => generateOnce(args, runIo, colors, again, session), 'generating')
          : (await generateOnce(args, io, colors)).code;
      },
    )
    .command(
      'plan [spec]',
      'Print the tool plan without writing a project',
      (command) =>
        withPlanOptions(command)
          .positional('spec', { type: 'string', describe: 'OpenAPI description: a file, - for stdin, or an http(s) URL' })
          .option('html', { type: 'string', describe: 'Also write the plan as one self-contained HTML page', normalize: false })
          .option('watch', {
            type: 'boolean',
            default: false,
            describe: 'Plan again whenever the description, a file it refers to or the configuration changes (Ctrl-C stops)',
          })
          .example('$0 plan github.json --max-tools 40', 'How the tools would be grouped, with token counts')
          .example('$0 plan spec.yaml --html plan.html', 'A page with tools, actions, token bars and warnings')
          .example('$0 plan spec.yaml --html plan.html --watch', 'Keep the page current while you edit the description')
          .example('$0 plan spec.yaml --json | jq ".tools[].name"', 'The plan as JSON'),
      async (args) => {
        const { planOnce } = await import('./run-plan.js');
        exitCode = args.watch
          ? await (
              await import('./watch-command.js')
            ).watchCommand(args, io, colors, (_again, runIo, session) => planOnce(args, runIo, colors, session), 'planning')
          : (await planOnce(args, io, colors)).code;
      },
    )
    .command(
      'diff <old> <new>',
      'Show what changes for a model between two versions of a description',
      (command) =>
        withPlanOptions(command)
          .positional('old', { type: 'string', demandOption: true, describe: 'The earlier description' })
          .positional('new', { type: 'string', demandOption: true, describe: 'The later description' })
          .option('fail-on-breaking', { type: 'boolean', default: false, describe: 'Exit 1 when a change is breaking' })
          .example('$0 diff v1.yaml v2.yaml --fail-on-breaking', 'Fail CI when a tool or action a model relies on goes away'),
      async (args) => {
        exitCode = await (await import('./run-diff.js')).runDiffCommand(args, io, colors);
      },
    )
    .command(
      'init [spec]',
      'Write a commented starter configuration (openapi-to-mcp.config.yaml)',
      (command) =>
        command
          .positional('spec', { type: 'string', describe: 'The description the configuration points at' })
          .option('out', { alias: 'o', type: 'string', describe: 'Output folder to put in the configuration' })
          .option('format', {
            choices: ['yaml', 'json'] as const,
            default: 'yaml' as const,
            describe: 'YAML (commented) or JSON (with $schema)',
          })
          .option('force', { type: 'boolean', default: false, describe: 'Replace an existing configuration file' })
          .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' })
          .example('$0 init openapi.yaml', 'Start a configuration for ./openapi.yaml'),
      async (args) => {
        exitCode = await (await import('./run-init.js')).runInitCommand(args, io, colors);
      },
    )
    .epilogue('Exit codes: 0 success, 1 problems in the description (or stale output with --check), 2 usage or configuration errors.')
    .strict()
    .recommendCommands()
    .version(GENERATOR_VERSION)
    .help()
    .alias('help', 'h')
    .wrap(Math.min(120, io.columns || 120))
    .exitProcess(false)
    .fail((message, error) => {
      if (error) throw error;
      // getOptions() is public in yargs but missing from its type definitions; it holds the current command's options.
      const known = Object.keys((parser as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key);
      throw new UsageError(unknownArgumentHelp(message, known, argv) ?? message);
    });
  withoutHelpCaching(parser);
  try {
    let helpText: string | undefined;
    await parser.parseAsync(argv, {}, (_error, _parsed, output) => {
      if (output) helpText = output;
    });
    if (helpText !== undefined) io.stdout(`${helpText}\n`);
    return exitCode;
  } catch (error) {
    if (error instanceof UsageError || error instanceof FlagError) {
      // Scripts that asked for JSON get JSON even when the command line itself is wrong.
      if (argv.includes('--json')) {
        const diagnostic = {
          severity: 'error',
          code: 'OTM_CONFIG_INVALID',
          message: error.message,
          hint: 'Run openapi-to-mcp --help for the options.',
        };
        io.stdout(`${JSON.stringify({ ok: false, diagnostics: [diagnostic] }, null, 2)}\n`);
        return EXIT.usage;
      }
      io.stderr(`${colors.red('error')} ${error.message}\n${colors.dim('Run openapi-to-mcp --help for the options.')}\n`);
      return EXIT.usage;
    }
    io.stderr(
      `${colors.red('internal error')} ${printable((error as Error).message)}\nThis is a bug in openapi-to-mcp; please report it with the description that caused it.\n`,
    );
    if ((io.env ?? {})['OPENAPI_TO_MCP_DEBUG']) io.stderr(`${(error as Error).stack ?? ''}\n`);
    return EXIT.usage;
  }
}
