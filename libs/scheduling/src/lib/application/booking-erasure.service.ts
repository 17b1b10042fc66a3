import { Injectable } from '@nestjs/common';
import { Clock, ERASED_NAME, ErasedRecords, PersonErasure, scrubPayload, Transactions } from '@almanac/shared';
import { BookingErasureRepository } from '../infrastructure/booking-erasure.repository';

/**
 * A person's erasure from the organization's bookings (for the operators' erasure, through the
 * public API; no `EntityManager` crosses it: it joins the caller's `Transactions.run`). Times and
 * status stay; the attendee goes: name `Erased`, the replacement e-mail, no phone, notes, time zone
 * or cancellation reason, the address or the name wherever they stood in the booking's metadata, and
 * their manage token (it opens nothing any more).
 */
@Injectable()
export class BookingErasureService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repository: BookingErasureRepository,
    private readonly clock: Clock,
  ) {}

  async erasePerson(organizationId: string, erasure: PersonErasure): Promise<ErasedRecords> {
    return this.transactions.run(async () => {
      const rows = await this.repository.lockPersonBookings(organizationId, erasure.address);
      // The fields of a booking's payload (its GET) once the person has left it.
      const erased: ErasedRecords = {
        records: rows.map((r) => ({ id: r.id, name: r.attendee_name })),
        fields: {
          attendee_name: ERASED_NAME,
          attendee_email: erasure.replacementEmail,
          attendee_phone: null,
          attendee_notes: null,
          attendee_timezone: null,
          cancellation_reason: null,
        },
      };
      const anonymised = rows.map((r) => ({ id: r.id, metadata: (scrubPayload(r.metadata, erasure, [erased], true) ?? r.metadata) as Record<string, unknown> }));
      await this.repository.anonymise(organizationId, anonymised, ERASED_NAME, erasure.replacementEmail, this.clock.now());
      return erased;
    });
  }
}
