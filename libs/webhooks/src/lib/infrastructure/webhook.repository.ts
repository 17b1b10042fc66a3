import { Injectable } from '@nestjs/common';
import { AppConfig, ListTotal, Page, pageWithTotal, rowsOf } from '@almanac/shared';
import type { EntityManager } from 'typeorm';
import { ClaimedDelivery, DeliveryStatus, FeedEvent, FeedPosition, WebhookDelivery, WebhookEndpoint } from '../domain/webhook';

interface EndpointRow {
  id: string;
  organization_id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  created_at: Date;
}

/** A delivery claimed for one attempt, with what it takes to make it. */
const ENDPOINT_COLUMNS =
  'id, organization_id, url, events, description, enabled, secret, previous_secret, previous_secret_expires_at, created_at, updated_at';
const DELIVERY_COLUMNS =
  'id, endpoint_id, event_id, event_type, status, attempts, last_attempt_at, next_attempt_at, response_status, response_body, error, created_at';

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    organizationId: row.organization_id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.next_attempt_at,
    responseStatus: row.response_status,
    responseBody: row.response_body,
    error: row.error,
    createdAt: row.created_at,
  };
}


/** Endpoints, deliveries, the fan-out of the outbox and the change feed: every statement of the webhooks context. */
@Injectable()
export class WebhookRepository {
  constructor(private readonly config: AppConfig) {}

  async insertEndpoint(em: EntityManager, e: WebhookEndpoint): Promise<void> {
    await em.query(
      `INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        e.id,
        e.organizationId,
        e.url,
        e.events,
        e.description,
        e.enabled,
        e.secret,
        e.previousSecret,
        e.previousSecretExpiresAt,
        e.createdAt,
        e.updatedAt,
      ],
    );
  }

  /**
   * Serializes, until the transaction `em` belongs to ends, the creation of endpoints in one
   * organization: each create counts and inserts after the previous one committed or rolled back.
   */
  async lockEndpointsOf(em: EntityManager, organizationId: string): Promise<void> {
    await em.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`webhook-endpoints:${organizationId}`]);
  }

  async countEndpoints(em: EntityManager, organizationId: string): Promise<number> {
    const [row] = await rowsOf<{ n: string }>(em, 'SELECT count(*) AS n FROM webhook_endpoints WHERE organization_id = $1', [
      organizationId,
    ]);
    return Number(row!.n);
  }

  async findEndpoint(em: EntityManager, organizationId: string, id: string): Promise<WebhookEndpoint | null> {
    const [row] = await rowsOf<EndpointRow>(
      em,
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return row ? toEndpoint(row) : null;
  }

  /** The endpoint as it is now, its row locked until the transaction ends (a write's precondition). */
  async lockEndpoint(em: EntityManager, organizationId: string, id: string): Promise<WebhookEndpoint | null> {
    const [row] = await rowsOf<EndpointRow>(
      em,
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, id],
    );
    return row ? toEndpoint(row) : null;
  }

  async listEndpoints(
    em: EntityManager,
    organizationId: string,
    page: Page,
  ): Promise<{ items: WebhookEndpoint[]; total: ListTotal }> {
    const { rows: found, total } = await pageWithTotal<EndpointRow>(
      em,
      { columns: ENDPOINT_COLUMNS, from: 'FROM webhook_endpoints WHERE organization_id = $1', orderBy: 'created_at, id' },
      [organizationId],
      page,
      this.config.listCountCap,
    );
    return { items: found.map(toEndpoint), total };
  }

  async updateEndpoint(
    em: EntityManager,
    organizationId: string,
    id: string,
    changes: Partial<Pick<WebhookEndpoint, 'url' | 'events' | 'description' | 'enabled'>>,
    now: Date,
  ): Promise<WebhookEndpoint | null> {
    const [row] = await rowsOf<EndpointRow>(
      em,
      `UPDATE webhook_endpoints
          SET url = CASE WHEN $3 THEN $4 ELSE url END,
              events = CASE WHEN $5 THEN $6::text[] ELSE events END,
              description = CASE WHEN $7 THEN $8 ELSE description END,
              enabled = CASE WHEN $9 THEN $10 ELSE enabled END,
              updated_at = $11
        WHERE organization_id = $1 AND id = $2
       RETURNING ${ENDPOINT_COLUMNS}`,
      [
        organizationId,
        id,
        changes.url !== undefined,
        changes.url ?? null,
        changes.events !== undefined,
        changes.events ?? null,
        changes.description !== undefined,
        changes.description ?? null,
        changes.enabled !== undefined,
        changes.enabled ?? null,
        now,
      ],
    );
    return row ? toEndpoint(row) : null;
  }

  async deleteEndpoint(em: EntityManager, organizationId: string, id: string): Promise<boolean> {
    const deleted = await rowsOf(
      em,
      'DELETE FROM webhook_endpoints WHERE organization_id = $1 AND id = $2 RETURNING id',
      [organizationId, id],
    );
    return deleted.length > 0;
  }

  async rotateSecret(
    em: EntityManager,
    organizationId: string,
    id: string,
    secret: string,
    now: Date,
    overlapUntil: Date,
  ): Promise<WebhookEndpoint | null> {
    const [row] = await rowsOf<EndpointRow>(
      em,
      `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = $4, secret = $3, updated_at = $5
        WHERE organization_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
      [organizationId, id, secret, overlapUntil, now],
    );
    return row ? toEndpoint(row) : null;
  }

