/**
 * "Did you mean …?" for a mistyped name (a flag, a command, a configuration key, an operationId): the closest known
 * name by edit distance, if it is close enough to be a plausible typo rather than a different word.
 */
export function closestName(input: string, candidates: Iterable<string>): string | undefined {
  const needle = input.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(needle, candidate.toLowerCase());
    if (!best || distance < best.distance || (distance === best.distance && candidate < best.name)) best = { name: candidate, distance };
  }
  if (!best) return undefined;
  // Two edits for short names, a third of the length for long ones: `max-tool` → `max-tools`, never `out` → `prefix`.
  const allowed = Math.max(2, Math.floor(Math.max(needle.length, best.name.length) / 3));
  return best.distance <= allowed && best.distance < Math.max(needle.length, best.name.length) ? best.name : undefined;
}

/** ` Did you mean X?` or nothing, to append to a message. */
export function didYouMean(input: string, candidates: Iterable<string>, format: (name: string) => string = (name) => name): string {
  const match = closestName(input, candidates);
  return match === undefined ? '' : ` Did you mean ${format(match)}?`;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions cost 1. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: cols }, (_, col) => (row === 0 ? col : col === 0 ? row : 0)),
  );
  const at = (row: number, col: number) => table[row]?.[col] ?? Number.POSITIVE_INFINITY;
  for (let row = 1; row < rows; row++) {
    for (let col = 1; col < cols; col++) {
      const cost = a[row - 1] === b[col - 1] ? 0 : 1;
      let value = Math.min(at(row - 1, col) + 1, at(row, col - 1) + 1, at(row - 1, col - 1) + cost);
      if (row > 1 && col > 1 && a[row - 1] === b[col - 2] && a[row - 2] === b[col - 1]) value = Math.min(value, at(row - 2, col - 2) + 1);
      (table[row] as number[])[col] = value;
    }
  }
  return at(rows - 1, cols - 1);
}
