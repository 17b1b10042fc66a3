import { Injectable } from '@nestjs/common';
import { Transactions } from '@almanac/shared';
import type { ManagedBooking } from '../domain/booking-self-service';
import { BOOKING_TABLE } from './booking.table';
import { EVENT_TYPE_TABLE } from './event-type.table';

/** What the attendee's side reads of a booking's event type: what it shows and its policy. */
const POLICY_TABLE = EVENT_TYPE_TABLE.pick(
  'id',
  'title',
  'duration',
  'attendeeCanCancel',
  'attendeeCanReschedule',
  'cancelNoticeMinutes',
  'rescheduleNoticeMinutes',
);

/** The statements of the manage token: open a booking by its hash, give a booking a new one. */
@Injectable()
export class ManageTokenRepository {
  constructor(private readonly db: Transactions) {}

  /**
   * The booking whose manage token has this SHA-256, and its event type's policy as it is now, in one
   * round trip; served by the index on the hash (any organization: the token alone names it).
   */
  async open(tokenHash: string): Promise<ManagedBooking | null> {
    const [row] = await this.db.rows<Record<string, unknown> & { event_type: Record<string, unknown> | null }>(
      `SELECT ${BOOKING_TABLE.select('b')},
         (SELECT ${POLICY_TABLE.jsonObject('e')} FROM event_types e
           WHERE e.organization_id = b.organization_id AND e.id = b.event_type_id) AS event_type
       FROM bookings b
       WHERE b.manage_token_hash = $1 AND b.manage_token_hash IS NOT NULL`,
      [tokenHash],
    );
    if (!row) return null;
    return {
      booking: BOOKING_TABLE.fromRow(row),
      eventType: row.event_type ? POLICY_TABLE.fromJson(row.event_type) : null,
    };
  }

  /** Stores a new token's hash on the booking (the old token opens nothing from now on); false: no such booking. */
  async replace(organizationId: string, bookingId: string, tokenHash: string): Promise<boolean> {
    const rows = await this.db.rows(
      'UPDATE bookings SET manage_token_hash = $3 WHERE organization_id = $1 AND id = $2 RETURNING id',
      [organizationId, bookingId, tokenHash],
    );
    return rows.length > 0;
  }
}
