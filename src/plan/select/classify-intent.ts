import type { OperationModel } from '../../model/api-model.js';
import type { Intent } from '../../surface/surface.js';
import { singular } from '../text/resource-words.js';
import { RPC_QUALIFIERS, rpcAction } from '../text/rpc-action.js';
import { wordsOf } from '../text/words.js';

/** Verbs that make a POST a read: search and lookup endpoints that use a body for their query. */
const READ_VERBS = new Set([
  'search',
  'query',
  'lookup',
  'find',
  'list',
  'get',
  'fetch',
  'retrieve',
  'read',
  'count',
  'describe',
  'filter',
  'batchget',
  'preview',
  'estimate',
  'quote',
]);
/** Words that reveal a change even when a read verb comes first (`get_or_create`, `find_and_delete`). */
const WRITE_WORDS = new Set([
  'create',
  'update',
  'delete',
  'remove',
  'set',
  'add',
  'put',
  'post',
  'patch',
  'insert',
  'upsert',
  'send',
  'upload',
  'import',
  'run',
  'execute',
  'start',
  'stop',
  'cancel',
  'revoke',
  'reset',
  'approve',
  'reject',
  'publish',
  'move',
  'copy',
  'merge',
  'rename',
  'enable',
  'disable',
  'archive',
  'restore',
  'invite',
  'assign',
  'close',
  'open',
  'lock',
  'unlock',
  'submit',
  'write',
  'modify',
  'change',
  'replace',
  'purge',
  'destroy',
  'clear',
  'refresh',
  'sync',
  'trigger',
  'generate',
  'register',
  'login',
  'logout',
]);
/** Words that make a non-DELETE operation destructive. */
const DESTRUCTIVE_WORDS = new Set(['delete', 'remove', 'destroy', 'purge', 'erase', 'wipe', 'revoke', 'terminate', 'batchdelete']);

/**
 * Whether an operation reads, writes or destroys. The HTTP method decides unless the operation says otherwise
 * (`x-mcp.annotations`) or its name shows a POST that only reads (search/query/lookup) or a POST that deletes.
 */
export function classifyIntent(operation: OperationModel): Intent {
  const hints = operation.extension.annotations;
  if (hints?.readOnlyHint === true) return 'read';
  if (hints?.destructiveHint === true) return 'delete';
  if (hints?.readOnlyHint === false && hints.destructiveHint === false) return 'write';
  // One URL for every call (AWS): the action's verb says what it does, whatever the method (AWS offers each action
  // by GET and by POST alike).
  const action = rpcAction(operation.path);
  if (action) {
    // A qualifier goes before the verb: `BatchGetItems`, `AdminDeleteUser`.
    const words = wordsOf(action).filter((word, index, all) => index === all.length - 1 || !RPC_QUALIFIERS.has(word));
    return intentOfVerb(words[0] ?? '');
  }
  const method = operation.method;
  if (method === 'get' || method === 'head' || method === 'options' || method === 'trace') {
    // Some APIs mutate through GET (Slack's `views.publish`): the verb that names the operation says so.
    const verb = operationVerb(operation);
    if (verb && DESTRUCTIVE_WORDS.has(verb)) return 'delete';
    return verb && GET_MUTATING_VERBS.has(verb) ? 'write' : 'read';
  }
  if (method === 'delete') return 'delete';
  const words = nameWords(operation);
  if (words.some((word) => DESTRUCTIVE_WORDS.has(word))) return 'delete';
  if (method === 'post' && isReadByName(words)) return 'read';
  return 'write';
}

function intentOfVerb(verb: string): Intent {
  if (DESTRUCTIVE_WORDS.has(verb)) return 'delete';
  return READ_VERBS.has(verb) ? 'read' : 'write';
}

/** Verbs that, leading an operation's name, mean a change even when the method is GET. */
const GET_MUTATING_VERBS = new Set([
  'create',
  'update',
  'set',
  'add',
  'post',
  'put',
  'patch',
  'send',
  'publish',
  'push',
  'upload',
  'import',
  'invite',
  'kick',
  'join',
  'leave',
  'rename',
  'archive',
  'unarchive',
  'open',
  'close',
  'complete',
  'start',
  'stop',
  'enable',
  'disable',
  'approve',
  'reject',
  'restrict',
  'reset',
  'invalidate',
  'assign',
  'mark',
  'pin',
  'unpin',
  'star',
  'unstar',
  'write',
  'modify',
  'trigger',
]);

/**
 * The verb that names the operation: the RPC method (`views.publish` → publish), else the operationId's first word —
 * unless the path names it as a resource (`invite_resolve` on `GET /invites/{code}`: an invite, not inviting).
 */
function operationVerb(operation: OperationModel): string | undefined {
  const segments = operation.path.split(/[?#]/)[0]?.split('/').filter(Boolean) ?? [];
  const lastSegment = segments.at(-1) ?? '';
  if (lastSegment.includes('.') && !lastSegment.startsWith('{')) return wordsOf(lastSegment.slice(lastSegment.lastIndexOf('.') + 1))[0];
  const first = operation.derivedId ? undefined : wordsOf(operation.id)[0];
  // A collection (`/invites`) or an item (`/invite/{code}`) names a thing; a bare `/channels/{id}/invite` an act.
  const nouns = new Set(
    segments.flatMap((segment, index) =>
      segment.startsWith('{')
        ? []
        : wordsOf(segment)
            .filter((word) => word !== singular(word) || segments[index + 1]?.startsWith('{'))
            .map(singular),
    ),
  );
  return first && nouns.has(singular(first)) ? undefined : first;
}

function nameWords(operation: OperationModel): string[] {
  const lastSegment =
    operation.path
      .split(/[?#]/)[0]
      ?.split('/')
      .filter((segment) => !segment.startsWith('{'))
      .pop() ?? '';
  const verbSuffix = lastSegment.includes(':') ? lastSegment.slice(lastSegment.lastIndexOf(':') + 1) : '';
  const rpcVerb = lastSegment.includes('.') ? lastSegment.slice(lastSegment.indexOf('.') + 1) : '';
  return [...wordsOf(operation.derivedId ? '' : operation.id), ...wordsOf(verbSuffix), ...wordsOf(rpcVerb), ...wordsOf(lastSegment)];
}

function isReadByName(words: string[]): boolean {
  if (words.some((word) => WRITE_WORDS.has(word))) return false;
  return words.some((word) => READ_VERBS.has(word));
}

/** PUT and DELETE are idempotent by definition (RFC 9110 §9.2.2); so are reads. */
export function isIdempotentMethod(operation: OperationModel): boolean {
  return ['get', 'head', 'options', 'trace', 'put', 'delete'].includes(operation.method);
}
