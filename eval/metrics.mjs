#!/usr/bin/env node
// Structural name metrics of a tool plan (`plan --json`):
//   named from paths   share of tools whose name words (less the prefix and the intent words read/write/delete and
//                      their verbs) all occur among the words of the static path segments of at least 80% of the
//                      tool's operations (case-insensitive; snake, kebab, dot and camel case split; singular = plural)
//   named after API    tools with a name word from the API's slug or title that its paths do not carry
//   numbered           tools whose name ends in a number
//   undescribed        actions of the `action` enum that the tool's description never mentions
//   duplicate titles   tools whose title another tool also has
//
//   node eval/metrics.mjs <plan.json …> [--prefix NAME] [--json]
//   node eval/metrics.mjs --all [--json]     GitHub and every description in the specs folder with more than 100 operations
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { descriptionFile, parseArgs, specsDir } from './lib/apis.mjs';
import { listOperations, loadDescription } from './lib/description.mjs';
import { readJson } from './lib/run-folder.mjs';
import { planJson } from './lib/server.mjs';

const INTENT_WORDS = new Set(
  'read write delete create update get list search fetch find query change set add put post patch remove destroy and'.split(' '),
);
const GENERIC_API_WORDS = new Set('api apis rest web http platform service services openapi the of for and beta v'.split(' '));
const SHARE = 0.8;

const { options, positional } = parseArgs(process.argv.slice(2), { prefix: 'value', json: 'flag', all: 'flag' });
const plans = options.all
  ? await allPlans()
  : positional.map((file) => ({ name: path.basename(path.dirname(path.resolve(file))), plan: readJson(file) }));
if (plans.length === 0) {
  console.error('usage: node eval/metrics.mjs <plan.json …> [--prefix NAME] [--json] | --all');
  process.exit(2);
}
const rows = plans.map(({ name, plan, operations }) => ({
  name,
  operations: operations ?? plan.totals.operations,
  ...metricsOf(plan, options.prefix),
}));
if (options.json) console.log(JSON.stringify(rows, null, 2));
else printTable(rows);

export function words(text) {
  return text
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map(singular);
}

function singular(word) {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function metricsOf(plan, prefix) {
  const apiWords = new Set(
    [...words(plan.api.slug ?? ''), ...words(plan.api.title ?? '')].filter((word) => !GENERIC_API_WORDS.has(word) && !/^v?\d+$/.test(word)),
  );
  const titles = new Map();
  for (const tool of plan.tools) titles.set(tool.title, (titles.get(tool.title) ?? 0) + 1);
  let fromPaths = 0;
  let actions = 0;
  const afterApi = [];
  const numbered = [];
  const notFromPaths = [];
  const undescribed = [];
  for (const tool of plan.tools) {
    const stripped = prefix && tool.name.startsWith(`${prefix}_`) ? tool.name.slice(prefix.length + 1) : tool.name;
    const nameWords = words(stripped).filter((word) => !INTENT_WORDS.has(word) && !/^\d+$/.test(word));
    const pathWords = tool.operations.map((operation) => new Set(words(operation.path.replace(/#.*$/, '').split('/').join(' '))));
    const carried = (word) => pathWords.filter((set) => set.has(word)).length >= SHARE * pathWords.length;
    if (nameWords.length > 0 && nameWords.every(carried)) fromPaths++;
    else notFromPaths.push(tool.name);
    if (nameWords.some((word) => apiWords.has(word) && !carried(word))) afterApi.push(tool.name);
    if (/\d$/.test(tool.name)) numbered.push(tool.name);
    const enumeration = tool.inputSchema?.properties?.action?.enum ?? [];
    actions += enumeration.length;
    for (const action of enumeration) {
      if (!new RegExp(`(^|[^A-Za-z0-9_])${action.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9_]|$)`).test(tool.description)) {
        undescribed.push(`${tool.name}.${action}`);
      }
    }
  }
  const duplicateTitles = plan.tools.filter((tool) => titles.get(tool.title) > 1).map((tool) => `${tool.name}: ${tool.title}`);
  return {
    tools: plan.tools.length,
    tokens: plan.totals.tokens,
    namedFromPaths: fromPaths,
    namedFromPathsShare: plan.tools.length ? fromPaths / plan.tools.length : 0,
    namedAfterApi: afterApi,
    numbered,
    actions,
    undescribedActions: undescribed,
    duplicateTitles,
    notNamedFromPaths: notFromPaths,
  };
}

async function allPlans() {
  const list = [{ name: 'github', file: await descriptionFile('github') }];
  const dir = specsDir();
  for (const entry of readdirSync(dir).sort()) {
    if (!/\.(json|ya?ml)$/.test(entry)) continue;
    const file = path.join(dir, entry);
    let count = 0;
    try {
      count = listOperations(loadDescription(file)).length;
    } catch {
      continue;
    }
    if (count > 100) list.push({ name: entry.replace(/\.(json|ya?ml)$/, ''), file });
  }
  list.push({ name: 'murmel (renamed slack-web)', file: await descriptionFile('murmel') });
  return list.map(({ name, file }) => {
    console.error(`planning ${name}`);
    return { name, plan: planJson(file, 'auto') };
  });
}

function printTable(list) {
  console.log(
    '| Description | Operations | Tools | Tokens | Named from paths (≥80%) | Named after the API | Numbered | Actions not in the description | Duplicate titles |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of list) {
    const share = `${row.namedFromPaths} / ${row.tools} (${Math.round(row.namedFromPathsShare * 100)}%)`;
    console.log(
      `| ${row.name} | ${row.operations} | ${row.tools} | ${row.tokens.toLocaleString('en-US')} | ${share} | ${row.namedAfterApi.length} | ${row.numbered.length} | ${row.undescribedActions.length} of ${row.actions} | ${row.duplicateTitles.length} |`,
    );
  }
}
