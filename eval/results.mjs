#!/usr/bin/env node
// Rewrites the runs section of eval/RESULTS.md from eval/runs/<label>/<run>/: run.json (tools, tokens, commit) and,
// where scored, score.names.json and score.full.json. One table per label.
//
//   node eval/results.mjs
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EVAL_DIR } from './lib/apis.mjs';

const RUNS = path.join(EVAL_DIR, 'runs');
const RESULTS = path.join(EVAL_DIR, 'RESULTS.md');
const BEGIN = '<!-- runs:begin (written by eval/results.mjs) -->';
const END = '<!-- runs:end -->';

const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
const labels = existsSync(RUNS)
  ? readdirSync(RUNS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
  : [];
const sections = [];
for (const label of labels) {
  const rows = [];
  for (const run of readdirSync(path.join(RUNS, label)).sort()) {
    const dir = path.join(RUNS, label, run);
    const meta = read(path.join(dir, 'run.json'));
    if (!meta) continue;
    const names = read(path.join(dir, 'score.names.json'))?.totals;
    const full = read(path.join(dir, 'score.full.json'))?.totals;
    const commit = (meta.generatorCommit ?? meta.commit ?? '').slice(0, 7) + (meta.dirty ? ' (dirty)' : '');
    if (meta.skipped) {
      rows.push(`| ${meta.api} | ${meta.strategy} | — | — | ${meta.skipped}: not prepared | — | — | — | — | — | ${commit} |`);
      continue;
    }
    const cell = (value, total) => (value === undefined ? 'not run' : `${value} / ${total}`);
    rows.push(
      `| ${meta.api} | ${meta.strategy} | ${meta.tools} | ${meta.operations} | ${meta.tokens.toolsList.toLocaleString('en-US')} | ${meta.tokens.fullFile.toLocaleString('en-US')} | ${cell(names?.right, names?.requests)} | ${cell(full?.rightOperation, full?.requests)} | ${cell(full?.rightArguments, full?.requests)} | ${full ? full.errors : 'not run'} | ${commit} |`,
    );
  }
  sections.push(
    [
      `### ${label}`,
      '',
      '| API | Strategy | Tools | Operations | Tokens of `tools/list` | Tokens of `tools.full.json` | Name-only right | Full: right operation | Full: right arguments | Full: errors | Generator commit |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
      ...rows,
    ].join('\n'),
  );
}
const generated = `${BEGIN}\n\n${sections.join('\n\n') || 'No runs yet.'}\n\n${END}`;
const current = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : `# Results\n\n${BEGIN}\n${END}\n`;
const start = current.indexOf(BEGIN);
const end = current.indexOf(END);
if (start < 0 || end < 0) {
  console.error(`${RESULTS} lacks the markers ${BEGIN} … ${END}`);
  process.exit(1);
}
writeFileSync(RESULTS, `${current.slice(0, start)}${generated}${current.slice(end + END.length)}`);
console.log(`${path.relative(process.cwd(), RESULTS)}: ${labels.length} run label(s)`);
