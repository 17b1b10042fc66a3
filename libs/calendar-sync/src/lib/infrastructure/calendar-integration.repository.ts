import { Injectable } from '@nestjs/common';
import { Transactions } from '@almanac/shared';
import { CalendarIntegration, IMPORT_CLAIM_SECONDS } from '../domain/calendar-integration';

interface IntegrationRow {
  id: string;
  organization_id: string;
  provider: string;
  url: string;
  schedule_id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
  last_synced_at: Date | null;
}

const COLUMNS = 'id, organization_id, provider, url, schedule_id, name, created_at, updated_at, last_synced_at';

function toIntegration(row: IntegrationRow): CalendarIntegration {
  return {
    id: row.id,
    organizationId: row.organization_id,
    provider: row.provider,
    url: row.url,
    scheduleId: row.schedule_id,
    name: row.name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastSyncedAt: row.last_synced_at,
  };
}

/** What claiming an organization's import found. */
export type ImportClaim =
  | { status: 'claimed'; integration: CalendarIntegration }
  | { status: 'busy' }
  | { status: 'not_configured' };

/**
 * `calendar_integrations`, and the import's two guards. Statements run in the ambient transaction of
 * `Transactions` when there is one, else each on its own.
 */
@Injectable()
export class CalendarIntegrationRepository {
  constructor(private readonly db: Transactions) {}

  async find(organizationId: string): Promise<CalendarIntegration | null> {
    const [row] = await this.db.rows<IntegrationRow>(`SELECT ${COLUMNS} FROM calendar_integrations WHERE organization_id = $1`, [
      organizationId,
    ]);
    return row ? toIntegration(row) : null;
  }

  /** Creates or replaces the organization's integration (one statement). */
  async upsert(input: Omit<CalendarIntegration, 'createdAt' | 'updatedAt' | 'lastSyncedAt'>, now: Date): Promise<CalendarIntegration> {
    const [row] = await this.db.rows<IntegrationRow>(
      `INSERT INTO calendar_integrations (id, organization_id, provider, url, schedule_id, name, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
       ON CONFLICT (organization_id) DO UPDATE
         SET provider = EXCLUDED.provider, url = EXCLUDED.url, schedule_id = EXCLUDED.schedule_id,
             name = EXCLUDED.name, updated_at = EXCLUDED.updated_at
       RETURNING ${COLUMNS}`,
      [input.id, input.organizationId, input.provider, input.url, input.scheduleId, input.name, now],
    );
    return toIntegration(row!);
  }

  /** Deletes the organization's integration; its id, or null when there was none. */
  async remove(organizationId: string): Promise<string | null> {
    const [row] = await this.db.rows<{ id: string }>('DELETE FROM calendar_integrations WHERE organization_id = $1 RETURNING id', [
      organizationId,
    ]);
    return row?.id ?? null;
  }

  /**
   * Marks an import of the organization as started (one statement, no transaction, nothing held
   * afterwards) and reads the integration with it. `busy` while another run's claim has not expired;
   * a concurrent claim waits for this row's lock and then sees the new claim.
   */
  async claimImport(organizationId: string, claim: string): Promise<ImportClaim> {
    const [row] = await this.db.rows<IntegrationRow>(
      `UPDATE calendar_integrations
          SET import_claim = $2, import_claimed_until = now() + make_interval(secs => $3)
        WHERE organization_id = $1 AND (import_claimed_until IS NULL OR import_claimed_until <= now())
        RETURNING ${COLUMNS}`,
      [organizationId, claim, IMPORT_CLAIM_SECONDS],
    );
    if (row) return { status: 'claimed', integration: toIntegration(row) };
    return (await this.find(organizationId)) ? { status: 'busy' } : { status: 'not_configured' };
  }

  /** Ends a claim (only this run's: an expired one may have been taken over since). */
  async releaseImport(organizationId: string, claim: string): Promise<void> {
    await this.db.rows(
      `UPDATE calendar_integrations SET import_claim = NULL, import_claimed_until = NULL
        WHERE organization_id = $1 AND import_claim = $2`,
      [organizationId, claim],
    );
  }

  /**
   * The organization's import lock for the rest of the ambient transaction
   * (`pg_try_advisory_xact_lock`, released by its commit or rollback); false when another holds it.
   */
  async tryLockImport(organizationId: string): Promise<boolean> {
    const [row] = await this.db.rowsInTransaction<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked', [
      `calendar-sync:${organizationId}`,
    ]);
    return row!.locked;
  }

  /** Records the run's end on the integration and ends its claim. */
  async markSynced(organizationId: string, id: string, claim: string, at: Date): Promise<void> {
    await this.db.rows(
      `UPDATE calendar_integrations
          SET last_synced_at = $3,
              import_claim = CASE WHEN import_claim = $4 THEN NULL ELSE import_claim END,
              import_claimed_until = CASE WHEN import_claim = $4 THEN NULL ELSE import_claimed_until END
        WHERE organization_id = $1 AND id = $2`,
      [organizationId, id, at, claim],
    );
  }
}
