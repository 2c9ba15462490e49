import path from 'node:path';
import { CONFIG_DEFAULTS } from '../config/config-schema.js';
import { formatChange } from '../surface/diff-surface.js';
import type { WatchSession } from '../cache/watch-session.js';
import { runGenerate, type GenerateRunResult } from '../pipeline.js';
import { EXIT, type CliIo } from './io.js';
import type { ParsedFlags } from './options.js';
import { prepareRun } from './prepare.js';
import { plural, printDiagnostics, type PrintOptions } from './print.js';
import { printable, type Colors } from './reporter.js';
import type { WatchedRun } from './watch-command.js';

export type GenerateFlags = ParsedFlags & { check: boolean; force: boolean; regroup: boolean; json: boolean };

/**
 * `openapi-to-mcp [spec]`: generates (or checks) a project and says what happened and what to do next. `again`: a
 * watch's later runs, which leave out the next steps; `session`: the watch's, which keeps its runs' work.
 */
export async function generateOnce(
  flags: GenerateFlags,
  io: CliIo,
  colors: Colors,
  again = false,
  session?: WatchSession,
): Promise<WatchedRun> {
  const prepared = await prepareRun(flags, { io, colors, json: flags.json, needsSpec: true });
  if ('code' in prepared) return { code: prepared.code, referenced: [] };
  const referenced: string[] = [];
  const spec = prepared.options.spec as string;
  const result = await runGenerate({
    ...prepared.options,
    spec,
    check: flags.check,
    force: flags.force,
    regroup: flags.regroup,
    onProgress: prepared.onProgress,
    onInputFile: (file) => referenced.push(file),
    ...(session ? { session } : {}),
  });
  prepared.progress.done();
  const generated = { code: result.ok ? EXIT.ok : EXIT.input, spec, referenced };
  if (flags.json) {
    io.stdout(`${JSON.stringify(generateJson(result, flags.check), null, 2)}\n`);
    return generated;
  }
  const where = path.relative(io.cwd, result.outDir ?? '.') || '.';
  if (flags.check && result.plan) {
    reportCheck(result, { where, quiet: prepared.quiet, verbose: prepared.verbose }, io, colors);
    return generated;
  }
  printDiagnostics(result.diagnostics, prepared, io, colors);
  if (!result.ok || !result.plan || prepared.quiet) return generated;
  if (result.diff && result.diff.changes.length > 0) {
    io.stderr(
      `${colors.bold('tool surface changes')} (also in CHANGELOG.md):\n${result.diff.changes.map((change) => `  ${printable(formatChange(change))}`).join('\n')}\n`,
    );
  }
  io.stderr(summary(result, { where, target: prepared.options.target ?? CONFIG_DEFAULTS.target, again }, colors));
  return generated;
}

/** The documented JSON shape of a generation. */
function generateJson(result: GenerateRunResult, check: boolean) {
  return {
    ok: result.ok,
    outDir: result.outDir,
    diagnostics: result.diagnostics,
    ...(result.plan ? { totals: result.plan.totals } : {}),
    ...(result.surface
      ? {
          surface: {
            mode: result.surface.mode,
            ...(result.surface.reason ? { reason: result.surface.reason } : {}),
            ...(result.surface.search
              ? {
                  tools: result.surface.search.tools.length,
                  tokens: result.surface.search.tokens,
                  indexBytes: result.surface.search.indexStats.bytes,
                }
              : {}),
          },
        }
      : {}),
    timings: roundTimings(result.timings),
    ...(result.write
      ? { changes: result.write.changes.map((change) => ({ kind: change.kind, path: change.path })), kept: result.write.kept }
      : {}),
    ...(check ? { stale: result.stale ?? [] } : {}),
  };
}

/** Milliseconds per stage, to a tenth: enough for a benchmark, stable enough to read. */
function roundTimings(timings: GenerateRunResult['timings']): Record<string, number> {
  return Object.fromEntries(Object.entries(timings).map(([stage, ms]) => [stage, Math.round(ms * 10) / 10]));
}

function reportCheck(result: GenerateRunResult, options: PrintOptions & { where: string }, io: CliIo, colors: Colors): void {
  const stale = result.stale ?? [];
  printDiagnostics(
    result.diagnostics.filter((diagnostic) => diagnostic.code !== 'OTM_OUTPUT_STALE'),
    options,
    io,
    colors,
  );
  if (stale.length === 0) {
    if (!options.quiet) io.stderr(`${colors.green('up to date')} ${options.where} matches the description.\n`);
    return;
  }
  io.stderr(
    `${colors.red('stale')} ${options.where} differs from what the description generates:\n${stale.map((file) => `  ${file}`).join('\n')}\n${colors.dim('Regenerate without --check and commit the result.')}\n`,
  );
}

/** What was generated, how big it is for a model, where it went, and (but for a watch's later runs) what to run next. */
function summary(result: GenerateRunResult, options: { where: string; target: string; again: boolean }, colors: Colors): string {
  const plan = result.plan;
  if (!plan) return '';
  const { totals } = plan;
  const changes = result.write?.changes ?? [];
  const written = changes.filter((change) => change.kind === 'write').length;
  // Files a project had and no longer gets (a tool gone, deployment files turned off) are named, not only counted.
  const removed = changes.filter((change) => change.kind === 'remove').map((change) => printable(change.path));
  const warnings = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'warning').length;
  const budget = `${totals.tokens.toLocaleString('en-US')} of ${totals.budget.maxTotalTokens.toLocaleString('en-US')} tokens`;
  const search = result.surface?.search;
  const why = result.surface?.reason ? `, because ${result.surface.reason}` : '';
  const headline = search
    ? `${colors.green('generated')} a search surface: ${plural(search.tools.length, 'tool')} reaching ${plural(totals.actions, 'action')} for ${plural(totals.operations, 'operation')}, ${search.tokens.toLocaleString('en-US')} of ${totals.budget.maxTotalTokens.toLocaleString('en-US')} tokens${why} (search index ${Math.ceil(search.indexStats.bytes / 1000).toLocaleString('en-US')} kB) for ${printable(plan.api.title)}`
    : `${colors.green('generated')} ${plural(totals.tools, 'tool')} (${plural(totals.actions, 'action')} for ${plural(totals.operations, 'operation')}, ${totals.withinBudget ? budget : colors.yellow(`${budget}: over budget`)}${why}) for ${printable(plan.api.title)}`;
  const lines = [
    headline,
    `  in ${options.where} — ${written === 0 && removed.length === 0 ? 'no file changed' : `${plural(written, 'file')} written`}${removed.length > 0 ? `, ${removed.length} removed (no longer generated): ${removed.join(', ')}` : ''}${warnings > 0 ? `, ${colors.yellow(plural(warnings, 'warning'))} above` : ''}.`,
  ];
  if (options.again) return `${lines.join('\n')}\n`;
  lines.push(
    '',
    colors.bold('Next:'),
    `  cd ${options.where}`,
    '  npm install && npm run build && npm test',
    `  node dist/main.js              ${colors.dim('# stdio: Claude, VS Code, Cursor, Codex, Gemini CLI, Windsurf, Cline')}`,
    `  node dist/main.js --http       ${colors.dim('# Streamable HTTP on http://127.0.0.1:3000/mcp')}`,
    ...(options.target === 'workers' ? [`  npx wrangler dev               ${colors.dim('# the Cloudflare Workers entry, locally')}`] : []),
    colors.dim(`  README.md has the environment variables and ready-to-paste client set-ups.`),
  );
  return `${lines.join('\n')}\n`;
}
