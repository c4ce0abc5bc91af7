import type { Clock } from '../platform/Clock.js';

/** Outcome of one request against a limiter. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window resets. */
  resetSeconds: number;
  windowSeconds: number;
  policy: string;
}

/** Keys a limiter remembers at most (client addresses can be many: a /16 is 65,536). */
const MAX_KEYS = 10_000;

/**
 * A fixed-window counter per key (usually a project or a client address). Counters live in
 * memory: a restart starts fresh windows, which errs towards letting an operator back in. A
 * clock that jumps backwards starts a new window instead of locking callers out until it
 * catches up. At most MAX_KEYS keys are kept: ended windows go first, then the oldest, so
 * a flood from many addresses costs bounded memory (a forgotten key just starts afresh).
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly policy: string,
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Counts one request for `key` and says whether it may proceed. */
  consume(key: string): RateDecision {
    const now = this.clock.now().getTime();
    let window = this.windows.get(key);
    if (!window || now >= window.start + this.windowMs || now < window.start) {
      window = { start: now, count: 0 };
      // Re-inserted so the map's order stays the order windows started in (oldest first).
      this.windows.delete(key);
      this.windows.set(key, window);
      if (this.windows.size > MAX_KEYS) this.sweep(now);
    }
    const allowed = window.count < this.limit;
    if (allowed) window.count += 1;
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)),
      windowSeconds: Math.round(this.windowMs / 1000),
      policy: this.policy,
    };
  }

  /** How many keys have a window in memory. */
  get size(): number {
    return this.windows.size;
  }

  /** Drops ended windows, then the oldest down to 90 % of MAX_KEYS (so sweeps stay rare). */
  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (now >= w.start + this.windowMs || now < w.start) this.windows.delete(key);
    for (const key of this.windows.keys()) {
      if (this.windows.size <= MAX_KEYS * 0.9) break;
      this.windows.delete(key);
    }
  }
}
