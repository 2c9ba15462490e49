// A task's world: the API's description and operations, the API's own conventions (its error shapes, which requests
// change something, the rules every task shares) and the task's script and expectations, from
// eval/multistep/tasks/<api>.mjs.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EVAL_DIR, descriptionFile, fail } from '../../lib/apis.mjs';
import { METHODS, listOperations, loadDescription } from '../../lib/description.mjs';

export const MULTISTEP_DIR = path.join(EVAL_DIR, 'multistep');
/** The APIs with multi-step tasks: a renamed description each, so that no model knows it by heart. */
export const MULTISTEP_APIS = ['murmel'];

export function requireMultistepApi(id) {
  if (!MULTISTEP_APIS.includes(id)) fail(`no multi-step tasks for "${id}"; known: ${MULTISTEP_APIS.join(', ')}`);
  return id;
}

/** The API's conventions and tasks: `{ api, tasks }` from tasks/<api>.mjs. */
export async function loadTaskModule(id) {
  requireMultistepApi(id);
  const module = await import(pathToFileURL(path.join(MULTISTEP_DIR, 'tasks', `${id}.mjs`)).href);
  return { api: module.api, tasks: module.tasks };
}

/** The description, its operations and each operation's raw object (responses included), keyed `METHOD /path`. */
export async function loadApiDescription(id) {
  const file = await descriptionFile(id);
  const doc = loadDescription(file);
  const operations = listOperations(doc);
  const rawOperations = new Map();
  for (const [rawPath, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      if (item?.[method])
        rawOperations.set(`${method.toUpperCase()} ${rawPath.replace(/#.*$/, '').replace(/\?.*$/, '')}`, {
          key: `${method.toUpperCase()} ${rawPath}`,
          ...item[method],
        });
    }
  }
  return { file, doc, operations, rawOperations };
}

export async function loadWorld(id, taskId) {
  const { api, tasks } = await loadTaskModule(id);
  const task = tasks.find((candidate) => candidate.id === taskId);
  if (!task) fail(`no task ${taskId} for ${id}; known: ${tasks.map((candidate) => candidate.id).join(', ')}`);
  return { ...(await loadApiDescription(id)), api, task };
}

/** Whether a request to `operation` may change something: not a GET, or a GET the API says writes. */
export function isWrite(world, operation) {
  if (!operation) return false;
  return !operation.startsWith('GET ') || world.api.getWrites.includes(operation);
}
