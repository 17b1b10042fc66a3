import { Injectable } from '@nestjs/common';
import { AppConfig, ListTotal, Page, SqlParams, Transactions } from '@almanac/shared';
import type { Schedule, ScheduleChanges } from '../domain/schedule';
import { SCHEDULE_TABLE } from './schedule.table';
import { pageWithTotal } from './sql';

type ScheduleRow = Record<string, unknown> & { total?: string };

const COLUMNS = SCHEDULE_TABLE.select();
const toSchedule = (row: ScheduleRow): Schedule => SCHEDULE_TABLE.fromRow(row);

/** Schedules in PostgreSQL; statements run in the ambient unit of work (`Transactions`), or on their own. */
@Injectable()
export class ScheduleRepository {
  constructor(
    private readonly db: Transactions,
    private readonly config: AppConfig,
  ) {}

  async insert(schedule: Schedule): Promise<Schedule> {
    const insert = SCHEDULE_TABLE.insert(schedule);
    const rows = await this.db.rows<ScheduleRow>(`${insert.text} RETURNING ${COLUMNS}`, insert.values);
    return toSchedule(rows[0]!);
  }

  async findById(organizationId: string, id: string): Promise<Schedule | null> {
    const rows = await this.db.rows<ScheduleRow>(`SELECT ${COLUMNS} FROM schedules WHERE organization_id = $1 AND id = $2`, [
      organizationId,
      id,
    ]);
    return rows[0] ? toSchedule(rows[0]) : null;
  }

  /**
   * The schedule as it is now, its row locked until the transaction ends: `update` against any write
   * and against new bookings (their foreign-key check takes KEY SHARE), `key share` against deletion.
   */
  async lockById(organizationId: string, id: string, strength: 'update' | 'key share' = 'update'): Promise<Schedule | null> {
    const rows = await this.db.rowsInTransaction<ScheduleRow>(
      `SELECT ${COLUMNS} FROM schedules WHERE organization_id = $1 AND id = $2 FOR ${strength === 'update' ? 'UPDATE' : 'KEY SHARE'}`,
      [organizationId, id],
    );
    return rows[0] ? toSchedule(rows[0]) : null;
  }

  async list(
    organizationId: string,
    page: Page,
  ): Promise<{ items: Schedule[]; total: ListTotal }> {
    const { rows, total } = await pageWithTotal<ScheduleRow>(
      (sql, params) => this.db.rows(sql, params),
      { columns: COLUMNS, from: 'FROM schedules WHERE organization_id = $1', orderBy: 'created_at, id' },
      [organizationId],
      page,
      this.config.listCountCap,
    );
    return { items: rows.map(toSchedule), total };
  }

  async update(
    organizationId: string,
    id: string,
    changes: ScheduleChanges,
  ): Promise<Schedule | null> {
    const p = new SqlParams();
    const set = SCHEDULE_TABLE.set(p, changes);
    const rows = await this.db.rows<ScheduleRow>(
      `UPDATE schedules SET ${set} WHERE organization_id = ${p.add(organizationId)} AND id = ${p.add(id)}
       RETURNING ${COLUMNS}`,
      p.values,
    );
    return rows[0] ? toSchedule(rows[0]) : null;
  }

  async hasActiveBookings(organizationId: string, scheduleId: string): Promise<boolean> {
    const rows = await this.db.rows<{ active: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM bookings WHERE organization_id = $1 AND schedule_id = $2
         AND status IN ('PENDING', 'CONFIRMED')) AS active`,
      [organizationId, scheduleId],
    );
    return rows[0]!.active;
  }

  /** Deletes the schedule; its (finished or cancelled) bookings go with it through the foreign key. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows = await this.db.rows(
      'DELETE FROM schedules WHERE organization_id = $1 AND id = $2 RETURNING id',
      [organizationId, id],
    );
    return rows.length > 0;
  }
}
