// The verdict of one session, from the requests that reached the scripted upstream (no model needed). A task is
// completed when every required write was made — accepted by the upstream, with every id it needs taken from a response
// served before it (or typed by the user), not guessed — and nothing else changed: no forbidden request (a write to the
// wrong item, a deletion nobody asked for; counted even when the upstream refused it), no accepted write the task
// neither requires nor allows, no required write made twice.
import { scalarText } from '../../lib/compare.mjs';
import { firstMismatch, leavesOf, listOf, paramsMatch } from './match.mjs';
import { isWrite } from './world.mjs';

/**
 * `calls`: the session's calls in order, each `{ response, upstream: [record…] }` (response: the raw JSON-RPC
 * message). `overLimit`: calls refused because the session had made its 8.
 */
export function verdictOf(world, calls, overLimit = 0) {
  const { expect, request } = world.task;
  const required = expect.writes.map((write) => ({ ...write, met: false }));
  const served = new Set();
  const forbidden = [];
  const unasked = [];
  const repeats = [];
  const guessed = [];
  let requests = 0;
  calls.forEach((call, index) => {
    for (const record of call.upstream) {
      requests++;
      const where = { call: index + 1, operation: record.operation, args: record.args };
      if (isWrite(world, record.operation)) {
        const refused = world.api.refused(record.response);
        const ban = expect.forbidden.find((entry) => entry.op === record.operation && paramsMatch(entry.params, record.args));
        if (ban) forbidden.push({ ...where, refused, why: ban.why });
        if (!refused) {
          const open = required.find((write) => !write.met && write.op === record.operation && paramsMatch(write.params, record.args));
          const done = required.find((write) => write.met && write.op === record.operation && paramsMatch(write.params, record.args));
          const allowed = (expect.allowed ?? []).some((entry) => entry.op === record.operation && paramsMatch(entry.params, record.args));
          if (open) {
            const unknown = (open.served ?? [])
              .flatMap((name) => listOf(record.args[name]).map(scalarText))
              .filter((value) => !served.has(value) && !request.includes(value));
            if (unknown.length > 0) guessed.push({ ...where, values: unknown, why: open.why });
            else Object.assign(open, { met: true, call: index + 1 });
          } else if (done) repeats.push({ ...where, why: done.why });
          else if (!allowed && !ban) unasked.push({ ...where, closest: closestMiss(required, record) });
        }
      }
      leavesOf(record.response.body, served);
    }
  });
  const isErrorCall = (call) => call.response?.error !== undefined || call.response?.result?.isError === true;
  const refusedCall = (call) => call.upstream.some((record) => world.api.refused(record.response));
  const totals = {
    calls: calls.length,
    requests,
    errors: calls.filter((call) => isErrorCall(call) || refusedCall(call)).length,
    toolErrors: calls.filter(isErrorCall).length,
    apiRefusals: calls.filter(refusedCall).length,
    withoutRequest: calls.filter((call) => call.upstream.length === 0).length,
    // Requests no rule of the task scripts (answered with the API's error): a path the script did not foresee, which
    // is worth a look before blaming the surface.
    unscripted: calls.flatMap((call) => call.upstream).filter((record) => ['unscripted', 'unknown path'].includes(record.rule)).length,
    overLimit,
  };
  const missing = required.filter((write) => !write.met);
  const completed = missing.length === 0 && forbidden.length === 0 && unasked.length === 0 && repeats.length === 0;
  return {
    task: world.task.id,
    completed,
    minimumCalls: world.task.solution.length,
    ...totals,
    required: required.map((write) => ({ op: write.op, why: write.why, met: write.met, ...(write.met ? { call: write.call } : {}) })),
    forbidden,
    unasked,
    repeats,
    guessed,
    // What went wrong first, what is missing last: the first reason is the one a results table shows.
    reasons: [
      ...forbidden.map(
        (entry) => `call ${entry.call}: forbidden ${entry.operation}${entry.refused ? ' (refused by the API)' : ''}: ${entry.why}`,
      ),
      ...guessed.map(
        (entry) => `call ${entry.call}: ${entry.operation} used ${entry.values.join(', ')}, which no earlier response served (guessed)`,
      ),
      ...unasked.map(
        (entry) =>
          `call ${entry.call}: ${entry.operation} changed something the task did not ask for${entry.closest ? ` (${entry.closest})` : ''}`,
      ),
      ...repeats.map((entry) => `call ${entry.call}: ${entry.operation} made again: ${entry.why}`),
      ...missing.map((write) => `required write not made: ${write.why}`),
    ],
  };
}

/** Why an accepted write is not the required one of the same operation, when there is one. */
function closestMiss(required, record) {
  const same = required.find((write) => write.op === record.operation);
  return same ? firstMismatch(same.params, record.args) : undefined;
}
