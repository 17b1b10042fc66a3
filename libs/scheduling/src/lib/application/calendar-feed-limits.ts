import { Injectable } from '@nestjs/common';
import { FixedWindowRateLimiter } from '@almanac/identity';
import { AppConfig, Clock } from '@almanac/shared';

const MINUTE_MS = 60_000;

export type FeedAdmission = { allowed: true } | { allowed: false; retryAfterSeconds: number; byClient: boolean };

/**
 * The public feed address takes no key, so it is limited per token (one feed's subscribers:
 * CALENDAR_FEED_RATE_LIMIT_PER_MINUTE, default 60, where a calendar app polls every 15 minutes)
 * and per client (every token, known or not, from one address: CALENDAR_FEED_CLIENT_RATE_LIMIT_PER_MINUTE,
 * default 600). Counted in this process's memory, like the API keys' limit.
 */
@Injectable()
export class CalendarFeedLimits {
  private readonly perToken: FixedWindowRateLimiter | null;
  private readonly perClient: FixedWindowRateLimiter | null;

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.perToken = config.calendarFeedRateLimitPerMinute > 0 ? new FixedWindowRateLimiter(config.calendarFeedRateLimitPerMinute, MINUTE_MS) : null;
    this.perClient =
      config.calendarFeedClientRateLimitPerMinute > 0 ? new FixedWindowRateLimiter(config.calendarFeedClientRateLimitPerMinute, MINUTE_MS) : null;
  }

  /** Counts one fetch of `token` by `client` (see TrustedProxies.clientOf). */
  admit(token: string, client: string): FeedAdmission {
    const now = this.clock.now().getTime();
    const byClient = this.perClient?.hit(client, now);
    if (byClient && !byClient.allowed) return { allowed: false, retryAfterSeconds: byClient.resetSeconds, byClient: true };
    const byToken = this.perToken?.hit(token, now);
    if (byToken && !byToken.allowed) return { allowed: false, retryAfterSeconds: byToken.resetSeconds, byClient: false };
    return { allowed: true };
  }
}
