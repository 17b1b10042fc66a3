import { Transactions } from '@almanac/shared';
import { Injectable } from '@nestjs/common';
import type { Reservation } from '../domain/reservation';
import { translateBookingWriteError } from './sql';

interface ReservationRow {
  id: string;
  organization_id: string;
  schedule_id: string;
  event_type_id: string;
  start_time: Date;
  end_time: Date;
  buffer_before: number;
  buffer_after: number;
  expires_at: Date;
  created_at: Date;
}

const COLUMNS =
  'id, organization_id, schedule_id, event_type_id, start_time, end_time, buffer_before, buffer_after, expires_at, created_at';

function toReservation(row: ReservationRow): Reservation {
  return {
    id: row.id,
    organizationId: row.organization_id,
    scheduleId: row.schedule_id,
    eventTypeId: row.event_type_id,
    startTime: row.start_time,
    endTime: row.end_time,
    bufferBefore: row.buffer_before,
    bufferAfter: row.buffer_after,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  };
}

/**
 * `slot_reservations`: slot holds. A trigger writes each one's blocked time into
 * `schedule_blocked_times` (whose exclusion constraint refuses a hold on taken time) and removes it
 * with the row. A row whose `expires_at` has passed holds nothing, whether or not it is deleted yet.
 */
@Injectable()
export class ReservationRepository {
  constructor(private readonly db: Transactions) {}

  /** Throws `BookingOverlapError` (naming nothing yet) when the time is held, `InvalidReferenceError` when a referenced row vanished. */
  async insert(r: Reservation): Promise<Reservation> {
    try {
      const [row] = await this.db.rows<ReservationRow>(
        `INSERT INTO slot_reservations (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
        [r.id, r.organizationId, r.scheduleId, r.eventTypeId, r.startTime, r.endTime, r.bufferBefore, r.bufferAfter, r.expiresAt, r.createdAt],
      );
      return toReservation(row!);
    } catch (error) {
      throw translateBookingWriteError(error);
    }
  }

  /** The reservation while it is unexpired at `now`, else null. */
  async findActive(organizationId: string, id: string, now: Date): Promise<Reservation | null> {
    const [row] = await this.db.rows<ReservationRow>(
      `SELECT ${COLUMNS} FROM slot_reservations WHERE organization_id = $1 AND id = $2 AND expires_at > $3`,
      [organizationId, id, now],
    );
    return row ? toReservation(row) : null;
  }

  /**
   * Deletes the reservation and returns it, if it was unexpired at `now`: a release, or its
   * consumption by a booking in the booking's transaction. Of concurrent callers one gets it, the
   * others (waiting on the row) null.
   */
  async take(organizationId: string, id: string, now: Date): Promise<Reservation | null> {
    const [row] = await this.db.rows<ReservationRow>(
      `DELETE FROM slot_reservations WHERE organization_id = $1 AND id = $2 AND expires_at > $3 RETURNING ${COLUMNS}`,
      [organizationId, id, now],
    );
    return row ? toReservation(row) : null;
  }

  /**
   * Deletes up to `limit` reservations expired at `now`, oldest expiry first, skipping rows another
   * transaction holds (a booking consuming one); returns how many went.
   */
  async deleteExpired(now: Date, limit: number): Promise<number> {
    const rows = await this.db.rows<{ id: string }>(
      `DELETE FROM slot_reservations
        WHERE (organization_id, id) IN (
          SELECT organization_id, id FROM slot_reservations WHERE expires_at <= $1
           ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [now, limit],
    );
    return rows.length;
  }
}

