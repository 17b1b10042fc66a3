import { Injectable } from '@nestjs/common';
import { AppConfig, ListTotal, Page, pageWithTotal, Transactions } from '@almanac/shared';
import { SyncRun, SyncSummary } from '../domain/sync-run';

interface SyncRow {
  id: string;
  organization_id: string;
  started_at: Date;
  finished_at: Date;
  start_date: Date;
  end_date: Date;
  status: 'succeeded' | 'failed';
  summary: SyncSummary | null;
  error_code: string | null;
  error_message: string | null;
  total: string;
}

/**
 * The import's history: written by the import, read by the admin console. Statements run in the
 * ambient transaction of `Transactions` (the import's own when it succeeded), else on their own.
 */
@Injectable()
export class CalendarSyncHistoryRepository {
  constructor(
    private readonly db: Transactions,
    private readonly config: AppConfig,
  ) {}

  async record(run: SyncRun): Promise<void> {
    await this.db.rows(
      `INSERT INTO calendar_syncs (organization_id, id, started_at, finished_at, start_date, end_date, status, summary, error_code, error_message)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        run.organizationId,
        run.id,
        run.startedAt,
        run.finishedAt,
        run.startDate,
        run.endDate,
        run.status,
        run.summary === null ? null : JSON.stringify(run.summary),
        run.error?.code ?? null,
        run.error?.message ?? null,
      ],
    );
  }

  /** The organization's runs, newest first. */
  async list(organizationId: string, page: Page): Promise<{ items: SyncRun[]; total: ListTotal }> {
    const { rows, total } = await pageWithTotal<SyncRow>(
      (sql, params) => this.db.rows(sql, params),
      {
        columns: 'id, organization_id, started_at, finished_at, start_date, end_date, status, summary, error_code, error_message',
        from: 'FROM calendar_syncs WHERE organization_id = $1',
        orderBy: 'started_at DESC, id DESC',
      },
      [organizationId],
      page,
      this.config.listCountCap,
    );
    return {
      total,
      items: rows.map((row) => ({
        id: row.id,
        organizationId: row.organization_id,
        startedAt: row.started_at,
        finishedAt: row.finished_at,
        startDate: row.start_date,
        endDate: row.end_date,
        status: row.status,
        summary: row.summary,
        error: row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? '' },
      })),
    };
  }
}
