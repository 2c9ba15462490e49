import type { JsonObject, JsonValue } from '../../src/kernel/json.js';
import { slots } from './mutate.js';

/**
 * Shrinks a failing document: removes one subtree at a time (shallowest first) and keeps each removal after which
 * the failure persists. Regression files then hold the few lines that matter, not a vendor description.
 */
export async function minimize(
  document: JsonObject,
  stillFails: (candidate: JsonObject) => Promise<boolean>,
  budget: { attempts: number; deadlineMs: number },
): Promise<JsonObject> {
  let current = document;
  const tried = new Set<string>();
  let attempts = 0;
  for (let progress = true; progress && attempts < budget.attempts && Date.now() < budget.deadlineMs;) {
    progress = false;
    const candidates = slots(current)
      .map((slot) => ({ slot, key: JSON.stringify(slot.tokens) }))
      .filter(({ key }) => !tried.has(key))
      .sort((a, b) => a.slot.tokens.length - b.slot.tokens.length);
    for (const { slot, key } of candidates) {
      if (attempts >= budget.attempts || Date.now() >= budget.deadlineMs) break;
      attempts++;
      tried.add(key);
      const candidate = structuredClone(current);
      if (!removeAt(candidate, slot.tokens)) continue;
      if (await stillFails(candidate)) {
        current = candidate;
        tried.clear();
        progress = true;
        break;
      }
    }
  }
  return current;
}

function removeAt(root: JsonObject, tokens: Array<string | number>): boolean {
  let node: JsonValue = root;
  for (const token of tokens.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return false;
    node = Array.isArray(node) ? (node[token as number] as JsonValue) : (node[token as string] as JsonValue);
  }
  const last = tokens[tokens.length - 1];
  if (node === null || typeof node !== 'object' || last === undefined) return false;
  if (Array.isArray(node)) node.splice(last as number, 1);
  else delete node[last as string];
  return true;
}
