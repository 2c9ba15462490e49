/**
 * A function of an object that remembers its result for as long as the object lives (an undefined result too). For
 * what a plan derives again and again from objects it shares and never changes: shapes, resource lists. The result
 * must depend on the key alone; `rest` is only what computing it needs (the named schemas a shape was made from).
 */
export function rememberObject<K extends object, V, A extends unknown[] = []>(
  compute: (key: K, ...rest: A) => V,
): (key: K, ...rest: A) => V {
  const known = new WeakMap<K, V>();
  return (key, ...rest) => {
    if (known.has(key)) return known.get(key) as V;
    const value = compute(key, ...rest);
    known.set(key, value);
    return value;
  };
}
