import { DomainEvent, Outbox, Transactions } from '@almanac/shared';
import { Injectable } from '@nestjs/common';
import type { Booking } from '../domain/booking';
import type { BookingStatus } from '../domain/booking-status';
import type { BookingSeries, RecurrenceFrequency } from '../domain/recurrence';
import { BOOKING_COLUMNS, BookingRow, bookingsInsertQuery, toBooking } from './booking.repository';
import { BOOKING_TABLE } from './booking.table';
import { translateBookingWriteError } from './sql';

interface SeriesRow {
  id: string;
  organization_id: string;
  schedule_id: string;
  frequency: RecurrenceFrequency;
  interval: number;
  count: number;
  created_at: Date;
}

const SERIES_COLUMNS = 'id, organization_id, schedule_id, frequency, "interval", count, created_at';

function toSeries(row: SeriesRow): BookingSeries {
  return {
    id: row.id,
    organizationId: row.organization_id,
    scheduleId: row.schedule_id,
    recurrence: { frequency: row.frequency, interval: row.interval, count: row.count },
    createdAt: row.created_at,
  };
}

/** `booking_series` and the bookings that are its occurrences, in the ambient unit of work (`Transactions`). */
@Injectable()
export class BookingSeriesRepository {
  constructor(
    private readonly db: Transactions,
    private readonly outbox: Outbox,
  ) {}

  /**
   * The series, its occurrences and one event per occurrence, written by one statement (data-modifying
   * CTEs): all or nothing. Throws `BookingOverlapError` when an occurrence's time was taken meanwhile
   * (the exclusion constraint decides, as for a single booking).
   */
  async insert(
    series: BookingSeries,
    occurrences: readonly Booking[],
    announcements: DomainEvent[],
  ): Promise<Booking[]> {
    const seriesValues = [
      series.organizationId,
      series.id,
      series.scheduleId,
      series.recurrence.frequency,
      series.recurrence.interval,
      series.recurrence.count,
      series.createdAt,
    ];
    const bookings = bookingsInsertQuery(occurrences, seriesValues.length + 1);
    const events = this.outbox.statement(announcements, seriesValues.length + bookings.values.length + 1);
    try {
      const rows = await this.db.rows<BookingRow>(
        `WITH series AS (
           INSERT INTO booking_series (organization_id, id, schedule_id, frequency, "interval", count, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
         ), created AS (${bookings.text}), announced AS (${events.text})
         SELECT * FROM created ORDER BY start_time, id`,
        [...seriesValues, ...bookings.values, ...events.values],
      );
      return rows.map(toBooking);
    } catch (error) {
      throw translateBookingWriteError(error);
    }
  }

  async find(organizationId: string, id: string): Promise<BookingSeries | null> {
    const [row] = await this.db.rows<SeriesRow>(
      `SELECT ${SERIES_COLUMNS} FROM booking_series WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return row ? toSeries(row) : null;
  }

  /** Every occurrence of the series, whatever its status, by start. */
  async occurrences(organizationId: string, seriesId: string): Promise<Booking[]> {
    const rows = await this.db.rows<BookingRow>(
      `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE organization_id = $1 AND series_id = $2 ORDER BY start_time, id`,
      [organizationId, seriesId],
    );
    return rows.map(toBooking);
  }

  /**
   * Cancels the series' PENDING/CONFIRMED occurrences starting at or after `from` (all of them when
   * null), locking them first so a concurrent status move either happens before (and is seen) or
   * waits. Returns each cancelled booking with the status it had.
   */
  async cancelFrom(
    organizationId: string,
    seriesId: string,
    from: Date | null,
    now: Date,
  ): Promise<{ booking: Booking; previousStatus: BookingStatus }[]> {
    const rows = await this.db.rowsInTransaction<BookingRow & { previous_status: BookingStatus }>(
      `WITH target AS (
         SELECT id, status FROM bookings
          WHERE organization_id = $1 AND series_id = $2 AND status IN ('PENDING', 'CONFIRMED')
            AND ($3::timestamptz IS NULL OR start_time >= $3)
          ORDER BY start_time, id
          FOR UPDATE
       )
       UPDATE bookings AS b SET status = 'CANCELLED', cancelled_at = $4, cancelled_by = 'api', cancellation_reason = NULL, updated_at = $4
         FROM target
        WHERE b.organization_id = $1 AND b.id = target.id
       RETURNING ${BOOKING_TABLE.select('b')}, target.status AS previous_status`,
      [organizationId, seriesId, from, now],
    );
    return rows
      .map((row) => ({ booking: toBooking(row), previousStatus: row['previous_status'] as BookingStatus }))
      .sort((a, b) => a.booking.startTime.getTime() - b.booking.startTime.getTime());
  }
}
