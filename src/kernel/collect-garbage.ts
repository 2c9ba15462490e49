import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * A full garbage collection, for the boundaries between stages where most of the heap has just become garbage (the
 * description's text once it is parsed, the parsed description once the model exists, the planner's intermediate
 * values once the plan exists). V8 sizes the
 * heap from what was alive at its last full collection, up to four times that: left alone, it last collects while
 * the parsed description is alive, then lets planning and emitting fill that limit without collecting again, which
 * made GitHub's generation peak at 323 MB of RSS where 225 MB do. The price is a pause on the main thread (one
 * collection of what is alive, some tens of megabytes) in place of collections V8 would mostly have run alongside;
 * lowering V8's heap growing factor instead reached the same peak with longer pauses.
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
