// One answerer's session of one task: eval/multistep/runs/<label>/<run>/<task>/ holds what the handout was made from
// (session.json), every call with the requests it sent upstream and what they were answered (calls.jsonl), the calls
// refused over the limit (over-limit.jsonl), the answerer's closing note (done.md, copied by score.mjs) and the score.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fail } from '../../lib/apis.mjs';

/** A run folder, eval/multistep/runs/<label>/<api>[-per-operation]/, written by prepare.mjs. */
export const RUN_FILES = { meta: 'run.json', tools: 'tools.json', plan: 'plan.json' };

export const MAX_CALLS = 8;
export const SESSION_FILES = {
  session: 'session.json',
  calls: 'calls.jsonl',
  overLimit: 'over-limit.jsonl',
  done: 'done.md',
  score: 'score.json',
};

export function readSession(dir) {
  const file = path.join(dir, SESSION_FILES.session);
  if (!existsSync(file)) fail(`${dir} is no session folder (no ${SESSION_FILES.session})`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

function readLines(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

export const readCalls = (dir) => readLines(path.join(dir, SESSION_FILES.calls));
export const readOverLimit = (dir) => readLines(path.join(dir, SESSION_FILES.overLimit));
export const appendCall = (dir, call) => appendFileSync(path.join(dir, SESSION_FILES.calls), `${JSON.stringify(call)}\n`);
export const appendOverLimit = (dir, attempt) => appendFileSync(path.join(dir, SESSION_FILES.overLimit), `${JSON.stringify(attempt)}\n`);

/**
 * Runs `work` holding the session's lock, so that two calls cannot interleave: each call's world depends on the calls
 * before it. A lock left by a process that is gone is taken over.
 */
export async function withSessionLock(dir, work) {
  const lock = path.join(dir, '.lock');
  try {
    mkdirSync(lock);
  } catch {
    const holder = lockHolder(lock);
    if (holder === undefined || isAlive(holder)) {
      console.error('Another call of this task is still running. Wait for its result, then make the next call.');
      process.exit(4);
    }
  }
  writeFileSync(path.join(lock, 'pid'), String(process.pid));
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The pid in the lock; undefined while its maker has not written it yet (then the lock is held). */
function lockHolder(lock) {
  try {
    return Number(readFileSync(path.join(lock, 'pid'), 'utf8').trim());
  } catch {
    return undefined;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
