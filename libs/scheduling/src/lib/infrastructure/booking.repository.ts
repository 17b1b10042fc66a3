import { AppConfig, DomainEvent, ListTotal, Outbox, Page, SqlParams, SqlStatement, Transactions } from '@almanac/shared';
import { Injectable } from '@nestjs/common';
import type { Booking, BookingChanges, BookingListFilter, EventTypeRef, ScheduleRef } from '../domain/booking';
import type { BusyTimes } from '../domain/slots';
import type { PeriodTotals } from '../domain/booking-limits';
import type { BookingStatus } from '../domain/booking-status';
import { EVENT_TYPE_TABLE } from './event-type.table';
import { SCHEDULE_TABLE } from './schedule.table';
import { BOOKING_TABLE } from './booking.table';
import { likeLiteral, pageWithTotal, translateBookingWriteError } from './sql';

export type BookingRow = Record<string, unknown> & { total?: string };

export const BOOKING_COLUMNS = BOOKING_TABLE.select();
export const toBooking = (row: BookingRow): Booking => BOOKING_TABLE.fromRow(row);

/**
 * The insert of one or more bookings, as a statement with placeholders from `$firstParam` on:
 * `insert` runs it alone or as the CTE before the outbox event's, a series as one of its CTEs.
 */
export function bookingsInsertQuery(bookings: readonly Booking[], firstParam = 1): SqlStatement {
  const insert = BOOKING_TABLE.insertMany(bookings, firstParam);
  return { text: `${insert.text} RETURNING ${BOOKING_COLUMNS}`, values: insert.values };
}

/**
 * Bookings in PostgreSQL. Every statement runs in the ambient unit of work (`Transactions`), or on
 * its own straight on the pool: a booking's create and reads, the hot paths, take no transaction.
 */
@Injectable()
export class BookingRepository {
  constructor(
    private readonly db: Transactions,
    private readonly outbox: Outbox,
    private readonly config: AppConfig,
  ) {}

  /**
   * Throws `BookingOverlapError` when the time is taken, `InvalidReferenceError` when a referenced row
   * vanished. With `announce`, the booking and its outbox event are written by one statement (a
   * data-modifying CTE): both or neither, in one round trip.
   */
  async insert(b: Booking, announce?: DomainEvent): Promise<Booking> {
    try {
      let query = bookingsInsertQuery([b]);
      if (announce) {
        const event = this.outbox.statement([announce], query.values.length + 1);
        query = {
          text: `WITH created AS (${query.text}), announced AS (${event.text}) SELECT * FROM created`,
          values: [...query.values, ...event.values],
        };
      }
      const rows = await this.db.rows<BookingRow>(query.text, query.values);
      return toBooking(rows[0]!);
    } catch (error) {
      throw translateBookingWriteError(error);
    }
  }

