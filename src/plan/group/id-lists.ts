/** Sets of small integers kept as ascending arrays (word, name and argument ids): what pair scoring compares. */

/** Calls `both` with the positions in `a` and in `b` of every id the two ascending lists both hold, in order. */
export function forShared(a: readonly number[], b: readonly number[], both: (i: number, j: number) => void): void {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      both(i, j);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
}

/** Whether the ascending list `outer` holds every id of the ascending list `inner`. */
export function contains(outer: readonly number[], inner: readonly number[]): boolean {
  let i = 0;
  for (const id of inner) {
    while (i < outer.length && (outer[i] as number) < id) i++;
    if (outer[i] !== id) return false;
  }
  return true;
}

/** How many ids both ascending lists hold. */
export function intersectionSize(a: readonly number[], b: readonly number[]): number {
  // Walked here rather than through forShared: pair scoring calls it for every pair, and a callback per id costs.
  let count = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      count++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return count;
}

export function unionSize(a: readonly number[], b: readonly number[]): number {
  return a.length + b.length - intersectionSize(a, b);
}

/** The ids either ascending list holds, ascending. */
export function union(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? (a[i] as number) : Infinity;
    const y = j < b.length ? (b[j] as number) : Infinity;
    out.push(x <= y ? x : y);
    if (x <= y) i++;
    if (y <= x) j++;
  }
  return out;
}

/** The ids both ascending lists hold, ascending. */
export function intersection(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  forShared(a, b, (i) => out.push(a[i] as number));
  return out;
}
