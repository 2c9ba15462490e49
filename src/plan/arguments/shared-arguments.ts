/**
 * Arguments nearly every action of a tool requires (`owner` and `repo` in a GitHub tool): stated once, on the property
 * ("Required except for …"), instead of in every action's line. "Nearly" keeps the list of exceptions short: it names
 * actions, and a name costs more tokens than the argument it saves in a line.
 */
export function mostlyRequired(needsByAction: string[][]): Set<string> {
  const counts = new Map<string, number>();
  for (const needs of needsByAction) for (const name of new Set(needs)) counts.set(name, (counts.get(name) ?? 0) + 1);
  const out = new Set<string>();
  for (const [name, count] of counts) if (count >= 2 && (needsByAction.length - count) * 4 <= count) out.add(name);
  return out;
}
