#!/usr/bin/env node
// Rewrites the runs section of eval/multistep/RESULTS.md from the run folders: per label, one row per surface (tasks
// completed, calls, errors) and one row per task (each surface's outcome), from run.json and each session's
// score.json (score.mjs writes them).
//
//   node eval/multistep/results.mjs [--runs DIR] [--out FILE]     (defaults: eval/multistep/runs, RESULTS.md)
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from '../lib/apis.mjs';
import { RUN_FILES, SESSION_FILES } from './lib/session.mjs';
import { MULTISTEP_DIR, loadTaskModule } from './lib/world.mjs';

const { options } = parseArgs(process.argv.slice(2), { runs: 'value', out: 'value' });
const RUNS = path.resolve(options.runs ?? path.join(MULTISTEP_DIR, 'runs'));
const RESULTS = path.resolve(options.out ?? path.join(MULTISTEP_DIR, 'RESULTS.md'));
const BEGIN = '<!-- runs:begin (written by eval/multistep/results.mjs) -->';
const END = '<!-- runs:end -->';

const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
const folders = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort()
    : [];
const number = (value) => value.toLocaleString('en-US');

const sections = [];
for (const label of folders(RUNS)) {
  const runs = folders(path.join(RUNS, label))
    .map((name) => ({ name, dir: path.join(RUNS, label, name), meta: read(path.join(RUNS, label, name, RUN_FILES.meta)) }))
    .filter((run) => run.meta);
  if (runs.length === 0) continue;
  const surfaceRows = [];
  const outcomes = new Map();
  for (const run of runs) {
    const commit = `${(run.meta.generatorCommit ?? '').slice(0, 7)}${run.meta.dirty ? ' (dirty)' : ''}`;
    if (run.meta.skipped) {
      surfaceRows.push(`| ${run.name} | — | ${run.meta.skipped}: not prepared | — | — | — | — | — | — | ${commit} |`);
      continue;
    }
    const scores = folders(run.dir)
      .map((session) => read(path.join(run.dir, session, SESSION_FILES.score)))
      .filter(Boolean);
    const completed = scores.filter((score) => score.completed);
    const sum = (list, key) => list.reduce((total, score) => total + score[key], 0);
    const over = sum(completed, 'calls') - sum(completed, 'minimumCalls');
    surfaceRows.push(
      `| ${run.name} | ${run.meta.tools} | ${number(run.meta.tokens.toolsList)} | ${scores.length} | ${completed.length} / ${scores.length} | ${sum(scores, 'calls')} | ${completed.length ? `${sum(completed, 'calls')} (${over >= 0 ? '+' : '−'}${Math.abs(over)})` : '—'} | ${sum(scores, 'errors')} | ${sum(scores, 'unscripted')} | ${commit} |`,
    );
    for (const score of scores) {
      const cell = `${score.completed ? 'yes' : 'no'}, ${plural(score.calls, 'call')}, ${plural(score.errors, 'error')}${score.completed ? '' : `: ${shortReason(score)}`}`;
      const row = outcomes.get(score.task) ?? new Map();
      row.set(run.name, [...(row.get(run.name) ?? []), cell]);
      outcomes.set(score.task, row);
    }
  }
  const taskRows = await taskTable(runs, outcomes);
  sections.push(
    [
      `### ${label}`,
      '',
      '| Surface | Tools | Tokens of `tools/list` | Sessions scored | Completed | Calls | Calls of the completed (over the shortest) | Calls with errors | Unscripted answers | Generator commit |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
      ...surfaceRows,
      ...(taskRows.length ? ['', ...taskRows] : []),
    ].join('\n'),
  );
}

async function taskTable(runs, outcomes) {
  if (outcomes.size === 0) return [];
  const names = runs.filter((run) => !run.meta.skipped).map((run) => run.name);
  // Task ids and shortest lengths only: what a task is about stays in the held-out task file.
  const kinds = new Map();
  for (const api of new Set(runs.map((run) => run.meta.api))) {
    for (const task of (await loadTaskModule(api)).tasks) kinds.set(task.id, task);
  }
  return [
    `| Task | Shortest | ${names.join(' | ')} |`,
    `|---|---:|${names.map(() => '---|').join('')}`,
    ...[...outcomes.keys()].sort().map((id) => {
      const task = kinds.get(id);
      const cells = names.map((name) => (outcomes.get(id).get(name) ?? ['—']).join('<br>'));
      return `| ${id} | ${task ? task.solution.length : '?'} | ${cells.join(' | ')} |`;
    }),
  ];
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function shortReason(score) {
  const reason = score.reasons[0] ?? '';
  return reason.replace(/\|/g, '\\|').slice(0, 90);
}

const generated = `${BEGIN}\n\n${sections.join('\n\n') || 'No runs yet.'}\n\n${END}`;
const current = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : `# Multi-step results\n\n${BEGIN}\n${END}\n`;
const start = current.indexOf(BEGIN);
const end = current.indexOf(END);
if (start < 0 || end < 0) {
  console.error(`${RESULTS} lacks the markers ${BEGIN} … ${END}`);
  process.exit(1);
}
writeFileSync(RESULTS, `${current.slice(0, start)}${generated}${current.slice(end + END.length)}`);
console.log(`${path.relative(process.cwd(), RESULTS)}: ${sections.length} run label(s)`);
