// The scripted upstream of one task: fixed responses in the API's own shapes, chosen by rules, and the API's own
// errors for everything else. It records every request with the response it got. The answer to a request depends only
// on the request and on the requests before it (a rule may wait for an earlier write, which is how a read shows a write
// once it was accepted), so a task replayed call by call in fresh processes — the answerer's `call` command starts one
// per call — meets the same world every time.
import { createServer } from 'node:http';
import { resolveRequest } from '../../lib/description.mjs';
import { decodeRequest } from '../../lib/recorder.mjs';
import { argumentsOf, paramsMatch } from './match.mjs';

/**
 * The answer to one decoded request, given the records of the requests before it. A rule is
 * `{ op: "GET /path", params?: {name: matcher}, after?: [{op, params}], status?: 200, body }`; the first rule that
 * matches answers — one with `after` only once an earlier request matching each condition was accepted — its body's
 * `"{{name}}"` strings replaced by the argument of that name, and `"{{after.N.name}}"` by the argument of that name of
 * the latest accepted request that met condition N (the text a write set, for a read that shows it). Then the API's
 * common rules (its caller's identity, say), then the API's error for an operation no rule answers.
 */
export function answer(world, decoded, history) {
  const resolved = resolveRequest(world.operations, decoded.method, decoded.path);
  const args = argumentsOf(decoded);
  if (!resolved) return { operation: null, args, rule: 'unknown path', ...world.api.unknownPath };
  const operation = resolved.operation.key;
  const rules = [
    ...world.task.script.map((rule, index) => [rule, `script ${index}`]),
    ...world.api.common.map((rule, index) => [rule, `common ${index}`]),
  ];
  for (const [rule, name] of rules) {
    if (rule.op !== operation || !paramsMatch(rule.params, args)) continue;
    const met = (rule.after ?? []).map((condition) => history.findLast((record) => succeededLike(world, record, condition)));
    if (met.includes(undefined)) continue;
    return { operation, args, rule: name, status: rule.status ?? 200, body: fill(rule.body, args, met) };
  }
  const fallback = world.task.fallbacks?.[operation] ?? world.api.unscripted(world.rawOperations.get(operation));
  return { operation, args, rule: 'unscripted', status: fallback.status ?? 200, body: fallback.body };
}

function succeededLike(world, record, condition) {
  return record.operation === condition.op && paramsMatch(condition.params, record.args) && !world.api.refused(record.response);
}

/**
 * `"{{name}}"` strings replaced by the request's argument of that name (as text), and `"{{after.N.name}}"` by that
 * argument of `met[N]`, the earlier record that met the rule's condition N, everywhere in the body.
 */
function fill(body, args, met = []) {
  if (typeof body === 'string') {
    const match = /^\{\{([A-Za-z0-9_.[\]-]+)\}\}$/.exec(body);
    if (!match) return body;
    const earlier = /^after\.(\d+)\.(.+)$/.exec(match[1]);
    if (earlier && !met[Number(earlier[1])]) throw new Error(`${body}: the rule has no condition ${earlier[1]}`);
    return String((earlier ? met[Number(earlier[1])].args[earlier[2]] : args[match[1]]) ?? '');
  }
  if (Array.isArray(body)) return body.map((item) => fill(item, args, met));
  if (body && typeof body === 'object')
    return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, fill(value, args, met)]));
  return body;
}

/** One record: what was sent (raw and as arguments), which operation and rule, and what was answered. */
export function recordOf(world, raw, history) {
  const decoded = decodeRequest(raw);
  const { operation, args, rule, status, body } = answer(world, decoded, history);
  return {
    method: raw.method,
    url: raw.url,
    contentType: raw.contentType,
    body: raw.body.toString('utf8'),
    operation,
    args,
    rule,
    response: { status, body },
  };
}

/**
 * Serves the world on 127.0.0.1. `history` holds the records of earlier calls; every request answered here is
 * appended to `records` (and counts as history for the next one).
 */
export async function startUpstream(world, history = []) {
  const records = [];
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const raw = {
        method: request.method,
        url: request.url,
        contentType: request.headers['content-type'] ?? '',
        body: Buffer.concat(chunks),
      };
      let record;
      try {
        record = recordOf(world, raw, [...history, ...records]);
      } catch (error) {
        record = {
          ...raw,
          body: raw.body.toString('utf8'),
          operation: null,
          args: {},
          rule: 'script error',
          response: { status: 500, body: { error: String(error) } },
        };
      }
      records.push(record);
      const text = JSON.stringify(record.response.body);
      response.writeHead(record.response.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
      });
      response.end(text);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    records,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
