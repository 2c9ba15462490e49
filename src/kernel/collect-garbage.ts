import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * A full garbage collection, for the boundaries between stages where most of the heap has just become garbage (the
 * parsed description once the model exists, the planner's intermediate values once the plan exists). V8 sizes the
 * heap from what was alive at its last full collection, up to four times that: left alone, it last collects while
 * the parsed description is alive, then lets planning and emitting fill that limit without collecting again, which
 * made GitHub's generation peak at twice the memory it needs. One collection at each boundary costs a few tens of
 * milliseconds and resets the limit to what is really alive.
 *
 * `gc` is not exposed without a flag: it is taken from a context created while the flag is set, and the flag is
 * cleared again so that nothing else in the process sees it. Where that is not possible, this does nothing.
 */
export function collectGarbage(): void {
  collect ??= exposedCollector();
  collect();
}

function exposedCollector(): () => void {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : () => undefined;
  } catch {
    return () => undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
