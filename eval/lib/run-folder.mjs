// A run folder, eval/runs/<label>/<api>[-per-operation]/: what one answerer pair was given and what came back.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { EVAL_DIR, REPO, WORK, fail } from './apis.mjs';

export const FILES = {
  meta: 'run.json',
  full: 'tools.full.json',
  names: 'tools.names.json',
  requests: 'requests.json',
  plan: 'plan.json',
};

export function runName(api, strategy) {
  return strategy === 'per-operation' ? `${api}-per-operation` : api;
}

export function runDir(label, api, strategy) {
  return path.join(EVAL_DIR, 'runs', label, runName(api, strategy));
}

/** Where the generated server of a run lives (gitignored), relative to the repository. */
export function serverDirOf(label, api, strategy) {
  return path.relative(REPO, path.join(WORK, 'servers', label, runName(api, strategy)));
}

export function tokens(text) {
  return countTokens(text, { disallowedSpecial: new Set() });
}

export function sha256(text) {
  return createHash('sha256').update(text).digest('hex');
}

const GENERATOR_PATHS = ['src', 'templates', 'bin', 'package.json', 'package-lock.json'];

/**
 * The commit measured: HEAD, the last commit that changed the generator (stable when a branch of eval-only commits
 * is merged), and whether the generator's files differ from HEAD.
 */
export function commitMeasured() {
  const git = (...args) => spawnSync('git', args, { cwd: REPO, encoding: 'utf8' }).stdout.trim();
  const commit = git('rev-parse', 'HEAD');
  const generatorCommit = git('log', '-1', '--format=%H', '--', ...GENERATOR_PATHS);
  const dirty = git('status', '--porcelain', '--', ...GENERATOR_PATHS) !== '';
  return { commit, generatorCommit, dirty };
}

export function writeJson(file, value) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

export function readJson(file) {
  if (!existsSync(file)) fail(`${file} does not exist`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    fail(`${file} is not valid JSON: ${error.message}`);
  }
}