  async listDeliveries(
    em: EntityManager,
    organizationId: string,
    endpointId: string,
    status: DeliveryStatus | undefined,
    page: Page,
  ): Promise<{ items: WebhookDelivery[]; total: ListTotal }> {
    const { rows: found, total } = await pageWithTotal<DeliveryRow>(
      em,
      {
        columns: DELIVERY_COLUMNS,
        from: 'FROM webhook_deliveries WHERE organization_id = $1 AND endpoint_id = $2 AND ($3::text IS NULL OR status = $3)',
        orderBy: 'created_at DESC, id DESC',
      },
      [organizationId, endpointId, status ?? null],
      page,
      this.config.listCountCap,
    );
    return { items: found.map(toDelivery), total };
  }

  async findDelivery(
    em: EntityManager,
    organizationId: string,
    endpointId: string,
    id: string,
  ): Promise<WebhookDelivery | null> {
    const [row] = await rowsOf<DeliveryRow>(
      em,
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE organization_id = $1 AND endpoint_id = $2 AND id = $3`,
      [organizationId, endpointId, id],
    );
    return row ? toDelivery(row) : null;
  }

  /** Pending again, due now, with a fresh set of attempts. */
  async redeliver(
    em: EntityManager,
    organizationId: string,
    endpointId: string,
    id: string,
    now: Date,
  ): Promise<WebhookDelivery | null> {
    const [row] = await rowsOf<DeliveryRow>(
      em,
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = $4, lease_until = NULL
        WHERE organization_id = $1 AND endpoint_id = $2 AND id = $3 RETURNING ${DELIVERY_COLUMNS}`,
      [organizationId, endpointId, id, now],
    );
    return row ? toDelivery(row) : null;
  }

  /** A delivery of one event to one endpoint, due now (ping). */
  async insertDelivery(
    em: EntityManager,
    organizationId: string,
    id: string,
    endpointId: string,
    eventId: string,
    eventType: string,
    now: Date,
  ): Promise<WebhookDelivery> {
    await em.query('UPDATE outbox_events SET fanned_out = true WHERE organization_id = $1 AND id = $2', [
      organizationId,
      eventId,
    ]);
    const [row] = await rowsOf<DeliveryRow>(
      em,
      `INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, 'pending', 0, $6, $6) RETURNING ${DELIVERY_COLUMNS}`,
      [organizationId, id, endpointId, eventId, eventType, now],
    );
    return toDelivery(row!);
  }

  /**
   * Fans out up to `limit` committed outbox events into one pending delivery per enabled endpoint
   * subscribed to their type. Events are claimed with SKIP LOCKED and marked in the same statement,
   * so concurrent instances fan out each event exactly once.
   */
  async fanOut(em: EntityManager, now: Date, limit: number): Promise<{ events: number; deliveries: number }> {
    const [row] = await rowsOf<{ events: string; deliveries: string }>(
      em,
      `WITH claimed AS (
         SELECT organization_id, id FROM outbox_events WHERE NOT fanned_out ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED
       ), marked AS (
         UPDATE outbox_events o SET fanned_out = true FROM claimed c
          WHERE o.organization_id = c.organization_id AND o.id = c.id
         RETURNING o.organization_id, o.id, o.type
       ), inserted AS (
         INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
         SELECT m.organization_id, gen_random_uuid(), w.id, m.id, m.type, 'pending', 0, $1, $1
           FROM marked m
           JOIN webhook_endpoints w ON w.organization_id = m.organization_id AND w.enabled
                                   AND (m.type = ANY (w.events) OR '*' = ANY (w.events))
         ON CONFLICT DO NOTHING
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM marked) AS events, (SELECT count(*) FROM inserted) AS deliveries`,
      [now, limit],
    );
    return { events: Number(row!.events), deliveries: Number(row!.deliveries) };
  }

