import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppConfig, Clock, FetchFailedError, loggableError, safePost } from '@almanac/shared';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { nextAttemptAt, verdictOf } from '../domain/retry-schedule';
import {
  afterTimeout,
  ATTEMPTS_PER_INSTANCE,
  MAX_IN_FLIGHT_PER_ENDPOINT,
  MAX_IN_FLIGHT_PER_ORGANIZATION,
  MAX_IN_FLIGHT_WHILE_TIMING_OUT,
} from '../domain/delivery-limits';
import { ClaimedDelivery, RESPONSE_BODY_BYTES, RETENTION_MS, signingSecrets } from '../domain/webhook';
import { WebhookRepository } from '../infrastructure/webhook.repository';
import { WebhookMetrics } from '../infrastructure/webhook-metrics';

/** Outbox events fanned out per statement. */
const FAN_OUT_BATCH = 500;
/** An attempt holds its delivery this long (well past the 10 s timeout) before another instance may retry it. */
const LEASE_MS = 60_000;
const DELIVERY_TIMEOUT_MS = 10_000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;
const CAPS = {
  endpoint: MAX_IN_FLIGHT_PER_ENDPOINT,
  timingOut: MAX_IN_FLIGHT_WHILE_TIMING_OUT,
  organization: MAX_IN_FLIGHT_PER_ORGANIZATION,
};

/** The JSON body of a delivery and a change-feed entry (docs/contract/webhooks.md, "Payload"). */
export function eventPayload(
  organizationId: string,
  event: ClaimedDelivery['event'],
): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    id: event.id,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    organization_id: organizationId,
    data: event.data,
  };
  if (event.previousStatus !== null) payload['previous_status'] = event.previousStatus;
  return payload;
}

