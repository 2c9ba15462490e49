/**
 * A pure function of a string that remembers its results. A plan builds every tool at several detail levels and in
 * several rounds, and each build cleans, splits and compares the same descriptions, names and summaries again
 * (GitHub: 784 builds over 1,223 operations). Bounded, for a process that plans many descriptions: past `limit`
 * entries it starts over.
 */
export function rememberText<T>(compute: (text: string) => T, limit = 50_000): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    const hit = known.get(text);
    if (hit !== undefined) return hit;
    const value = compute(text);
    if (known.size >= limit) known.clear();
    known.set(text, value);
    return value;
  };
}
