import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DateOverride, WeeklyRule } from '../domain/availability';
import type { Schedule } from '../domain/schedule';
import { pageWithTotal, Params, rowsOf, setClause } from './sql';

interface ScheduleRow {
  id: string;
  organization_id: string;
  name: string;
  timezone: string;
  availability: WeeklyRule[] | null;
  date_overrides: DateOverride[];
  created_at: Date;
  updated_at: Date;
  total?: string;
}

const COLUMNS = 'id, organization_id, name, timezone, availability, date_overrides, created_at, updated_at';

export type ScheduleChanges = Partial<Pick<Schedule, 'name' | 'timezone' | 'availability' | 'dateOverrides'>> & {
  updatedAt: Date;
};

const CHANGE_COLUMNS: Readonly<Record<keyof ScheduleChanges, string>> = {
  name: 'name',
  timezone: 'timezone',
  availability: 'availability',
  dateOverrides: 'date_overrides',
  updatedAt: 'updated_at',
};

/** jsonb parameters: JSON text, and SQL NULL (not JSON null) for "no weekly rules". */
function jsonParam(value: unknown): string | null {
  return value === null ? null : JSON.stringify(value);
}

function toSchedule(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    timezone: row.timezone,
    availability: row.availability,
    dateOverrides: row.date_overrides,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

@Injectable()
export class ScheduleRepository {
  async insert(em: EntityManager, schedule: Schedule): Promise<Schedule> {
    const rows = await rowsOf<ScheduleRow>(
      em,
      `INSERT INTO schedules (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [
        schedule.id,
        schedule.organizationId,
        schedule.name,
        schedule.timezone,
        jsonParam(schedule.availability),
        jsonParam(schedule.dateOverrides),
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
    changes: ScheduleChanges,
  ): Promise<Schedule | null> {
    const p = new Params();
    const set = setClause(
      p,
      {
        ...changes,
        availability: changes.availability === undefined ? undefined : jsonParam(changes.availability),
        dateOverrides: changes.dateOverrides === undefined ? undefined : jsonParam(changes.dateOverrides),
      },
      CHANGE_COLUMNS,
    );
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
