import { Injectable } from '@nestjs/common';
import { Transactions } from '@almanac/shared';

/** A booking of the person being erased, locked, with what the erasure reads from it. */
export interface PersonBookingRow {
  id: string;
  attendee_name: string;
  metadata: Record<string, unknown>;
}

/** The statements of a person's erasure from the bookings. */
@Injectable()
export class BookingErasureRepository {
  constructor(private readonly db: Transactions) {}

  /**
   * The organization's bookings whose attendee e-mail is `address` (lowercased), cancelled ones too,
   * locked in id order (two erasures, or an erasure and a PATCH, take their rows in turn).
   */
  async lockPersonBookings(organizationId: string, address: string): Promise<PersonBookingRow[]> {
    return this.db.rowsInTransaction<PersonBookingRow>(
      `SELECT id, attendee_name, metadata FROM bookings
        WHERE organization_id = $1 AND lower(attendee_email) = $2 ORDER BY id FOR UPDATE`,
      [organizationId, address],
    );
  }

  /**
   * The person leaves the bookings: name and e-mail replaced, phone, notes, time zone and cancellation
   * reason cleared, metadata as given, and their manage token no longer opens them.
   */
  async anonymise(
    organizationId: string,
    rows: ReadonlyArray<{ id: string; metadata: Record<string, unknown> }>,
    name: string,
    email: string,
    now: Date,
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.db.rows(
      `UPDATE bookings b
          SET attendee_name = $2, attendee_email = $3, attendee_phone = NULL, attendee_notes = NULL, attendee_timezone = NULL,
              metadata = u.metadata, updated_at = $4,
              -- What the attendee wrote when cancelling is theirs; their manage token opens nothing more.
              cancellation_reason = NULL, manage_token_hash = NULL
         FROM unnest($5::uuid[], $6::jsonb[]) AS u(id, metadata)
        WHERE b.organization_id = $1 AND b.id = u.id`,
      [organizationId, name, email, now, rows.map((r) => r.id), rows.map((r) => JSON.stringify(r.metadata))],
    );
  }
}
