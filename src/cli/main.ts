import path from 'node:path';
import yargs from 'yargs';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { formatChange } from '../plan/diff-surface.js';
import { runDiff, runGenerate, runPlan, type DiffRunResult, type GenerateRunResult, type PlanRunResult } from '../pipeline.js';
import { GENERATOR_VERSION } from '../version.js';
import { toPlanRunOptions, withPlanOptions } from './options.js';
import { headerLines } from './plan-headers.js';
import { planToJson } from './plan-json.js';
import { ansiColors, formatDiagnostic, NO_COLORS, printable, visibleDiagnostics, type Colors } from './reporter.js';

export type CliIo = {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Colour only on a terminal, and never when NO_COLOR is set. */
  color: boolean;
  cwd: string;
};

export const EXIT = { ok: 0, input: 1, usage: 2 } as const;

class UsageError extends Error {}

/** Parses arguments and runs a command; returns the exit code. Only the bin calls process.exit. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const colors = io.color ? ansiColors() : NO_COLORS;
  let exitCode: number = EXIT.ok;
  const parser = yargs(argv)
    .scriptName('openapi-to-mcp')
    .usage('$0 <spec> [options]\n\nGenerate a typed MCP server project from an OpenAPI description (Swagger 2.0, OpenAPI 3.0, 3.1).')
    .command(
      '$0 <spec>',
      'Generate an MCP server project',
      (command) =>
        withPlanOptions(command)
          .option('out', { alias: 'o', type: 'string', describe: 'Output folder (default ./<api-name>-mcp)' })
          .option('check', { type: 'boolean', default: false, describe: 'Write nothing; exit 1 when the output folder is stale' })
          .option('force', { type: 'boolean', default: false, describe: 'Overwrite generated files edited by hand' })
          .option('package-name', { type: 'string', describe: 'npm name of the generated project' })
          .option('regroup', { type: 'boolean', default: false, describe: 'Ignore the names the lock file pins and plan from scratch' })
          .option('rename-tool', { type: 'string', array: true, describe: 'Rename a pinned tool on purpose: old_name=new_name' }),
      async (args) => {
        const result = await runGenerate({
          ...toPlanRunOptions(args),
          ...(args.out ? { out: path.resolve(io.cwd, args.out) } : {}),
          check: args.check,
          force: args.force,
          ...(args.packageName ? { packageName: args.packageName } : {}),
          regroup: args.regroup,
          ...(args.renameTool ? { renameTools: parseRenames(args.renameTool) } : {}),
        });
        exitCode = reportGenerate(result, { json: args.json, quiet: args.quiet, verbose: args.verbose, check: args.check }, io, colors);
      },
    )
    .command(
      'plan <spec>',
      'Print the tool plan without writing anything',
      (command) => withPlanOptions(command),
      async (args) => {
        const result = await runPlan(toPlanRunOptions(args));
        exitCode = reportPlan(result, { json: args.json, quiet: args.quiet, verbose: args.verbose }, io, colors);
      },
    )
    .command(
      'diff <old> <new>',
      'Show what changes for a model between two versions of a description',
      (command) =>
        command
          .positional('old', { type: 'string', demandOption: true, describe: 'The earlier description' })
          .positional('new', { type: 'string', demandOption: true, describe: 'The later description' })
          .option('json', { type: 'boolean', default: false, describe: 'Print the changes as JSON' })
          .option('fail-on-breaking', { type: 'boolean', default: false, describe: 'Exit 1 when a change is breaking' }),
      async (args) => {
        const result = await runDiff({ old: args.old, new: args.new });
        exitCode = reportDiff(result, { json: args.json, failOnBreaking: args.failOnBreaking }, io, colors);
      },
    )
    .example('$0 petstore.yaml', 'Generate ./swagger-petstore-mcp from a local description')
    .example('$0 https://example.com/openapi.json -o my-server --prefix example', 'Generate from a URL with tool names prefixed example_')
    .example('$0 plan github.json --max-tools 40', 'Show how the tools would be grouped, with token counts')
    .example('$0 spec.yaml -o server --check', 'Exit 1 when the checked-in server is stale (for CI)')
    .strict()
    .recommendCommands()
    .version(GENERATOR_VERSION)
    .help()
    .alias('help', 'h')
    .wrap(Math.min(110, process.stdout.columns || 110))
    .exitProcess(false)
    .fail((message, error) => {
      if (error) throw error;
      throw new UsageError(message);
    });
  try {
    let helpText: string | undefined;
    await parser.parseAsync(argv, {}, (_error, _parsed, output) => {
      if (output) helpText = output;
    });
    if (helpText !== undefined) io.stdout(`${helpText}\n`);
    return exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${colors.red('error')} ${error.message}\n${colors.dim('Run openapi-to-mcp --help for the options.')}\n`);
      return EXIT.usage;
    }
    io.stderr(
      `${colors.red('internal error')} ${printable((error as Error).message)}\nThis is a bug in openapi-to-mcp; please report it with the description that caused it.\n`,
    );
    if (process.env['OPENAPI_TO_MCP_DEBUG']) io.stderr(`${(error as Error).stack ?? ''}\n`);
    return EXIT.usage;
  }
}

type ReportOptions = { json: boolean; quiet: boolean; verbose: boolean };

function printDiagnostics(diagnostics: Diagnostic[], options: ReportOptions, io: CliIo, colors: Colors): void {
  const shown = visibleDiagnostics(diagnostics, options.verbose).filter((diagnostic) => !options.quiet || diagnostic.severity === 'error');
  for (const diagnostic of shown) io.stderr(`${formatDiagnostic(diagnostic, colors)}\n`);
}

function reportGenerate(result: GenerateRunResult, options: ReportOptions & { check: boolean }, io: CliIo, colors: Colors): number {
  const stale = result.stale ?? [];
  const code = result.ok ? EXIT.ok : EXIT.input;
  if (options.json) {
    io.stdout(
      `${JSON.stringify(
        {
          ok: code === EXIT.ok,
          outDir: result.outDir,
          diagnostics: result.diagnostics,
          ...(result.plan ? { totals: result.plan.totals } : {}),
          ...(result.write
            ? { changes: result.write.changes.map((change) => ({ kind: change.kind, path: change.path })), kept: result.write.kept }
            : {}),
          ...(options.check ? { stale } : {}),
        },
        null,
        2,
      )}\n`,
    );
    return code;
  }
  const where = path.relative(io.cwd, result.outDir ?? '.') || '.';
  if (options.check && result.plan) {
    printDiagnostics(
      result.diagnostics.filter((diagnostic) => diagnostic.code !== 'OTM_OUTPUT_STALE'),
      options,
      io,
      colors,
    );
    if (stale.length === 0) {
      if (!options.quiet) io.stderr(`${colors.green('up to date')} ${where} matches the description.\n`);
    } else
      io.stderr(
        `${colors.red('stale')} ${where} differs from what the description generates:\n${stale.map((file) => `  ${file}`).join('\n')}\n${colors.dim('Regenerate without --check and commit the result.')}\n`,
      );
    return code;
  }
  printDiagnostics(result.diagnostics, options, io, colors);
  if (!result.ok || !result.plan || options.quiet) return code;
  if (result.diff && result.diff.changes.length > 0) {
    io.stderr(
      `${colors.bold('tool surface changes')} (also in CHANGELOG.md):\n${result.diff.changes.map((change) => `  ${printable(formatChange(change))}`).join('\n')}\n`,
    );
  }
  const { totals } = result.plan;
  const written = result.write?.changes.length ?? 0;
  io.stderr(
    `${colors.green('generated')} ${totals.tools} tools (${totals.actions} actions, ${totals.tokens.toLocaleString('en-US')} tokens) for ${printable(result.plan.api.title)} in ${where}` +
      ` — ${written === 0 ? 'no file changed' : `${written} file${written === 1 ? '' : 's'} written`}.\n` +
      `${colors.dim(`Next: cd ${where} && npm install && npm run build && npm test`)}\n`,
  );
  return code;
}

function parseRenames(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const [from, to] = pair.split('=');
    if (!from || !to) throw new UsageError(`--rename-tool takes old_name=new_name, not ${JSON.stringify(pair)}.`);
    out[from] = to;
  }
  return out;
}

function reportDiff(result: DiffRunResult, options: { json: boolean; failOnBreaking: boolean }, io: CliIo, colors: Colors): number {
  const code = !result.ok ? EXIT.input : options.failOnBreaking && (result.diff?.breaking ?? 0) > 0 ? EXIT.input : EXIT.ok;
  if (options.json) {
    io.stdout(
      `${JSON.stringify({ ok: result.ok, diagnostics: result.diagnostics, ...(result.diff ? { changes: result.diff.changes, breaking: result.diff.breaking } : {}) }, null, 2)}\n`,
    );
    return code;
  }
  printDiagnostics(result.diagnostics, { json: false, quiet: false, verbose: false }, io, colors);
  if (!result.diff) return code;
  if (result.diff.changes.length === 0) io.stdout('No change to the tool surface.\n');
  else {
    io.stdout(
      `${result.diff.changes.length} change${result.diff.changes.length === 1 ? '' : 's'} to the tool surface, ${result.diff.breaking} breaking:\n`,
    );
    for (const change of result.diff.changes) io.stdout(`  ${change.breaking ? colors.red(formatChange(change)) : formatChange(change)}\n`);
  }
  return code;
}

function reportPlan(result: PlanRunResult, options: ReportOptions, io: CliIo, colors: Colors): number {
  const code = result.ok ? EXIT.ok : EXIT.input;
  if (options.json) {
    io.stdout(
      `${JSON.stringify(result.plan ? planToJson(result.plan, result.diagnostics) : { ok: false, diagnostics: result.diagnostics }, null, 2)}\n`,
    );
    return code;
  }
  printDiagnostics(result.diagnostics, options, io, colors);
  if (!result.plan) return code;
  const { plan } = result;
  const lines: string[] = [];
  const width = Math.max(4, ...plan.tools.map((tool) => tool.name.length));
  lines.push(colors.bold(`${'tool'.padEnd(width)}  actions  tokens  annotations`));
  for (const tool of plan.tools) {
    const hints = [
      tool.annotations.readOnlyHint ? 'read-only' : '',
      tool.annotations.destructiveHint ? 'destructive' : '',
      tool.annotations.idempotentHint ? 'idempotent' : '',
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(`${tool.name.padEnd(width)}  ${String(tool.actions.length).padStart(7)}  ${String(tool.tokens).padStart(6)}  ${hints}`);
    for (const action of tool.actions)
      lines.push(
        colors.dim(
          `${' '.repeat(2)}${(action.name || '(single)').padEnd(width - 2)}  ${action.operation.method.toUpperCase()} ${printable(action.operation.path)}`,
        ),
      );
    lines.push(...headerLines(tool.headers, colors));
  }
  const { totals } = plan;
  lines.push('');
  lines.push(
    `${totals.tools} tools, ${totals.actions} actions for ${totals.operations} operations${totals.excluded ? ` (${totals.excluded} excluded)` : ''}; ` +
      `${totals.tokens.toLocaleString('en-US')} tokens of ${totals.budget.maxTotalTokens.toLocaleString('en-US')} budgeted ${totals.withinBudget ? colors.green('(within budget)') : colors.yellow('(over budget)')}.`,
  );
  const marked = plan.tools.reduce((sum, tool) => sum + tool.headers.marked.length, 0);
  if (marked > 0 || plan.tools.some((tool) => tool.headers.refused.length > 0))
    lines.push(
      `${marked} x-mcp-header marking${marked === 1 ? '' : 's'} in ${plan.tools.filter((tool) => tool.headers.marked.length > 0).length} tools.`,
    );
  const largest = [...plan.tools].sort((a, b) => b.tokens - a.tokens).slice(0, 3);
  if (largest.length > 0) lines.push(`Largest: ${largest.map((tool) => `${tool.name} (${tool.tokens})`).join(', ')}.`);
  io.stdout(`${lines.join('\n')}\n`);
  return code;
}
