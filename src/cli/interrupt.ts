/**
 * Calls `onFirst` at the first SIGINT (Ctrl-C) or SIGTERM of this process; a second one ends the process at once with
 * 130, as someone pressing Ctrl-C twice expects. Signal listeners do not keep a process alive, so none is removed.
 */
export function onInterrupt(onFirst: () => void): void {
  let interrupted = false;
  const handler = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    onFirst();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

/** A signal that aborts at the first interrupt of this process (see onInterrupt). */
export function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  onInterrupt(() => controller.abort());
  return controller.signal;
}
