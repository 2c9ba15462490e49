/**
 * Arguments most actions of a tool require (`owner` and `repo` in a GitHub tool). At the lean detail levels they
 * are stated once, on the property ("Required except for …"), instead of in every action's line.
 */
export function mostlyRequired(needsByAction: string[][]): Set<string> {
  const counts = new Map<string, number>();
  for (const needs of needsByAction) for (const name of new Set(needs)) counts.set(name, (counts.get(name) ?? 0) + 1);
  const out = new Set<string>();
  for (const [name, count] of counts) if (count >= 2 && count * 2 > needsByAction.length) out.add(name);
  return out;
}
