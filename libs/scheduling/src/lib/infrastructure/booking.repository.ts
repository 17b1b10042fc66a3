import { SqlClient } from '@almanac/shared';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Booking } from '../domain/booking';
import type { BookingMetadata } from '../domain/booking-metadata';
import type { BookingStatus } from '../domain/booking-status';
import type { LocationType } from '../domain/location-type';
import { likeLiteral, pageWithTotal, Params, rowsOf, RunSql, setClause, translateBookingWriteError } from './sql';

export interface BookingRow {
  id: string;
  organization_id: string;
  schedule_id: string;
  event_type_id: string | null;
  start_time: Date;
  end_time: Date;
  timezone: string;
  status: BookingStatus;
  title: string;
  location: string | null;
  location_type: LocationType | null;
  attendee_name: string;
  attendee_email: string | null;
  attendee_phone: string | null;
  attendee_timezone: string | null;
  attendee_notes: string | null;
  metadata: BookingMetadata;
  created_at: Date;
  updated_at: Date;
  cancelled_at: Date | null;
  total?: string;
}

export const BOOKING_COLUMNS =
  'id, organization_id, schedule_id, event_type_id, start_time, end_time, timezone, status, title, location, ' +
  'location_type, attendee_name, attendee_email, attendee_phone, attendee_timezone, attendee_notes, metadata, ' +
  'created_at, updated_at, cancelled_at';

export function toBooking(row: BookingRow): Booking {
  return {
    id: row.id,
    organizationId: row.organization_id,
    scheduleId: row.schedule_id,
    eventTypeId: row.event_type_id,
    startTime: row.start_time,
    endTime: row.end_time,
    timezone: row.timezone,
    status: row.status,
    title: row.title,
    location: row.location,
    locationType: row.location_type,
    attendeeName: row.attendee_name,
    attendeeEmail: row.attendee_email,
    attendeePhone: row.attendee_phone,
    attendeeTimezone: row.attendee_timezone,
    attendeeNotes: row.attendee_notes,
    metadata: row.metadata,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    cancelledAt: row.cancelled_at,
  };
}

/** Filters of `GET /api/v1/bookings`, all on the booking's start time or exact columns. */
export interface BookingListFilter {
  scheduleId?: string;
  eventTypeId?: string;
  status?: BookingStatus;
  /** start_time >= each of these (start_date, upcoming). */
  startsAtOrAfter?: Date[];
  /** start_time < this (end_date given as a date: the end of that UTC day). */
  startsBefore?: Date;
  /** start_time <= this (end_date given as a date-time). */
  startsAtOrBefore?: Date;
  /** Case-insensitive substring of the attendee's e-mail. */
  attendeeEmailContains?: string;
}

type ChangeableField =
  | 'status'
  | 'startTime'
  | 'endTime'
  | 'timezone'
  | 'title'
  | 'location'
  | 'locationType'
  | 'attendeeName'
  | 'attendeeEmail'
  | 'attendeePhone'
  | 'attendeeTimezone'
  | 'attendeeNotes'
  | 'metadata'
  | 'cancelledAt';

export type BookingChanges = { -readonly [K in ChangeableField]?: Booking[K] } & { updatedAt: Date };

const CHANGE_COLUMNS: Readonly<Record<keyof BookingChanges, string>> = {
  status: 'status',
  startTime: 'start_time',
  endTime: 'end_time',
  timezone: 'timezone',
  title: 'title',
  location: 'location',
  locationType: 'location_type',
  attendeeName: 'attendee_name',
  attendeeEmail: 'attendee_email',
  attendeePhone: 'attendee_phone',
  attendeeTimezone: 'attendee_timezone',
  attendeeNotes: 'attendee_notes',
  metadata: 'metadata',
  cancelledAt: 'cancelled_at',
  updatedAt: 'updated_at',
};

@Injectable()
export class BookingRepository {
  private readonly thin: RunSql;

  constructor(private readonly sql: SqlClient) {
    this.thin = async <R>(text: string, params: unknown[]) => (await sql.query<R>(text, params)).rows;
  }

  /**
   * Where a statement runs: outside a transaction (the data source's own manager) straight on the
   * pool through SqlClient, the hot path; inside one, through the transaction's EntityManager.
   */
  private runner(em: EntityManager): RunSql {
    if (this.sql.handles(em)) return this.thin;
    return <R>(text: string, params: unknown[]) => rowsOf<R>(em, text, params);
  }

  /** Throws `BookingOverlapError` when the time is taken, `InvalidReferenceError` when a referenced row vanished. */
  async insert(em: EntityManager, b: Booking): Promise<Booking> {
    try {
      const rows = await this.runner(em)<BookingRow>(
        `INSERT INTO bookings (${BOOKING_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
         RETURNING ${BOOKING_COLUMNS}`,
        [
          b.id,
          b.organizationId,
          b.scheduleId,
          b.eventTypeId,
          b.startTime,
          b.endTime,
          b.timezone,
          b.status,
          b.title,
          b.location,
          b.locationType,
          b.attendeeName,
          b.attendeeEmail,
          b.attendeePhone,
          b.attendeeTimezone,
          b.attendeeNotes,
          JSON.stringify(b.metadata),
          b.createdAt,
          b.updatedAt,
          b.cancelledAt,
        ],
      );
      return toBooking(rows[0]!);
    } catch (error) {
      throw translateBookingWriteError(error);
    }
  }

