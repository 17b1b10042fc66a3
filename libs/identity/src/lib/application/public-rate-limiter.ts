import { Injectable, Logger } from '@nestjs/common';
import { AppConfig, Clock } from '@almanac/shared';
import { PublicRateLimitRepository } from '../infrastructure/public-rate-limit.repository';

/** A client whose newest request is this many seconds old has nothing left in the window. */
const IDLE_AFTER_SECONDS = 61;
/** Idle rows are swept at most once a minute per instance, at most 20 × 5,000 rows a sweep. */
const SWEEP_INTERVAL_MS = 60_000;
export const SWEEP_BATCH = 5_000;
export const SWEEP_MAX_BATCHES = 20;

/**
 * PUBLIC_RATE_LIMIT_PER_MINUTE (0 = off): the requests one client address may make to `/public/v1`,
 * all routes together, in any 60 seconds. Counted in PostgreSQL, one statement per request, so every
 * instance spends the same budget; time comes from the injected clock (whole seconds).
 */
@Injectable()
export class PublicRateLimiter {
  private readonly logger = new Logger('PublicRateLimit');
  private readonly limit: number;
  private lastSweep = 0;
  private sweeping: Promise<number> | null = null;

  constructor(
    private readonly limits: PublicRateLimitRepository,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.limit = config.publicRateLimitPerMinute;
  }

  get enabled(): boolean {
    return this.limit > 0;
  }

  get perMinute(): number {
    return this.limit;
  }

  /** Counts one request of the client: null when it passes, else the seconds until one would. */
  async hit(clientKey: string): Promise<number | null> {
    if (!this.enabled) return null;
    const now = this.clock.now().getTime();
    this.sweepNowAndThen(now);
    const retryAfter = await this.limits.hit(clientKey, Math.floor(now / 1000), this.limit);
    return retryAfter === 0 ? null : retryAfter;
  }

  /**
   * Deletes the rows of clients idle for a minute or more, in batches (rows a request holds are
   * skipped, not waited for), until a batch comes back short or `maxBatches` have run; returns how
   * many went. Each batch is one short statement, so a sweep never holds much at once.
   */
  async sweep(batchSize = SWEEP_BATCH, maxBatches = SWEEP_MAX_BATCHES): Promise<number> {
    const before = Math.floor(this.clock.now().getTime() / 1000) - IDLE_AFTER_SECONDS + 1;
    let deleted = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const count = await this.limits.deleteIdleBefore(before, batchSize);
      deleted += count;
      if (count < batchSize) break;
    }
    return deleted;
  }

  /** The sweep of the request path: once a minute, off the request's own time, one at a time. */
  private sweepNowAndThen(now: number): void {
    if (this.sweeping || now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    this.sweeping = this.sweep()
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'could not sweep idle public rate limits');
        return 0;
      })
      .finally(() => (this.sweeping = null));
  }
}
