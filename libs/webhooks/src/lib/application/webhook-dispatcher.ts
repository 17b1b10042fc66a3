import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppConfig, Clock, FetchFailedError, loggableError, safePost } from '@almanac/shared';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { nextAttemptAt, verdictOf } from '../domain/retry-schedule';
import { RESPONSE_BODY_BYTES, RETENTION_MS, signingSecrets } from '../domain/webhook';
import { ClaimedDelivery, WebhookRepository } from '../infrastructure/webhook.repository';
import { WebhookMetrics } from '../infrastructure/webhook-metrics';

/** Outbox events fanned out per statement, and deliveries attempted per round. */
const FAN_OUT_BATCH = 500;
const DELIVERY_BATCH = 64;
/** An attempt holds its delivery this long (well past the 10 s timeout) before another instance may retry it. */
const LEASE_MS = 60_000;
const DELIVERY_TIMEOUT_MS = 10_000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

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
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private current: Promise<boolean> | undefined;
  private lastSweep = 0;

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
    await this.current?.catch(() => undefined);
  }

  /**
   * One round: fan out what is committed, then attempt every delivery that is due. Resolves when the
   * attempts have been recorded; true when more work was left for another round at once. Tests call
   * it directly to make deliveries happen deterministically.
   */
  runOnce(): Promise<boolean> {
    const run = (this.current ?? Promise.resolve(false)).catch(() => false).then(() => this.round());
    this.current = run;
    return run;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.runOnce()
        .catch((error: unknown) => {
          this.logger.warn({ err: loggableError(error) }, 'webhook round failed; retrying');
          return false;
        })
        .then((more) => this.schedule(more ? 0 : this.config.webhookPollMs));
    }, ms);
    this.timer.unref();
  }

  private async round(): Promise<boolean> {
    const now = this.clock.now();
    const em = this.dataSource.manager;
    let fannedOut = FAN_OUT_BATCH;
    for (let i = 0; i < 10 && fannedOut === FAN_OUT_BATCH; i++) {
      fannedOut = (await this.repository.fanOut(em, now, FAN_OUT_BATCH)).events;
    }
    const claimed = await this.repository.claimDue(
      em,
      now,
      new Date(now.getTime() + LEASE_MS),
      DELIVERY_BATCH,
    );
    await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
    if (now.getTime() - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = now.getTime();
      await this.repository.sweep(em, new Date(now.getTime() - RETENTION_MS));
    }
    return fannedOut === FAN_OUT_BATCH || claimed.length === DELIVERY_BATCH;
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
    }
    const verdict = verdictOf(responseStatus);
    const finished = this.clock.now();
    const next =
      verdict === 'retry' ? nextAttemptAt(finished, delivery.attempts, this.policy, Math.random()) : null;
    const status = verdict === 'succeeded' ? 'succeeded' : next ? 'pending' : 'failed';
    if (status === 'succeeded') this.metrics.delivered(delivery.event.createdAt, finished);
    await this.dataSource.transaction(async (em) => {
      await this.repository.recordAttempt(em, delivery, {
        status,
        nextAttemptAt: next,
        responseStatus,
        responseBody,
        error,
      });
      if (verdict === 'gone')
        await this.repository.disableEndpoint(em, delivery.organizationId, delivery.endpoint.id, finished);
    });
  }

  private get policy() {
    return { maxAttempts: this.config.webhookMaxAttempts, baseSeconds: this.config.webhookRetryBaseSeconds };
  }
}
