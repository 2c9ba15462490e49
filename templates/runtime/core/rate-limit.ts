// Bounds on tool use: calls per minute (token bucket) and calls in flight.

export class RateLimiter {
  private tokens: number;
  private updated = Date.now();

  constructor(private readonly perMinute: number) {
    this.tokens = perMinute;
  }

  /** Takes one call; returns the seconds to wait when none is left. */
  take(): number | undefined {
    if (this.perMinute <= 0) return undefined;
    const now = Date.now();
    this.tokens = Math.min(this.perMinute, this.tokens + ((now - this.updated) / 60_000) * this.perMinute);
    this.updated = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    return Math.ceil(((1 - this.tokens) / this.perMinute) * 60);
  }
}

/**
 * Calls in flight. A call over the limit waits its turn (first come, first served) rather than failing at once, so a
 * burst of clients is slowed down, not refused; the queue and the wait are bounded, and past them the call is refused
 * with "busy" so that memory stays bounded whatever the load.
 */
export class ConcurrencyLimiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly limit: number,
    private readonly maxWaiting = Math.max(64, limit * 8),
    private readonly maxWaitMs = 30_000,
  ) {}

  tryEnter(): boolean {
    if (this.limit > 0 && this.active >= this.limit) return false;
    this.active++;
    return true;
  }

  /** Resolves true once the call may run; false when the queue is full, the wait runs out, or the caller went away. */
  enter(signal?: AbortSignal): Promise<boolean> {
    if (this.waiting.length === 0 && this.tryEnter()) return Promise.resolve(true);
    if (this.waiting.length >= this.maxWaiting || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const settle = (granted: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', giveUp);
        const index = this.waiting.indexOf(grant);
        if (index >= 0) this.waiting.splice(index, 1);
        resolve(granted);
      };
      const grant = () => {
        this.active++;
        settle(true);
      };
      const giveUp = () => settle(false);
      const timer = setTimeout(giveUp, this.maxWaitMs);
      signal?.addEventListener('abort', giveUp, { once: true });
      this.waiting.push(grant);
    });
  }

  leave(): void {
    this.active = Math.max(0, this.active - 1);
    if (this.limit <= 0 || this.active < this.limit) this.waiting[0]?.();
  }
}
