import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Schedule } from '../domain/schedule';
import { pageWithTotal, rowsOf } from './sql';

interface ScheduleRow {
  id: string;
  organization_id: string;
  name: string;
  timezone: string;
  created_at: Date;
  updated_at: Date;
  total?: string;
}

const COLUMNS = 'id, organization_id, name, timezone, created_at, updated_at';

function toSchedule(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    timezone: row.timezone,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

@Injectable()
export class ScheduleRepository {
  async insert(em: EntityManager, schedule: Schedule): Promise<Schedule> {
    const rows = await rowsOf<ScheduleRow>(
      em,
      `INSERT INTO schedules (id, organization_id, name, timezone, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [
        schedule.id,
        schedule.organizationId,
        schedule.name,
        schedule.timezone,
        schedule.createdAt,
        schedule.updatedAt,
      ],
    );
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
    changes: { name?: string; timezone?: string; updatedAt: Date },
  ): Promise<Schedule | null> {
    const rows = await rowsOf<ScheduleRow>(
      em,
      `UPDATE schedules SET name = coalesce($3, name), timezone = coalesce($4, timezone), updated_at = $5
       WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [organizationId, id, changes.name ?? null, changes.timezone ?? null, changes.updatedAt],
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