  async findById(organizationId: string, id: string): Promise<Booking | null> {
    const rows = await this.db.rows<BookingRow>(
      `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return rows[0] ? toBooking(rows[0]) : null;
  }

  /** The booking as it is now, its row locked until the transaction ends (a write's precondition). */
  async lockById(organizationId: string, id: string): Promise<Booking | null> {
    const rows = await this.db.rowsInTransaction<BookingRow>(
      `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, id],
    );
    return rows[0] ? toBooking(rows[0]) : null;
  }

  async findByIds(organizationId: string, ids: string[]): Promise<Booking[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.rows<BookingRow>(
      `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE organization_id = $1 AND id = ANY ($2::uuid[]) ORDER BY start_time, id`,
      [organizationId, ids],
    );
    return rows.map(toBooking);
  }

  /**
   * Applies the changes, and only while the booking still has `expectedStatus` when one is given
   * (compare-and-swap: of two concurrent moves from one status, one finds nothing to update).
   * Null when no row matched.
   */
  async update(
    organizationId: string,
    id: string,
    changes: BookingChanges,
    expectedStatus?: BookingStatus,
  ): Promise<Booking | null> {
    const p = new SqlParams();
    const set = BOOKING_TABLE.set(p, changes);
    let where = `organization_id = ${p.add(organizationId)} AND id = ${p.add(id)}`;
    if (expectedStatus) where += ` AND status = ${p.add(expectedStatus)}`;
    try {
      const rows = await this.db.rows<BookingRow>(
        `UPDATE bookings SET ${set} WHERE ${where} RETURNING ${BOOKING_COLUMNS}`,
        p.values,
      );
      return rows[0] ? toBooking(rows[0]) : null;
    } catch (error) {
      throw translateBookingWriteError(error);
    }
  }

  /**
   * A page of the organization's bookings matching the filter, in start order, and how many match,
   * counted up to the cap (see pageWithTotal).
   */
  async list(
    organizationId: string,
    filter: BookingListFilter,
    page: Page,
  ): Promise<{ items: Booking[]; total: ListTotal }> {
    const p = new SqlParams();
    const where = [`organization_id = ${p.add(organizationId)}`];
    if (filter.scheduleId) where.push(`schedule_id = ${p.add(filter.scheduleId)}`);
    if (filter.eventTypeId) where.push(`event_type_id = ${p.add(filter.eventTypeId)}`);
    if (filter.seriesId) where.push(`series_id = ${p.add(filter.seriesId)}`);
    if (filter.status) where.push(`status = ${p.add(filter.status)}`);
    for (const from of filter.startsAtOrAfter ?? []) where.push(`start_time >= ${p.add(from)}`);
    if (filter.startsBefore) where.push(`start_time < ${p.add(filter.startsBefore)}`);
    if (filter.startsAtOrBefore) where.push(`start_time <= ${p.add(filter.startsAtOrBefore)}`);
    if (filter.attendeeEmailContains !== undefined) {
      where.push(
        `lower(attendee_email) LIKE ${p.add(`%${likeLiteral(filter.attendeeEmailContains.toLowerCase())}%`)} ESCAPE '\\'`,
      );
    }
    const { rows, total } = await pageWithTotal<BookingRow>(
      (sql, params) => this.db.rows(sql, params),
      { columns: BOOKING_COLUMNS, from: `FROM bookings WHERE ${where.join(' AND ')}`, orderBy: 'start_time, id' },
      p.values,
      page,
      this.config.listCountCap,
    );
    return { items: rows.map(toBooking), total };
  }

  /**
   * The schedule's time zone and availability, and the event type's title, location type and
   * booking rules, in one round trip. A missing (or foreign) one comes back as `found: false`.
   */
  async references(
    organizationId: string,
    scheduleId: string,
    eventTypeId: string | null,
  ): Promise<{
    schedule: { found: false } | ({ found: true } & ScheduleRef);
    eventType: { found: false } | ({ found: true } & EventTypeRef) | null;
  }> {
    const [row] = await this.db.rows<{ schedule: Record<string, unknown> | null; event_type: Record<string, unknown> | null }>(
      `SELECT (SELECT ${SCHEDULE_TABLE.jsonObject()} FROM schedules WHERE organization_id = $1 AND id = $2) AS schedule,
              (SELECT ${EVENT_TYPE_TABLE.jsonObject()} FROM event_types WHERE organization_id = $1 AND id = $3) AS event_type`,
      [organizationId, scheduleId, eventTypeId],
    );
    const schedule = row?.schedule ? SCHEDULE_TABLE.fromJson(row.schedule) : null;
    const eventType = row?.event_type ? EVENT_TYPE_TABLE.fromJson(row.event_type) : null;
    return {
      schedule: schedule
        ? {
            found: true,
            timezone: schedule.timezone,
            availability: { weekly: schedule.availability, overrides: schedule.dateOverrides },
            limits: schedule,
          }
        : { found: false },
      eventType:
        eventTypeId === null
          ? null
          : eventType
            ? { found: true, title: eventType.title, locationType: eventType.locationType, rules: eventType }
            : { found: false },
    };
  }

  /**
   * Serializes, until the transaction ends, the bookings that count against the same limits: one
   * transaction-scoped advisory lock per (scope, period) key, taken by one statement in the order
   * given (callers sort them, so two writers never wait for each other in a cycle).
   */
  async lockLimitPeriods(
    organizationId: string,
    scheduleId: string,
    eventTypeId: string | null,
    keys: readonly string[],
  ): Promise<void> {
    if (keys.length === 0) return;
    // A scope key names the event type's bookings on the schedule, or all of the schedule's.
    const names = keys.map((key) =>
      key.startsWith('event_type:')
        ? `booking-limit:${organizationId}:${scheduleId}:${eventTypeId}:${key}`
        : `booking-limit:${organizationId}:${scheduleId}:${key}`,
    );
    await this.db.rowsInTransaction(
      `SELECT pg_advisory_xact_lock(hashtextextended(name, 0)) FROM unnest($1::text[]) WITH ORDINALITY AS k(name, n) ORDER BY n`,
      [names],
    );
  }

  /**
   * What each span of time holds, by the starts of what limits count (the schedule's PENDING and
   * CONFIRMED bookings, other than `exceptIds`): how many and how many minutes (durations, without
   * buffers) in all, and of them those of the event type. One statement whatever the spans: each
   * is one range of the partial index bookings_limits_idx, read from the index alone.
   */
  async limitTotals(
    organizationId: string,
    scheduleId: string,
    eventTypeId: string | null,
    spans: readonly { start: number; end: number }[],
    now: Date,
    exceptIds: readonly string[] = [],
  ): Promise<PeriodTotals[]> {
    if (spans.length === 0) return [];
    const rows = await this.db.rows<{ n: string; bookings: number; seconds: number; type_bookings: number; type_seconds: number }>(
      `SELECT s.n,
              count(c.start_time)::int AS bookings,
              coalesce(sum(date_part('epoch', c.end_time) - date_part('epoch', c.start_time)), 0) AS seconds,
              count(c.start_time) FILTER (WHERE c.event_type_id = $3)::int AS type_bookings,
              coalesce(sum(date_part('epoch', c.end_time) - date_part('epoch', c.start_time)) FILTER (WHERE c.event_type_id = $3), 0) AS type_seconds
       FROM unnest($4::timestamptz[], $5::timestamptz[]) WITH ORDINALITY AS s(span_start, span_end, n)
       LEFT JOIN LATERAL (${LIMIT_COUNTED}) c ON true
       GROUP BY s.n ORDER BY s.n`,
      [
        organizationId,
        scheduleId,
        eventTypeId,
        spans.map((s) => new Date(s.start)),
        spans.map((s) => new Date(s.end)),
        exceptIds,
        now,
      ],
    );
    return rows.map((r) => ({
      bookings: r.bookings,
      minutes: r.seconds / 60,
      typeBookings: r.type_bookings,
      typeMinutes: r.type_seconds / 60,
    }));
  }

  /**
   * Blocked times of the schedule's PENDING/CONFIRMED bookings that reach into `[from, to)` (slots).
   * The exclusion constraint's GiST index serves it alone (it carries every column read here).
   * `exceptBookingId`: a booking whose own time counts as free (the slots its attendee may move it
   * to); that one filter reads the rows too.
   */
  async busy(organizationId: string, scheduleId: string, from: Date, to: Date, exceptBookingId?: string): Promise<BusyTimes> {
    // One row of two JSON arrays: a 62-day range meets thousands of bookings, and one JSON value
    // parses far faster than thousands of rows. The values are minutes after `from` (date_part's
    // float8, cheaper than extract's numeric): five or six digits where epoch milliseconds take
    // thirteen, so less to print, send and parse. The blocked time is booking_blocked_time()'s, in
    // plain arithmetic.
    const [row] = await this.db.rows<{ busy: [number[] | null, number[] | null] }>(
      `SELECT json_build_array(
           array_agg(date_part('epoch', start_time - $3) / 60 - buffer_before),
           array_agg(date_part('epoch', end_time - $3) / 60 + buffer_after)) AS busy
       FROM bookings
       WHERE organization_id = $1 AND schedule_id = $2 AND status IN ('PENDING', 'CONFIRMED')
         AND booking_blocked_time(start_time, end_time, buffer_before, buffer_after) && tstzrange($3, $4, '[)')
         ${exceptBookingId === undefined ? '' : 'AND id <> $5'}`,
      exceptBookingId === undefined ? [organizationId, scheduleId, from, to] : [organizationId, scheduleId, from, to, exceptBookingId],
    );
    // An empty aggregate is null. Back to epoch milliseconds, rounded to the millisecond as before.
    const base = from.getTime();
    const instants = (minutes: number[] | null): number[] => (minutes ?? []).map((m) => base + Math.round(m * 60_000));
    const [blockedStarts, blockedEnds] = row!.busy;
    return { blockedStarts: instants(blockedStarts), blockedEnds: instants(blockedEnds) };
  }
}

/**
 * What limits count, for one span `s` of a lateral join: the starts, ends and event types of the
 * schedule's PENDING/CONFIRMED bookings and of its reservations unexpired at the application's now
 * ($7: a reservation holds its place until then, whether or not the sweep has deleted it yet)
 * starting in it, but those excepted ($6, a booking being rescheduled). Parameters: $1
 * organization, $2 schedule. Every check and every slots query counts through this one fragment.
 */
const LIMIT_COUNTED = `
  SELECT start_time, end_time, event_type_id FROM bookings
  WHERE organization_id = $1 AND schedule_id = $2 AND status IN ('PENDING', 'CONFIRMED')
    AND start_time >= s.span_start AND start_time < s.span_end AND id <> ALL ($6::uuid[])
  UNION ALL
  SELECT start_time, end_time, event_type_id FROM slot_reservations
  WHERE organization_id = $1 AND schedule_id = $2 AND expires_at > $7
    AND start_time >= s.span_start AND start_time < s.span_end AND id <> ALL ($6::uuid[])`;
