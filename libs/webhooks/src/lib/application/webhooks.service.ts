import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Scope } from '@almanac/identity';
import {
  AppConfig,
  assertChanges,
  AuditLog,
  AuditSource,
  Clock,
  ForbiddenError,
  isPublicAddress,
  ListTotal,
  maskSecretUrl,
  newId,
  NotFoundError,
  Outbox,
  Page,
  Precondition,
  Transactions,
  ValidationFailedError,
} from '@almanac/shared';
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DataSource } from 'typeorm';
import { DeliveryStatus, SECRET_OVERLAP_MS, WebhookDelivery, WebhookEndpoint } from '../domain/webhook';
import { MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION, WebhookLimitReachedError } from '../domain/webhook-errors';
import { WebhookRepository } from '../infrastructure/webhook.repository';
import { missingReadScopes } from './event-types';

export interface EndpointInput {
  url: string;
  events: string[];
  description?: string | null;
  enabled?: boolean;
}

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Webhook endpoints of an organization: subscribe, change, rotate the secret, read the delivery log, redeliver, ping. */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: Transactions,
    private readonly repository: WebhookRepository,
    private readonly outbox: Outbox,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  /**
   * At most MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION endpoints (409 `webhook_limit_reached`), also under
   * concurrency: the count and the insert run in one transaction under the organization's advisory lock.
   * `readScopes`: what the subscriber may read (an API key's scopes; every scope for an admin).
   */
  async create(organizationId: string, input: EndpointInput, readScopes: readonly Scope[], source: AuditSource): Promise<WebhookEndpoint> {
    assertMayRead(input.events, readScopes);
    await this.assertDeliverable(input.url);
    const now = this.clock.now();
    const endpoint: WebhookEndpoint = {
      id: newId(),
      organizationId,
      url: input.url,
      events: [...new Set(input.events)],
      description: input.description ?? null,
      enabled: input.enabled ?? true,
      secret: newWebhookSecret(),
      previousSecret: null,
      previousSecretExpiresAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.dataSource.transaction(async (em) => {
      await this.repository.lockEndpointsOf(em, organizationId);
      if ((await this.repository.countEndpoints(em, organizationId)) >= MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION)
        throw new WebhookLimitReachedError(MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION);
      await this.repository.insertEndpoint(em, endpoint);
      await this.audit.record(em, organizationId, source, 'webhook.created', { type: 'webhook', id: endpoint.id });
    });
    return endpoint;
  }

  list(organizationId: string, page: Page): Promise<{ items: WebhookEndpoint[]; total: ListTotal }> {
    return this.repository.listEndpoints(this.dataSource.manager, organizationId, page);
  }

  async get(organizationId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.repository.findEndpoint(this.dataSource.manager, organizationId, id);
    if (!endpoint) throw new NotFoundError('Webhook');
    return endpoint;
  }

  async update(
    organizationId: string,
    id: string,
    changes: Partial<EndpointInput>,
    readScopes: readonly Scope[],
    source: AuditSource,
    precondition = Precondition.none<WebhookEndpoint>(),
  ): Promise<WebhookEndpoint> {
    assertChanges({
      url: changes.url,
      events: changes.events,
      description: changes.description,
      enabled: changes.enabled,
    });
    if (changes.events !== undefined) assertMayRead(changes.events, readScopes);
    if (changes.url !== undefined) await this.assertDeliverable(changes.url);
    const events = changes.events === undefined ? undefined : [...new Set(changes.events)];
    const updated = await this.transactions.run(async () => {
      const em = this.transactions.manager();
      await precondition.checkLocked(() => this.repository.lockEndpoint(em, organizationId, id));
      const after = await this.repository.updateEndpoint(em, organizationId, id, { ...changes, events }, this.clock.now());
      if (after) await this.audit.record(em, organizationId, source, 'webhook.updated', { type: 'webhook', id });
      return after;
    });
    if (!updated) throw new NotFoundError('Webhook');
    return updated;
  }

  async delete(organizationId: string, id: string, source: AuditSource, precondition = Precondition.none<WebhookEndpoint>()): Promise<void> {
    const deleted = await this.transactions.run(async () => {
      const em = this.transactions.manager();
      await precondition.checkLocked(() => this.repository.lockEndpoint(em, organizationId, id));
      const gone = await this.repository.deleteEndpoint(em, organizationId, id);
      if (gone) await this.audit.record(em, organizationId, source, 'webhook.deleted', { type: 'webhook', id });
      return gone;
    });
    if (!deleted) throw new NotFoundError('Webhook');
  }

  /** A new secret; the old one keeps signing (beside the new) for 24 hours. The audit entry never holds either. */
  async rotateSecret(organizationId: string, id: string, source: AuditSource): Promise<WebhookEndpoint> {
    const now = this.clock.now();
    const rotated = await this.dataSource.transaction(async (em) => {
      const endpoint = await this.repository.rotateSecret(em, organizationId, id, newWebhookSecret(), now, new Date(now.getTime() + SECRET_OVERLAP_MS));
      if (endpoint) await this.audit.record(em, organizationId, source, 'webhook.secret_rotated', { type: 'webhook', id });
      return endpoint;
    });
    if (!rotated) throw new NotFoundError('Webhook');
    return rotated;
  }

  async deliveries(
    organizationId: string,
    id: string,
    status: DeliveryStatus | undefined,
    page: Page,
  ): Promise<{ items: WebhookDelivery[]; total: ListTotal }> {
    await this.get(organizationId, id);
    return this.repository.listDeliveries(this.dataSource.manager, organizationId, id, status, page);
  }

  async redeliver(organizationId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const delivery = await this.repository.redeliver(
      this.dataSource.manager,
      organizationId,
      id,
      deliveryId,
      this.clock.now(),
    );
    if (!delivery) throw new NotFoundError('Delivery');
    return delivery;
  }

  /** A `webhook.ping` event delivered to this endpoint alone (it is in the change feed too). */
  async ping(organizationId: string, id: string): Promise<WebhookDelivery> {
    return this.dataSource.transaction(async (em) => {
      const endpoint = await this.repository.findEndpoint(em, organizationId, id);
      if (!endpoint) throw new NotFoundError('Webhook');
      const now = this.clock.now();
      const [eventId] = await this.outbox.record(em, {
        type: 'webhook.ping',
        organizationId,
        // Kept 30 days and shown in the change feed: the URL as every answer shows it, masked.
        data: { id: endpoint.id, url: maskSecretUrl(endpoint.url) },
        occurredAt: now,
      });
      return this.repository.insertDelivery(
        em,
        organizationId,
        newId(),
        endpoint.id,
        eventId!,
        'webhook.ping',
        now,
      );
    });
  }

  /**
   * Loopback and private destinations are refused (unless WEBHOOK_ALLOW_PRIVATE_HOSTS): an address
   * literal at once, a name by what it resolves to now. A name that does not resolve is accepted;
   * every delivery checks the address again.
   */
  private async assertDeliverable(rawUrl: string): Promise<void> {
    if (this.config.webhookAllowPrivateHosts) return;
    const refused = new ValidationFailedError([
      { field: 'url', message: 'must not point to a loopback or private address' },
    ]);
    const host = new URL(rawUrl).hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      if (!isPublicAddress(host)) throw refused;
      return;
    }
    if (host === 'localhost' || host.endsWith('.localhost')) throw refused;
    let addresses: Array<{ address: string }>;
    try {
      // Bounded: a resolver that does not answer must not hold the request.
      addresses = await Promise.race([
        lookup(host, { all: true }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_000).unref()),
      ]);
    } catch {
      return;
    }
    if (addresses.some((a) => !isPublicAddress(a.address))) throw refused;
  }
}

/** 403 `forbidden` for a subscription to event types the subscriber may not read. */
function assertMayRead(events: readonly string[], readScopes: readonly Scope[]): void {
  const missing = missingReadScopes(events, readScopes);
  if (missing.events.length === 0) return;
  const scopes = missing.scopes.join(', ');
  throw new ForbiddenError(
    `Subscribing to ${missing.events.join(', ')} needs the ${scopes} scope${missing.scopes.length > 1 ? 's' : ''}, which this API key lacks.`,
  );
}
