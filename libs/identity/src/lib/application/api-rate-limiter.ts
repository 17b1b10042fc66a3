import { Injectable } from '@nestjs/common';
import { AppConfig, Clock } from '@almanac/shared';
import { FixedWindowRateLimiter, RATE_LIMIT_WINDOW_SECONDS, RateLimitDecision } from '../domain/fixed-window-rate-limiter';

/**
 * Requests per minute per API key (RATE_LIMIT_PER_MINUTE, 0 = off). Counted in this process's memory:
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

  /** Counts one request of the key; null when rate limiting is off. */
  hit(apiKeyId: string): RateLimitDecision | null {
    return this.limiter ? this.limiter.hit(apiKeyId, this.clock.now().getTime()) : null;
  }
}
