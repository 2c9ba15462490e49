import type { NamedToolDraft, Siblings } from '../drafts.js';

/** For each tool, the tools on the same resource with the other intents, so descriptions can point at them. */
export function siblingMap(drafts: readonly NamedToolDraft[]): Map<string, Siblings> {
  const byLabel = new Map<string, NamedToolDraft[]>();
  for (const draft of drafts) byLabel.set(draft.resourceLabel, [...(byLabel.get(draft.resourceLabel) ?? []), draft]);
  const out = new Map<string, Siblings>();
  for (const draft of drafts) {
    const siblings: Siblings = {};
    for (const other of byLabel.get(draft.resourceLabel) ?? []) {
      if (other.intent !== draft.intent && !siblings[other.intent]) siblings[other.intent] = other.name;
    }
    out.set(draft.name, siblings);
  }
  return out;
}