  async findById(em: EntityManager, organizationId: string, id: string): Promise<Booking | null> {
    const rows = await this.runner(em)<BookingRow>(
      `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return rows[0] ? toBooking(rows[0]) : null;
  }

  /**
   * Applies the changes, and only while the booking still has `expectedStatus` when one is given
   * (compare-and-swap: of two concurrent moves from one status, one finds nothing to update).
   * Null when no row matched.
   */
  async update(
    em: EntityManager,
    organizationId: string,
    id: string,
    changes: BookingChanges,
    expectedStatus?: BookingStatus,
  ): Promise<Booking | null> {
    const p = new Params();
    const toWrite = changes.metadata === undefined ? changes : { ...changes, metadata: JSON.stringify(changes.metadata) };
    const set = setClause(p, toWrite, CHANGE_COLUMNS);
    let where = `organization_id = ${p.add(organizationId)} AND id = ${p.add(id)}`;
    if (expectedStatus) where += ` AND status = ${p.add(expectedStatus)}`;
    try {
      const rows = await this.runner(em)<BookingRow>(
        `UPDATE bookings SET ${set} WHERE ${where} RETURNING ${BOOKING_COLUMNS}`,
        p.values,
      );
      return rows[0] ? toBooking(rows[0]) : null;
    } catch (error) {
      throw translateBookingWriteError(error);
    }
  }

  /** Cancels the booking only while it is PENDING or CONFIRMED; null when it is not (or not there). */
  async cancelIfActive(
    em: EntityManager,
    organizationId: string,
    id: string,
    now: Date,
    expectedStatus: BookingStatus,
  ): Promise<Booking | null> {
    return this.update(em, organizationId, id, { status: 'CANCELLED', cancelledAt: now, updatedAt: now }, expectedStatus);
  }

  async list(
    em: EntityManager,
    organizationId: string,
    filter: BookingListFilter,
    page: { limit: number; offset: number },
  ): Promise<{ items: Booking[]; total: number }> {
    const p = new Params();
    const where = [`organization_id = ${p.add(organizationId)}`];
    if (filter.scheduleId) where.push(`schedule_id = ${p.add(filter.scheduleId)}`);
    if (filter.eventTypeId) where.push(`event_type_id = ${p.add(filter.eventTypeId)}`);
    if (filter.status) where.push(`status = ${p.add(filter.status)}`);
    for (const from of filter.startsAtOrAfter ?? []) where.push(`start_time >= ${p.add(from)}`);
    if (filter.startsBefore) where.push(`start_time < ${p.add(filter.startsBefore)}`);
    if (filter.startsAtOrBefore) where.push(`start_time <= ${p.add(filter.startsAtOrBefore)}`);
    if (filter.attendeeEmailContains !== undefined) {
      where.push(`lower(attendee_email) LIKE ${p.add(`%${likeLiteral(filter.attendeeEmailContains.toLowerCase())}%`)} ESCAPE '\\'`);
    }
    const condition = where.join(' AND ');
    const limit = p.add(page.limit);
    const offset = p.add(page.offset);
    const { rows, total } = await pageWithTotal<BookingRow>(
      this.runner(em),
      `SELECT ${BOOKING_COLUMNS}, count(*) OVER () AS total FROM bookings WHERE ${condition}
       ORDER BY start_time, id LIMIT ${limit} OFFSET ${offset}`,
      `SELECT count(*) AS total FROM bookings WHERE ${condition}`,
      p.values,
      page.offset,
    );
    return { items: rows.map(toBooking), total };
  }

  /**
   * The schedule's time zone and the event type's title and location type, in one round trip.
   * A missing (or foreign) schedule or event type comes back as `found: false`.
   */
  async references(
    em: EntityManager,
    organizationId: string,
    scheduleId: string,
    eventTypeId: string | null,
  ): Promise<{
    schedule: { found: false } | { found: true; timezone: string };
    eventType: { found: false } | { found: true; title: string; locationType: LocationType } | null;
  }> {
    const [row] = await this.runner(em)<{
      schedule_timezone: string | null;
      event_type: { title: string; location_type: LocationType } | null;
    }>(
      `SELECT
         (SELECT timezone FROM schedules WHERE organization_id = $1 AND id = $2) AS schedule_timezone,
         (SELECT json_build_object('title', title, 'location_type', location_type) FROM event_types
           WHERE organization_id = $1 AND id = $3) AS event_type`,
      [organizationId, scheduleId, eventTypeId],
    );
    return {
      schedule: row?.schedule_timezone ? { found: true, timezone: row.schedule_timezone } : { found: false },
      eventType:
        eventTypeId === null
          ? null
          : row?.event_type
            ? { found: true, title: row.event_type.title, locationType: row.event_type.location_type }
            : { found: false },
    };
  }
}
