import { DomainEvent, Outbox, SqlClient } from '@almanac/shared';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Availability, DateOverride, WeeklyRule } from '../domain/availability';
import type { Booking, BookingChanges } from '../domain/booking';
import type { BookingRules, BusyBooking } from '../domain/slots';
import type { BookingMetadata } from '../domain/booking-metadata';
import type { BookingStatus } from '../domain/booking-status';
import type { LocationType } from '../domain/location-type';
import {
  type BookingListFilter,
  bookingByIdQuery,
  bookingsByIdsQuery,
  bookingInsertQuery,
  bookingListQueries,
  bookingReferencesQuery,
  bookingUpdateQuery,
  busyBookingsQuery,
  dailyLimitLockQuery,
  sameDayCountQuery,
} from './booking-queries';
import { BookingRulesRow, toBookingRules } from './event-type.repository';
import { pageWithTotal, rowsOf, RunSql, translateBookingWriteError } from './sql';

export type { BookingListFilter };

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
  buffer_before: number;
  buffer_after: number;
  total?: string;
}

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
    bufferBefore: row.buffer_before,
    bufferAfter: row.buffer_after,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    cancelledAt: row.cancelled_at,
  };
}

@Injectable()
export class BookingRepository {
  private readonly thin: RunSql;

  constructor(
    private readonly sql: SqlClient,
    private readonly outbox: Outbox,
  ) {
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

  /**
   * Throws `BookingOverlapError` when the time is taken, `InvalidReferenceError` when a referenced row
   * vanished. With `announce`, the booking and its outbox event are written by one statement (a
   * data-modifying CTE): both or neither, in one round trip.
   */
  async insert(em: EntityManager, b: Booking, announce?: DomainEvent): Promise<Booking> {
    try {
      let query = bookingInsertQuery(b);
      if (announce) {
        const event = this.outbox.statement([announce], query.values.length + 1);
        query = {
          text: `WITH created AS (${query.text}), announced AS (${event.text}) SELECT * FROM created`,
          values: [...query.values, ...event.values],
        };
      }
      const rows = await this.runner(em)<BookingRow>(query.text, query.values);
      return toBooking(rows[0]!);
    } catch (error) {
      throw translateBookingWriteError(error);
    }
  }

  async findById(em: EntityManager, organizationId: string, id: string): Promise<Booking | null> {
    const query = bookingByIdQuery(organizationId, id);
    const rows = await this.runner(em)<BookingRow>(query.text, query.values);
    return rows[0] ? toBooking(rows[0]) : null;
  }

  async findByIds(em: EntityManager, organizationId: string, ids: string[]): Promise<Booking[]> {
    if (ids.length === 0) return [];
    const query = bookingsByIdsQuery(organizationId, ids);
    return (await this.runner(em)<BookingRow>(query.text, query.values)).map(toBooking);
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
    const query = bookingUpdateQuery(organizationId, id, changes, expectedStatus);
    try {
      const rows = await this.runner(em)<BookingRow>(query.text, query.values);
      return rows[0] ? toBooking(rows[0]) : null;
    } catch (error) {
      throw translateBookingWriteError(error);
    }
  }

  /** Cancels the booking only while it is PENDING or CONFIRMED; null when it is not (or not there). */
  async list(
    em: EntityManager,
    organizationId: string,
    filter: BookingListFilter,
    page: { limit: number; offset: number },
  ): Promise<{ items: Booking[]; total: number }> {
    const queries = bookingListQueries(organizationId, filter, page);
    const { rows, total } = await pageWithTotal<BookingRow>(
      this.runner(em),
      queries.page.text,
      queries.count.text,
      queries.page.values,
      page.offset,
    );
    return { items: rows.map(toBooking), total };
  }

  /**
   * The schedule's time zone and availability, and the event type's title, location type and
   * booking rules, in one round trip. A missing (or foreign) one comes back as `found: false`.
   */
  async references(
    em: EntityManager,
    organizationId: string,
    scheduleId: string,
    eventTypeId: string | null,
  ): Promise<{
    schedule: { found: false } | ({ found: true } & ScheduleRef);
    eventType: { found: false } | ({ found: true } & EventTypeRef) | null;
  }> {
    const query = bookingReferencesQuery(organizationId, scheduleId, eventTypeId);
    const [row] = await this.runner(em)<{
      schedule: { timezone: string; availability: WeeklyRule[] | null; date_overrides: DateOverride[] } | null;
      event_type: (BookingRulesRow & { title: string; location_type: LocationType }) | null;
    }>(query.text, query.values);
    const s = row?.schedule;
    const e = row?.event_type;
    return {
      schedule: s
        ? {
            found: true,
            timezone: s.timezone,
            availability: { weekly: s.availability, overrides: s.date_overrides },
          }
        : { found: false },
      eventType:
        eventTypeId === null
          ? null
          : e
            ? {
                found: true,
                title: e.title,
                locationType: e.location_type,
                rules: toBookingRules(e),
              }
            : { found: false },
    };
  }

  /** Takes the transaction-scoped lock of one daily limit (see dailyLimitLockQuery). */
  async lockDailyLimit(
    em: EntityManager,
    organizationId: string,
    scheduleId: string,
    eventTypeId: string,
    localDate: string,
  ): Promise<void> {
    const query = dailyLimitLockQuery(organizationId, scheduleId, eventTypeId, localDate);
    await this.runner(em)(query.text, query.values);
  }

  async countSameDay(
    em: EntityManager,
    organizationId: string,
    scheduleId: string,
    eventTypeId: string,
    from: Date,
    to: Date,
    exceptId: string,
  ): Promise<number> {
    const query = sameDayCountQuery(organizationId, scheduleId, eventTypeId, from, to, exceptId);
    const [row] = await this.runner(em)<{ n: number }>(query.text, query.values);
    return row?.n ?? 0;
  }

  /** Blocked times of the schedule's active bookings reaching into `[from, to)` (slots). */
  async busy(
    em: EntityManager,
    organizationId: string,
    scheduleId: string,
    eventTypeId: string,
    from: Date,
    to: Date,
  ): Promise<BusyBooking[]> {
    const query = busyBookingsQuery(organizationId, scheduleId, eventTypeId, from, to);
    const rows = await this.runner(em)<{
      start_ms: number;
      end_ms: number;
      buffer_before: number;
      buffer_after: number;
      same_type: boolean;
    }>(query.text, query.values);
    return rows.map((r) => ({
      start: r.start_ms,
      end: r.end_ms,
      bufferBefore: r.buffer_before,
      bufferAfter: r.buffer_after,
      sameEventType: r.same_type,
    }));
  }
}

export interface ScheduleRef {
  timezone: string;
  availability: Availability;
}

export interface EventTypeRef {
  title: string;
  locationType: LocationType;
  rules: BookingRules;
}
