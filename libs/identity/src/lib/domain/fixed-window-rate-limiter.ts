/** The one rate-limit policy's name (in `RateLimit-Policy`) and window: units per minute per API key. */
export const RATE_LIMIT_POLICY = 'per-key';
export const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  /** Units left in the window (a refused request may have found some, fewer than it costs). */
  readonly remaining: number;
  /** Seconds until the current window ends and the quota is full again (at least 1). */
  readonly resetSeconds: number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * A fixed window per key, started by the key's first request: `limit` units, then refusals until
 * the window ends. A request costs one unit unless it says otherwise (a costly read costs more; a
 * cost above the limit counts as the whole limit, so it can still pass in a fresh window). One map
 * lookup and a few additions per request; refused requests do not count. Memory stays bounded:
 * when the map grows past `maxKeys`, ended windows are dropped.
 */
export class FixedWindowRateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly limit: number,
    readonly windowMs = 60_000,
    private readonly maxKeys = 100_000,
  ) {}

  hit(key: string, nowMs: number, cost = 1): RateLimitDecision {
    const units = Math.min(this.limit, Math.max(1, Math.ceil(cost)));
    let window = this.windows.get(key);
    if (!window || nowMs >= window.start + this.windowMs || nowMs < window.start) {
      if (!window && this.windows.size >= this.maxKeys) this.sweep(nowMs);
      window = { start: nowMs, count: 0 };
      this.windows.set(key, window);
    }
    const resetSeconds = Math.max(1, Math.ceil((window.start + this.windowMs - nowMs) / 1000));
    if (window.count + units > this.limit) return { allowed: false, limit: this.limit, remaining: this.limit - window.count, resetSeconds };
    window.count += units;
    return { allowed: true, limit: this.limit, remaining: this.limit - window.count, resetSeconds };
  }

  get size(): number {
    return this.windows.size;
  }

  private sweep(nowMs: number): void {
    for (const [key, window] of this.windows) {
      if (nowMs >= window.start + this.windowMs) this.windows.delete(key);
    }
    // Every window still running: forget the oldest rather than grow without bound.
    while (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
  }
}