/**
 * Turns outbox events into signed webhook deliveries. Every instance runs one: fan-out and claims
 * use row locks (SKIP LOCKED) and leases, so each event reaches each endpoint once however many
 * instances run (retries aside), and a delivery whose instance died is retried once its lease ends.
 *
 * Attempts run in a pool of ATTEMPTS_PER_INSTANCE that is refilled as each one ends (no round waits
 * for its slowest attempt), and each claim is fair (see `WebhookRepository.claimDue`): an endpoint
 * or an organization holds only so many attempts at once, on all instances together, and an
 * endpoint that keeps timing out is paused, so one that hangs cannot delay anyone else's deliveries.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private lastSweep = 0;
  /** The attempts under way on this instance. */
  private readonly inFlight = new Set<Promise<void>>();
  /** The claim under way, if any, and whether another was asked for while it ran. */
  private claiming: Promise<number> | undefined;
  private claimAgain = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: WebhookRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly metrics: WebhookMetrics,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.webhookDispatcher) this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.claiming?.catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Fans out what is committed, then attempts every delivery that is due (as the pool and the caps
   * allow, claim after claim), and resolves once no attempt is under way and nothing more is due.
   * Tests call it to make deliveries happen deterministically.
   */
  async runOnce(): Promise<void> {
    while (await this.fanOut(this.clock.now()));
    for (;;) {
      const started = await this.fill();
      if (this.inFlight.size > 0) await Promise.race(this.inFlight);
      else if (started === 0) return;
    }
  }

  /** The loop of every instance: fan out, sweep now and then, and top the pool up, every poll. */
  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.tick()
        .catch((error: unknown) => {
          this.logger.warn({ err: loggableError(error) }, 'webhook dispatch failed; retrying');
          return false;
        })
        .then((more) => this.schedule(more ? 0 : this.config.webhookPollMs));
    }, ms);
    this.timer.unref();
  }

  /** True when fan-out left events for another tick at once. */
  private async tick(): Promise<boolean> {
    const now = this.clock.now();
    const more = await this.fanOut(now);
    if (now.getTime() - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = now.getTime();
      await this.repository.sweep(this.dataSource.manager, new Date(now.getTime() - RETENTION_MS));
    }
    await this.fill();
    return more;
  }

  /** Fans out committed events, up to ten statements' worth; true when more are waiting. */
  private async fanOut(now: Date): Promise<boolean> {
    let fannedOut = FAN_OUT_BATCH;
    for (let i = 0; i < 10 && fannedOut === FAN_OUT_BATCH; i++) {
      fannedOut = (await this.repository.fanOut(this.dataSource.manager, now, FAN_OUT_BATCH)).events;
    }
    return fannedOut === FAN_OUT_BATCH;
  }

  /**
   * Claims due deliveries for the free places of the pool and starts their attempts; resolves with
   * how many it started. One claim runs at a time on an instance: a call made meanwhile (an attempt
   * ended) makes it claim once more before it ends, so freed places are filled without a claim per
   * attempt, and no call is left unanswered.
   */
  private fill(): Promise<number> {
    this.claimAgain = true;
    return (this.claiming ??= this.claimWhileAsked());
  }

  private async claimWhileAsked(): Promise<number> {
    await null; // `this.claiming` is set before this can end
    let started = 0;
    try {
      while (this.claimAgain && !this.stopped) {
        this.claimAgain = false;
        const free = ATTEMPTS_PER_INSTANCE - this.inFlight.size;
        if (free <= 0) break; // the next attempt to end asks again
        const now = this.clock.now();
        const claimed = await this.dataSource.transaction((em) =>
          this.repository.claimDue(em, now, new Date(now.getTime() + LEASE_MS), free, CAPS),
        );
        for (const delivery of claimed) this.start(delivery);
        started += claimed.length;
      }
    } finally {
      // Right after the last check of `claimAgain`, with no wait between: a later call starts a new claim.
      this.claiming = undefined;
    }
    return started;
  }

  private start(delivery: ClaimedDelivery): void {
    const attempt: Promise<void> = this.attempt(delivery)
      .catch((error: unknown) => {
        // Its lease ends on its own, and another attempt follows.
        this.logger.warn({ err: loggableError(error), delivery_id: delivery.deliveryId }, 'webhook attempt not recorded');
      })
      .finally(() => {
        this.inFlight.delete(attempt);
        if (!this.stopped) this.fill().catch((error: unknown) => this.logger.warn({ err: loggableError(error) }, 'webhook claim failed'));
      });
    this.inFlight.add(attempt);
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const now = this.clock.now();
    const body = JSON.stringify(eventPayload(delivery.organizationId, delivery.event));
    const signature = signingSecrets(delivery.endpoint, now)
      .map((secret) => new Webhook(secret).sign(delivery.event.id, now, body))
      .join(' ');
    let responseStatus: number | null = null;
    let responseBody: string | null = null;
    let error: string | null = null;
    let timedOut = false;
    try {
      const answer = await safePost(
        delivery.endpoint.url,
        body,
        {
          'Content-Type': 'application/json',
          'User-Agent': 'Almanac-Webhooks/1.0',
          'webhook-id': delivery.event.id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signature,
        },
        {
          timeoutMs: DELIVERY_TIMEOUT_MS,
          maxBytes: RESPONSE_BODY_BYTES,
          allowPrivateHosts: this.config.webhookAllowPrivateHosts,
        },
      );
      responseStatus = answer.status;
      responseBody = answer.body;
      if (answer.status >= 300 && answer.status < 400) error = 'redirects are not followed';
      else if (answer.status < 200 || answer.status >= 300)
        error = `the endpoint answered HTTP ${answer.status}`;
    } catch (failure) {
      error = failure instanceof FetchFailedError ? failure.message : 'the delivery failed';
      timedOut = failure instanceof FetchFailedError && failure.timedOut;
    }
    const verdict = verdictOf(responseStatus);
    const finished = this.clock.now();
    const next =
      verdict === 'retry' ? nextAttemptAt(finished, delivery.attempts, this.policy, Math.random()) : null;
    const status = verdict === 'succeeded' ? 'succeeded' : next ? 'pending' : 'failed';
    if (status === 'succeeded') this.metrics.delivered(delivery.event.createdAt, finished);
    const timeouts = timedOut ? afterTimeout(delivery.endpoint.timeoutsAtClaim) : null;
    await this.repository.recordAttempt(
      this.dataSource.manager,
      delivery,
      {
        status,
        nextAttemptAt: next,
        responseStatus,
        responseBody,
        error,
        gone: verdict === 'gone',
        timeouts: timeouts && { count: timeouts.count, pausedUntil: new Date(finished.getTime() + timeouts.pauseMs) },
      },
      finished,
    );
  }

  private get policy() {
    return { maxAttempts: this.config.webhookMaxAttempts, baseSeconds: this.config.webhookRetryBaseSeconds };
  }
}