  /**
   * Claims up to `limit` due deliveries for one attempt each, fairly: no endpoint gets more than
   * `caps.endpoint` attempts in flight (`caps.timingOut` while its last attempts timed out), no
   * organization more than `caps.organization`, counting the deliveries under a lease on every
   * instance, and the claim takes each organization's earliest due delivery before anyone's second.
   * Endpoints that are disabled (their deliveries stay `pending`, untouched, until they are enabled
   * again) or paused after timeouts are passed over.
   *
   * The caps hold across instances because claims take turns: the caller runs this in a transaction,
   * and the first statement waits for a transaction-scoped advisory lock, so each claim counts the
   * leases of the claims before it (their transactions have committed). SKIP LOCKED leaves rows
   * that another statement is changing (a redelivery, a recorded attempt) to the next claim.
   */
  async claimDue(
    em: EntityManager,
    now: Date,
    lease: Date,
    limit: number,
    caps: { endpoint: number; timingOut: number; organization: number },
  ): Promise<ClaimedDelivery[]> {
    await em.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', ['webhook-delivery-claims']);
    const chosen = await rowsOf<{ organization_id: string; id: string }>(
      em,
      `WITH busy AS (
         SELECT organization_id, endpoint_id, count(*)::int AS n FROM webhook_deliveries
          WHERE lease_until IS NOT NULL AND lease_until >= $1
          GROUP BY organization_id, endpoint_id
       ), busy_orgs AS (
         SELECT organization_id, sum(n)::int AS n FROM busy GROUP BY organization_id
       ), ready AS (
         SELECT w.organization_id, w.id,
                GREATEST(0, CASE WHEN w.consecutive_timeouts > 0 THEN $4::int ELSE $3::int END - coalesce(b.n, 0)) AS room
           FROM webhook_endpoints w
           LEFT JOIN busy b ON b.organization_id = w.organization_id AND b.endpoint_id = w.id
          WHERE w.enabled AND (w.paused_until IS NULL OR w.paused_until <= $1)
       ), candidates AS (
         SELECT d.organization_id, d.id, d.next_attempt_at,
                row_number() OVER (PARTITION BY d.organization_id ORDER BY d.next_attempt_at, d.id) AS turn
           FROM ready r
           CROSS JOIN LATERAL (
             SELECT organization_id, id, next_attempt_at FROM webhook_deliveries
              WHERE organization_id = r.organization_id AND endpoint_id = r.id AND status = 'pending'
                AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
              ORDER BY next_attempt_at LIMIT r.room
           ) d
          WHERE r.room > 0
       )
       SELECT c.organization_id, c.id FROM candidates c
         LEFT JOIN busy_orgs o ON o.organization_id = c.organization_id
        WHERE c.turn <= $5::int - coalesce(o.n, 0)
        ORDER BY c.turn, c.next_attempt_at
        LIMIT $2`,
      [now, limit, caps.endpoint, caps.timingOut, caps.organization],
    );
    if (chosen.length === 0) return [];
    // The chosen rows by their keys (a handful of index lookups), each still due when it is locked,
    // of an endpoint still enabled and not paused by an attempt that timed out meanwhile.
    const claimed = await rowsOf<{
      organization_id: string;
      id: string;
      attempts: number;
      endpoint_id: string;
      url: string;
      secret: string;
      previous_secret: string | null;
      previous_secret_expires_at: Date | null;
      consecutive_timeouts: number;
      event_id: string;
      type: string;
      created_at: Date;
      data: unknown;
      previous_status: string | null;
    }>(
      em,
      `WITH due AS (
         SELECT d.organization_id, d.id FROM webhook_deliveries d
          WHERE (d.organization_id, d.id) IN (SELECT * FROM unnest($3::uuid[], $4::uuid[]))
            AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until < $1)
            FOR UPDATE SKIP LOCKED
       )
       UPDATE webhook_deliveries d SET lease_until = $2, attempts = d.attempts + 1, last_attempt_at = $1
         FROM due, webhook_endpoints w, outbox_events e
        WHERE d.organization_id = due.organization_id AND d.id = due.id
          AND w.organization_id = d.organization_id AND w.id = d.endpoint_id AND w.enabled
          AND (w.paused_until IS NULL OR w.paused_until <= $1)
          AND e.organization_id = d.organization_id AND e.id = d.event_id
       RETURNING d.organization_id, d.id, d.attempts, w.id AS endpoint_id, w.url, w.secret, w.previous_secret,
                 w.previous_secret_expires_at, w.consecutive_timeouts, e.id AS event_id, e.type, e.created_at, e.data,
                 e.previous_status`,
      [now, lease, chosen.map((c) => c.organization_id), chosen.map((c) => c.id)],
    );
    return claimed.map((r) => ({
      organizationId: r.organization_id,
      deliveryId: r.id,
      attempts: r.attempts,
      lease,
      endpoint: {
        id: r.endpoint_id,
        url: r.url,
        secret: r.secret,
        previousSecret: r.previous_secret,
        previousSecretExpiresAt: r.previous_secret_expires_at,
        timeoutsAtClaim: r.consecutive_timeouts,
      },
      event: {
        id: r.event_id,
        type: r.type,
        createdAt: r.created_at,
        data: r.data,
        previousStatus: r.previous_status,
      },
    }));
  }

