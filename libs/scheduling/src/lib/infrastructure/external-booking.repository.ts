import { Injectable } from '@nestjs/common';
import { Transactions } from '@almanac/shared';
import type { BookingStatus } from '../domain/booking-status';
import type { ExistingImport, ImportChange, NewImport } from '../domain/imported-booking';


interface ExistingImportRow {
  id: string;
  status: BookingStatus;
  start_time: Date;
  end_time: Date;
  title: string;
  location: string | null;
  cancelled_by_sync: boolean;
  external_uid: string;
  recurrence_id: string | null;
}

/** Set-based statements for the calendar import: one statement per batch, never one per row. */
const SAVEPOINT = 'scheduling_external_sync';

@Injectable()
export class ExternalBookingRepository {
  constructor(private readonly db: Transactions) {}

  /**
   * Runs `write` under a savepoint of the ambient transaction: on success it is kept; on failure it is
   * undone (the transaction stays usable) and the error is thrown again for the caller to judge.
   */
  async underSavepoint<R>(write: () => Promise<R>): Promise<R> {
    await this.db.rowsInTransaction(`SAVEPOINT ${SAVEPOINT}`);
    try {
      const value = await write();
      await this.db.rows(`RELEASE SAVEPOINT ${SAVEPOINT}`);
      return value;
    } catch (error) {
      await this.db.rows(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
      await this.db.rows(`RELEASE SAVEPOINT ${SAVEPOINT}`);
      throw error;
    }
  }

  /** Imported bookings of the schedule that start in the range or carry one of the UIDs (one query). */
  async loadImported(
    organizationId: string,
    scheduleId: string,
    rangeStart: Date,
    rangeEnd: Date,
    uids: string[],
  ): Promise<ExistingImport[]> {
    const rows = await this.db.rows<ExistingImportRow>(
      `SELECT id, status, start_time, end_time, title, location, cancelled_by_sync,
              external_uid, external_recurrence_id AS recurrence_id
         FROM bookings
        WHERE organization_id = $1 AND schedule_id = $2 AND external_uid IS NOT NULL
          AND ((start_time >= $3 AND start_time < $4) OR external_uid = ANY($5::text[]))
        ORDER BY id`,
      [organizationId, scheduleId, rangeStart, rangeEnd, uids],
    );
    return rows.map((row) => ({
      id: row.id,
      status: row.status,
      startTime: row.start_time,
      endTime: row.end_time,
      title: row.title,
      location: row.location,
      cancelledBySync: row.cancelled_by_sync,
      externalUid: row.external_uid,
      recurrenceId: row.recurrence_id,
    }));
  }

  /**
   * Inserts CONFIRMED bookings; a row whose time overlaps a PENDING or CONFIRMED booking (or one
   * inserted before it in the same batch) is skipped by `ON CONFLICT DO NOTHING`. Returns the ids
   * that were inserted.
   */
  async insertIgnoringOverlaps(
    organizationId: string,
    scheduleId: string,
    timezone: string,
    now: Date,
    rows: NewImport[],
  ): Promise<Set<string>> {
    const inserted = await this.db.rows<{ id: string }>(
      `INSERT INTO bookings (id, organization_id, schedule_id, event_type_id, start_time, end_time, timezone, status,
                             title, location, location_type, attendee_name, attendee_email, metadata,
                             external_uid, external_recurrence_id, created_at, updated_at)
       SELECT u.id, $1, $2, NULL, u.start_time, u.end_time, $3, 'CONFIRMED', u.title, u.location, NULL,
              u.attendee_name, u.attendee_email,
              jsonb_build_object('source', 'external_calendar', 'external_uid', u.external_uid,
                                 'recurrence_id', u.recurrence_id),
              u.external_uid, u.recurrence_id, $4, $4
         FROM unnest($5::uuid[], $6::text[], $7::text[], $8::text[], $9::text[], $10::timestamptz[],
                     $11::timestamptz[], $12::text[], $13::text[])
              WITH ORDINALITY AS u(id, external_uid, recurrence_id, title, location, start_time, end_time,
                                   attendee_name, attendee_email, ord)
        ORDER BY u.ord
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [
        organizationId,
        scheduleId,
        timezone,
        now,
        rows.map((r) => r.id),
        rows.map((r) => r.externalUid),
        rows.map((r) => r.recurrenceId),
        rows.map((r) => r.title),
        rows.map((r) => r.location),
        rows.map((r) => r.start),
        rows.map((r) => r.end),
        rows.map((r) => r.attendeeName),
        rows.map((r) => r.attendeeEmail),
      ],
    );
    return new Set(inserted.map((r) => r.id));
  }

  /**
   * Moves or re-details imported bookings that still hold their time, or revives ones this import
   * cancelled. Fails as a whole (23P01) when one of them would overlap: the caller splits the batch.
   */
  async updateMany(
    organizationId: string,
    now: Date,
    rows: ImportChange[],
  ): Promise<string[]> {
    const updated = await this.db.rows<{ id: string }>(
      `UPDATE bookings b
          SET start_time = u.start_time, end_time = u.end_time, title = u.title, location = u.location,
              attendee_name = u.attendee_name, attendee_email = u.attendee_email, updated_at = $2,
              status = CASE WHEN u.reactivate THEN 'CONFIRMED' ELSE b.status END,
              cancelled_at = CASE WHEN u.reactivate THEN NULL ELSE b.cancelled_at END,
              cancelled_by_sync = CASE WHEN u.reactivate THEN false ELSE b.cancelled_by_sync END
         FROM unnest($3::uuid[], $4::timestamptz[], $5::timestamptz[], $6::text[], $7::text[], $8::text[],
                     $9::text[], $10::boolean[])
              AS u(id, start_time, end_time, title, location, attendee_name, attendee_email, reactivate)
        WHERE b.organization_id = $1 AND b.id = u.id
          AND (b.status IN ('PENDING', 'CONFIRMED')
               OR (u.reactivate AND b.status = 'CANCELLED' AND b.cancelled_by_sync))
       RETURNING b.id`,
      [
        organizationId,
        now,
        rows.map((r) => r.id),
        rows.map((r) => r.start),
        rows.map((r) => r.end),
        rows.map((r) => r.title),
        rows.map((r) => r.location),
        rows.map((r) => r.attendeeName),
        rows.map((r) => r.attendeeEmail),
        rows.map((r) => r.reactivate),
      ],
    );
    return updated.map((r) => r.id);
  }

  /** Cancels the given imported bookings that are still PENDING or CONFIRMED, marking them as cancelled by the import. */
  async cancelMany(organizationId: string, ids: string[], now: Date): Promise<string[]> {
    if (ids.length === 0) return [];
    const cancelled = await this.db.rows<{ id: string }>(
      `UPDATE bookings SET status = 'CANCELLED', cancelled_at = $2, updated_at = $2, cancelled_by_sync = true
        WHERE organization_id = $1 AND id = ANY($3::uuid[]) AND status IN ('PENDING', 'CONFIRMED')
       RETURNING id`,
      [organizationId, now, ids],
    );
    return cancelled.map((r) => r.id);
  }
}
