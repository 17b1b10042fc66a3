import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig, Clock, newId, Outbox, Transactions } from '@almanac/shared';
import { postPublished } from '../domain/blog-announcements';
import { PostRepository } from '../infrastructure/post.repository';
import { PostRevisionRepository } from '../infrastructure/post-revision.repository';
import { SearchRankingCache } from '../infrastructure/search-ranking-cache';

/**
 * Publishes scheduled posts whose time has come (docs/contract/blog.md, "Scheduled publishing").
 *
 * Durable: the schedule is the row itself (status + published_at), nothing lives in memory.
 * At most once: each claim is one UPDATE over rows locked FOR UPDATE SKIP LOCKED, so instances
 * running side by side take disjoint rows, and a row no longer `scheduled` is never claimed again.
 * Catch-up: a run at start-up publishes whatever fell due while no instance was running.
 * Readers never wait for it: queries already treat an overdue scheduled post as published.
 * History: the stored status changes, so each publication is a revision of its post like any write
 * that changes a stored field (one statement for the whole batch).
 */
@Injectable()
export class ScheduledPostPublisher implements OnApplicationBootstrap, OnModuleDestroy {
  static readonly INTERVAL_MS = 5_000;
  static readonly BATCH_SIZE = 100;

  private readonly logger = new Logger('ScheduledPostPublisher');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  private readonly posts: PostRepository;
  private readonly revisions: PostRevisionRepository;

  constructor(
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly rankings: SearchRankingCache,
    private readonly outbox: Outbox,
    config: AppConfig,
  ) {
    this.posts = new PostRepository(transactions, rankings, config);
    this.revisions = new PostRevisionRepository(transactions);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.tick();
    this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  /** Runs every INTERVAL_MS until stopped; a run never overlaps the previous one. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), ScheduledPostPublisher.INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Publishes every due post, in batches; returns the ids this call published. */
  async publishDue(): Promise<string[]> {
    const published: string[] = [];
    for (;;) {
      const now = this.clock.now();
      // Each publication is announced (post.published) in the transaction that makes it.
      const rows = await this.transactions.run(async () => {
        const claimed = await this.posts.claimDueScheduled(now, ScheduledPostPublisher.BATCH_SIZE);
        const targets = claimed.map((row) => ({ organizationId: row.organizationId, postId: row.id, id: newId() }));
        await this.revisions.record(targets, now);
        for (const row of claimed) {
          const view = await this.posts.findView(row.organizationId, row.id, now);
          if (view) await this.outbox.announce(postPublished(view, now));
        }
        return claimed;
      });
      published.push(...rows.map((row) => row.id));
      for (const organizationId of new Set(rows.map((row) => row.organizationId))) this.rankings.invalidate(organizationId);
      if (rows.length < ScheduledPostPublisher.BATCH_SIZE) return published;
    }
  }

  private async tick(): Promise<void> {
    if (this.running || !this.transactions.open()) return;
    const run = this.publishDue()
      .then((ids) => {
        if (ids.length > 0) this.logger.log({ published: ids.length }, 'published scheduled posts');
      })
      .catch((error: unknown) => this.logger.error({ err: error }, 'publishing scheduled posts failed'))
      .finally(() => {
        this.running = undefined;
      });
    this.running = run;
    await run;
  }
}
