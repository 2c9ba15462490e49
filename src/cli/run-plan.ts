import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { WatchSession } from '../cache/watch-session.js';
import { runPlan, type PlanRunResult } from '../pipeline.js';
import { renderPlanHtml } from '../report/plan-html.js';
import { GENERATOR_VERSION } from '../kernel/version.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import type { ParsedFlags } from './options.js';
import { headerLines } from './plan-headers.js';
import { planToJson } from './plan-json.js';
import { prepareRun, type Prepared } from './prepare.js';
import { printDiagnostics } from './print.js';
import { printable, type Colors } from './reporter.js';
import type { SurfaceChoice } from '../search/search-plan.js';
import type { WatchedRun } from './watch-command.js';

export type PlanFlags = ParsedFlags & { json: boolean; html?: string };

/**
 * `openapi-to-mcp plan [spec]`: the plan as a table, as JSON (`--json`) and/or as a page (`--html FILE`). `session`:
 * a watch's, which keeps its runs' work.
 */
export async function planOnce(flags: PlanFlags, io: CliIo, colors: Colors, session?: WatchSession): Promise<WatchedRun> {
  if (flags.html === '') throw new UsageError('--html needs a file name: --html report.html');
  const referenced: string[] = [];
  const prepared = await prepareRun(flags, { io, colors, json: flags.json, needsSpec: true });
  if ('code' in prepared) return { code: prepared.code, referenced };
  const spec = prepared.options.spec as string;
  const result = await runPlan({
    ...prepared.options,
    spec,
    onProgress: prepared.onProgress,
    onInputFile: (file) => referenced.push(file),
    ...(session ? { session } : {}),
  });
  prepared.progress.done();
  return { code: await reportPlan(flags, io, colors, prepared, result), spec, referenced };
}

async function reportPlan(flags: PlanFlags, io: CliIo, colors: Colors, prepared: Prepared, result: PlanRunResult): Promise<number> {
  const code = result.ok ? EXIT.ok : EXIT.input;
  let htmlFile: string | undefined;
  if (flags.html !== undefined && result.plan) {
    htmlFile = path.resolve(io.cwd, flags.html);
    try {
      await writeFile(
        htmlFile,
        renderPlanHtml(result.plan, result.diagnostics, {
          generator: `openapi-to-mcp ${GENERATOR_VERSION}`,
          ...(result.surface ? { surface: result.surface } : {}),
        }),
      );
    } catch (error) {
      io.stderr(`${colors.red('error')} cannot write ${flags.html}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
      return EXIT.usage;
    }
  }
  if (flags.json) {
    const body = result.plan ? planToJson(result.plan, result.diagnostics, result.surface) : { ok: false, diagnostics: result.diagnostics };
    io.stdout(`${JSON.stringify(htmlFile ? { ...body, html: htmlFile } : body, null, 2)}\n`);
    return code;
  }
  printDiagnostics(result.diagnostics, prepared, io, colors);
  if (!result.plan) return code;
  io.stdout(planTable(result.plan, colors));
  if (result.surface) io.stdout(surfaceLines(result.surface, result.plan.totals.budget.maxTotalTokens, colors));
  if (htmlFile && !prepared.quiet)
    io.stderr(`${colors.green('wrote')} ${path.relative(io.cwd, htmlFile) || htmlFile} — open it in a browser.\n`);
  return code;
}

function planTable(plan: NonNullable<PlanRunResult['plan']>, colors: Colors): string {
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
  return `${lines.join('\n')}\n`;
}

/** What `tools/list` serves, when not simply the static tools above: the search surface's tools and index. */
function surfaceLines(surface: SurfaceChoice, maxTotalTokens: number, colors: Colors): string {
  const why = surface.reason ? ` (auto: ${surface.reason})` : '';
  if (surface.mode === 'static') return surface.requested === 'auto' ? `Served: the static tools above${why}.\n` : '';
  const search = surface.search;
  if (!search) return '';
  const width = Math.max(4, ...search.tools.map((tool) => tool.name.length));
  const lines = [
    '',
    colors.bold(`Served: the search surface${why}; the tools above are not listed, they route the calls.`),
    colors.bold(`${'tool'.padEnd(width)}  tokens  annotations`),
    ...search.tools.map(
      (tool) =>
        `${tool.name.padEnd(width)}  ${String(tool.tokens).padStart(6)}  ${tool.annotations.readOnlyHint ? 'read-only' : tool.annotations.destructiveHint ? 'destructive' : 'writes'}`,
    ),
    `${search.tools.length} tools reach ${search.catalog.length.toLocaleString('en-US')} actions; ${search.tokens.toLocaleString('en-US')} tokens of ${maxTotalTokens.toLocaleString('en-US')} budgeted.`,
    `Search index: ${kilobytes(search.indexStats.bytes)} (${search.indexStats.terms.toLocaleString('en-US')} terms), action schemas ${kilobytes(search.schemaBytes)}.`,
  ];
  return `${lines.join('\n')}\n`;
}

function kilobytes(bytes: number): string {
  return `${Math.ceil(bytes / 1000).toLocaleString('en-US')} kB`;
}
