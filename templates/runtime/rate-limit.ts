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

export class ConcurrencyLimiter {
  private active = 0;

  constructor(private readonly limit: number) {}

  tryEnter(): boolean {
    if (this.limit > 0 && this.active >= this.limit) return false;
    this.active++;
    return true;
  }

  leave(): void {
    this.active = Math.max(0, this.active - 1);
  }
}
