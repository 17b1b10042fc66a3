import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../domain/clock';
import { newId } from '../domain/ids';
import { ListTotal, Page } from '../api/pagination';
import { AppConfig } from '../config/app-config';
import { pageWithTotal } from '../database/sql-client';

/** Everything the audit log records, and nothing else (the list's `action` filter takes these). */
export const AUDIT_ACTIONS = [
  'auth.signed_in',
  'auth.sign_in_failed',
  'auth.signed_out',
  'api_key.created',
  'api_key.revoked',
  'calendar_integration.set',
  'calendar_integration.removed',
  'calendar.import_ran',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'erasure.performed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: a signed-in user, or an API key (by its name, never its secret). */
export interface AuditActor {
  readonly type: 'user' | 'api_key';
  readonly id: string;
  readonly name: string;
}

/** Who made a request and from where: what an entry says besides its action and target. */
export interface AuditSource {
  /** Null for a refused sign-in, and for the command line and the demo seed (no request). */
  readonly actor: AuditActor | null;
  /** The client as per-client limits count it (TrustedProxies.clientOf: a trusted proxy's X-Forwarded-For, IPv6 by /64). */
  readonly ip: string | null;
  readonly requestId: string | null;
}

/** An action taken outside any request: the command line, the demo seed, tests. */
export const NO_AUDIT_SOURCE: AuditSource = { actor: null, ip: null, requestId: null };

/** What an action was done to: `{type: 'api_key', id}`, `{type: 'person', id: <SHA-256 of an erased address>}`… */
export interface AuditTarget {
  readonly type: string;
  readonly id: string;
}

export interface AuditEntry {
  readonly id: string;
  readonly at: Date;
  readonly action: AuditAction;
  readonly actor: AuditActor | null;
  readonly target: AuditTarget;
  readonly ip: string | null;
  readonly requestId: string | null;
}

interface AuditRow {
  id: string;
  at: Date;
  action: AuditAction;
  actor_type: 'user' | 'api_key' | null;
  actor_id: string | null;
  actor_name: string | null;
  target_type: string;
  target_id: string;
  ip: string | null;
  request_id: string | null;
  total?: string;
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at,
    action: row.action,
    actor: row.actor_type === null ? null : { type: row.actor_type, id: row.actor_id!, name: row.actor_name ?? '' },
    target: { type: row.target_type, id: row.target_id },
    ip: row.ip,
    requestId: row.request_id,
  };
}

const COLUMNS = 'id, at, action, actor_type, actor_id, actor_name, target_type, target_id, ip, request_id';

/**
 * The audit log: the one port through which every context records who did what to keys,
 * integrations, imports, webhooks and people's data, like the Outbox, on the `EntityManager` of the
 * action's own transaction, so an action that rolls back leaves no entry and a committed one always
 * has its entry. The table is append-only by the database's own rule (a trigger refuses UPDATE,
 * DELETE and TRUNCATE; only an organization's deletion takes its entries with it). An entry never
 * holds a secret, a key, a password or an erased address: callers pass ids and names only.
 */
@Injectable()
export class AuditLog {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async record(em: EntityManager, organizationId: string, source: AuditSource, action: AuditAction, target: AuditTarget): Promise<void> {
    await em.query(
      `INSERT INTO audit_log (organization_id, ${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        organizationId,
        newId(),
        this.clock.now(),
        action,
        source.actor?.type ?? null,
        source.actor?.id ?? null,
        source.actor?.name ?? null,
        target.type,
        target.id,
        source.ip,
        source.requestId,
      ],
    );
  }

  /** The organization's entries, newest first, of one action when given. */
  async page(organizationId: string, action: AuditAction | undefined, page: Page): Promise<{ items: AuditEntry[]; total: ListTotal }> {
    const { rows, total } = await pageWithTotal<AuditRow>(
      this.dataSource.manager,
      {
        columns: COLUMNS,
        from: 'FROM audit_log WHERE organization_id = $1 AND ($2::text IS NULL OR action = $2)',
        orderBy: 'at DESC, id DESC',
      },
      [organizationId, action ?? null],
      page,
      this.config.listCountCap,
    );
    return { items: rows.map(toEntry), total };
  }
}
