import { Injectable } from '@nestjs/common';
import { SqlParams } from '@almanac/shared';
import type { EntityManager } from 'typeorm';
import type { Schedule, ScheduleChanges } from '../domain/schedule';
import { SCHEDULE_TABLE } from './schedule.table';
import { pageWithTotal, rowsOf } from './sql';

type ScheduleRow = Record<string, unknown> & { total?: string };

const COLUMNS = SCHEDULE_TABLE.select();
const toSchedule = (row: ScheduleRow): Schedule => SCHEDULE_TABLE.fromRow(row);

@Injectable()
export class ScheduleRepository {
  async insert(em: EntityManager, schedule: Schedule): Promise<Schedule> {
    const insert = SCHEDULE_TABLE.insert(schedule);
    const rows = await rowsOf<ScheduleRow>(em, `${insert.text} RETURNING ${COLUMNS}`, insert.values);
    return toSchedule(rows[0]!);
  }

  /** `update` locks the row against concurrent bookings (their foreign-key check takes KEY SHARE). */
  async findById(
    em: EntityManager,
    organizationId: string,
    id: string,
    lock?: 'update' | 'key share',
  ): Promise<Schedule | null> {
    const suffix = lock === 'update' ? ' FOR UPDATE' : lock === 'key share' ? ' FOR KEY SHARE' : '';
    const rows = await rowsOf<ScheduleRow>(
      em,
      `SELECT ${COLUMNS} FROM schedules WHERE organization_id = $1 AND id = $2${suffix}`,
      [organizationId, id],
    );
    return rows[0] ? toSchedule(rows[0]) : null;
  }

  async list(
    em: EntityManager,
    organizationId: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: Schedule[]; total: number }> {
    const { rows, total } = await pageWithTotal<ScheduleRow>(
      em,
      `SELECT ${COLUMNS}, count(*) OVER () AS total FROM schedules WHERE organization_id = $1
       ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      'SELECT count(*) AS total FROM schedules WHERE organization_id = $1',
      [organizationId, page.limit, page.offset],
      page.offset,
    );
    return { items: rows.map(toSchedule), total };
  }

  async update(
    em: EntityManager,
    organizationId: string,
    id: string,
    changes: ScheduleChanges,
  ): Promise<Schedule | null> {
    const p = new SqlParams();
    const set = SCHEDULE_TABLE.set(p, changes);
    const rows = await rowsOf<ScheduleRow>(
      em,
      `UPDATE schedules SET ${set} WHERE organization_id = ${p.add(organizationId)} AND id = ${p.add(id)}
       RETURNING ${COLUMNS}`,
      p.values,
    );
    return rows[0] ? toSchedule(rows[0]) : null;
  }

  async hasActiveBookings(em: EntityManager, organizationId: string, scheduleId: string): Promise<boolean> {
    const rows = await rowsOf<{ active: boolean }>(
      em,
      `SELECT EXISTS (SELECT 1 FROM bookings WHERE organization_id = $1 AND schedule_id = $2
         AND status IN ('PENDING', 'CONFIRMED')) AS active`,
      [organizationId, scheduleId],
    );
    return rows[0]!.active;
  }

  /** Deletes the schedule; its (finished or cancelled) bookings go with it through the foreign key. */
  async delete(em: EntityManager, organizationId: string, id: string): Promise<boolean> {
    const rows = await rowsOf(
      em,
      'DELETE FROM schedules WHERE organization_id = $1 AND id = $2 RETURNING id',
      [organizationId, id],
    );
    return rows.length > 0;
  }
}