  /**
   * The outcome of one attempt, written only while this attempt still holds the lease, with what it
   * says of the endpoint in the same statement: `gone` disables it; a timeout adds to its timeouts in
   * a row (never below `timeouts.count`, so attempts that ran side by side count once) and pauses it
   * until `timeouts.pausedUntil`; any answer (a response status) clears both. An endpoint with
   * nothing to change is not written.
   */
  async recordAttempt(
    em: EntityManager,
    claimed: ClaimedDelivery,
    outcome: {
      status: DeliveryStatus;
      nextAttemptAt: Date | null;
      responseStatus: number | null;
      responseBody: string | null;
      error: string | null;
      gone: boolean;
      timeouts: { count: number; pausedUntil: Date } | null;
    },
    now: Date,
  ): Promise<void> {
    await em.query(
      `WITH recorded AS (
         UPDATE webhook_deliveries
            SET status = $4, next_attempt_at = $5, response_status = $6, response_body = $7, error = $8, lease_until = NULL
          WHERE organization_id = $1 AND id = $2 AND lease_until = $3
         RETURNING organization_id, endpoint_id
       )
       UPDATE webhook_endpoints w
          SET enabled = CASE WHEN $9 THEN false ELSE w.enabled END,
              updated_at = CASE WHEN $9 THEN $12 ELSE w.updated_at END,
              consecutive_timeouts = CASE WHEN $10::int IS NOT NULL THEN GREATEST(w.consecutive_timeouts, $10::int)
                                          WHEN $6::int IS NOT NULL THEN 0 ELSE w.consecutive_timeouts END,
              paused_until = CASE WHEN $10::int IS NOT NULL THEN GREATEST(w.paused_until, $11::timestamptz)
                                  WHEN $6::int IS NOT NULL THEN NULL ELSE w.paused_until END
         FROM recorded r
        WHERE w.organization_id = r.organization_id AND w.id = r.endpoint_id
          AND ($9 OR $10::int IS NOT NULL OR ($6::int IS NOT NULL AND (w.consecutive_timeouts > 0 OR w.paused_until IS NOT NULL)))`,
      [
        claimed.organizationId,
        claimed.deliveryId,
        claimed.lease,
        outcome.status,
        outcome.nextAttemptAt,
        outcome.responseStatus,
        outcome.responseBody,
        outcome.error,
        outcome.gone,
        outcome.timeouts?.count ?? null,
        outcome.timeouts?.pausedUntil ?? null,
        now,
      ],
    );
  }

  /** Drops events and deliveries older than `before`. */
  async sweep(em: EntityManager, before: Date): Promise<void> {
    await em.query('DELETE FROM webhook_deliveries WHERE created_at < $1', [before]);
    await em.query('DELETE FROM outbox_events WHERE created_at < $1 AND fanned_out', [before]);
  }

  /**
   * The change feed: events of the organization after `after`, oldest first, of the given types,
   * among transactions that can no longer be overtaken. Events are ordered by the id of the
   * transaction that wrote them, then by their order in it; only transactions older than every
   * transaction still running (`pg_snapshot_xmin`) are shown, so an event can never appear behind
   * a position a reader has already passed. The ORDER BY names the table's columns: a bare `tx_id`
   * would be the text output column of the same name, ordering transaction 1000 before 951.
   */
  async changes(
    em: EntityManager,
    organizationId: string,
    after: FeedPosition | null,
    types: string[],
    limit: number,
  ): Promise<FeedEvent[]> {
    const found = await rowsOf<{
      id: string;
      type: string;
      created_at: Date;
      data: unknown;
      previous_status: string | null;
      tx_id: string;
      seq: string;
    }>(
      em,
      `SELECT id, type, created_at, data, previous_status, tx_id::text AS tx_id, seq::text AS seq
         FROM outbox_events
        WHERE organization_id = $1
          AND ($2::xid8 IS NULL OR (tx_id, seq) > ($2::xid8, $3::bigint))
          AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
          AND type = ANY ($4::text[])
        ORDER BY outbox_events.tx_id, outbox_events.seq
        LIMIT $5`,
      [organizationId, after?.txId ?? null, after?.seq ?? null, types, limit],
    );
    return found.map((r) => ({
      id: r.id,
      type: r.type,
      createdAt: r.created_at,
      data: r.data,
      previousStatus: r.previous_status,
      txId: r.tx_id,
      seq: r.seq,
    }));
  }
}
