import { Injectable, OnModuleInit } from '@nestjs/common';
import { Metrics, SCRAPE_READ_TIMEOUT_MS, SqlClient } from '@almanac/shared';
import type { Histogram } from 'prom-client';

/**
 * Counts above this are reported as this: each count stops after this many rows, so a scrape costs
 * the same on a table of 100,000 deliveries as on one of 100 million.
 */
export const BACKLOG_COUNT_CAP = 100_000;

/** Delivery lag: most deliveries take well under a second, retries come minutes to hours later. */
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400];

/**
 * This context's metrics: the outbox's backlog (events not yet fanned out into deliveries), the
 * stored deliveries by status (both read from the database when Prometheus scrapes, in one bounded
 * statement), and the lag of each successful delivery (observed by the dispatcher).
 */
@Injectable()
export class WebhookMetrics implements OnModuleInit {
  private lag!: Histogram<string>;

  constructor(
    private readonly metrics: Metrics,
    private readonly sql: SqlClient,
  ) {}

  onModuleInit(): void {
    const undelivered = this.metrics.gauge({
      name: 'almanac_outbox_undelivered_events',
      help: `Recorded events not yet turned into webhook deliveries (counted up to ${BACKLOG_COUNT_CAP})`,
    });
    const deliveries = this.metrics.gauge({
      name: 'almanac_webhook_deliveries',
      help: `Stored webhook deliveries (kept 30 days) by status: pending, succeeded, failed (each counted up to ${BACKLOG_COUNT_CAP})`,
      labelNames: ['status'],
    });
    this.lag = this.metrics.histogram({
      name: 'almanac_webhook_delivery_lag_seconds',
      help: "Seconds from an event's change to the 2xx answer of the endpoint that received it (retries included)",
      buckets: LAG_BUCKETS,
    });
    this.metrics.readOnScrape(
      async () => {
        const counts = await this.backlog();
        undelivered.set(counts.undelivered);
        for (const status of ['pending', 'succeeded', 'failed'] as const) deliveries.set({ status }, counts[status]);
      },
      () => {
        undelivered.remove();
        deliveries.reset();
      },
    );
  }

  /** A delivery of an event that happened at `happenedAt` was answered 2xx at `deliveredAt`. */
  delivered(happenedAt: Date, deliveredAt: Date): void {
    this.lag.observe(Math.max(0, deliveredAt.getTime() - happenedAt.getTime()) / 1000);
  }

  /**
   * One statement, each count capped: the backlog on the fan-out's partial index, pending deliveries
   * on the due index, failed ones on their own partial index, succeeded ones (most rows) stop after the cap.
   */
  private async backlog(): Promise<{ undelivered: number; pending: number; succeeded: number; failed: number }> {
    const { rows } = await this.sql.query<Record<'undelivered' | 'pending' | 'succeeded' | 'failed', string>>(
      `SELECT (SELECT count(*) FROM (SELECT 1 FROM outbox_events WHERE NOT fanned_out LIMIT $1) e) AS undelivered,
              (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries WHERE status = 'pending' LIMIT $1) p) AS pending,
              (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries WHERE status = 'succeeded' LIMIT $1) s) AS succeeded,
              (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries WHERE status = 'failed' LIMIT $1) f) AS failed`,
      [BACKLOG_COUNT_CAP],
      { timeoutMs: SCRAPE_READ_TIMEOUT_MS },
    );
    const row = rows[0]!;
    return { undelivered: Number(row.undelivered), pending: Number(row.pending), succeeded: Number(row.succeeded), failed: Number(row.failed) };
  }
}
