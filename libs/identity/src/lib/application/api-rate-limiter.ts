import { Injectable } from '@nestjs/common';
import { AppConfig, Clock } from '@almanac/shared';
import { FixedWindowRateLimiter, RATE_LIMIT_WINDOW_SECONDS, RateLimitDecision } from '../domain/fixed-window-rate-limiter';

/**
 * Units per minute per API key (RATE_LIMIT_PER_MINUTE, 0 = off; a request costs one, a costly read more). Counted in this process's memory:
 * with N instances behind a balancer a key gets up to N times the limit.
 */
@Injectable()
export class ApiRateLimiter {
  private readonly limiter: FixedWindowRateLimiter | null;

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.limiter = config.rateLimitPerMinute > 0 ? new FixedWindowRateLimiter(config.rateLimitPerMinute, RATE_LIMIT_WINDOW_SECONDS * 1000) : null;
  }

  /** Counts one request of the key, `cost(now)` units (one by default); null when rate limiting is off. */
  hit(apiKeyId: string, cost?: (now: Date) => number): RateLimitDecision | null {
    if (!this.limiter) return null;
    const now = this.clock.now();
    return this.limiter.hit(apiKeyId, now.getTime(), cost ? cost(now) : 1);
  }
}
