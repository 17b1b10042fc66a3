import { Injectable } from '@nestjs/common';
import { AppConfig, BackgroundSweep, Clock } from '@almanac/shared';
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
  private readonly limit: number;
  private readonly sweeper = new BackgroundSweep(
    'idle public rate limits',
    SWEEP_INTERVAL_MS,
    (limit) => this.limits.deleteIdleBefore(Math.floor(this.clock.now().getTime() / 1000) - IDLE_AFTER_SECONDS + 1, limit),
    SWEEP_BATCH,
    SWEEP_MAX_BATCHES,
  );

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
    this.sweeper.nowAndThen(now);
    const retryAfter = await this.limits.hit(clientKey, Math.floor(now / 1000), this.limit);
    return retryAfter === 0 ? null : retryAfter;
  }

  /**
   * Deletes the rows of clients idle for a minute or more, in batches (rows a request holds are
   * skipped, not waited for), until a batch comes back short or `maxBatches` have run; returns how
   * many went. Each batch is one short statement, so a sweep never holds much at once.
   */
  sweep(batchSize = SWEEP_BATCH, maxBatches = SWEEP_MAX_BATCHES): Promise<number> {
    return this.sweeper.run(batchSize, maxBatches);
  }
}
