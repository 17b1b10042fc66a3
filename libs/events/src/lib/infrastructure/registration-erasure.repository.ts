import { Injectable } from '@nestjs/common';
import { Transactions } from '@almanac/shared';

/** The statements of a person's erasure from the registrations. */
@Injectable()
export class RegistrationErasureRepository {
  constructor(private readonly db: Transactions) {}

  /** The organization's registrations with e-mail `address` (lowercased), cancelled ones too, locked in id order. */
  async lockPersonRegistrations(organizationId: string, address: string): Promise<Array<{ id: string; name: string }>> {
    return this.db.rowsInTransaction(
      'SELECT id, name FROM event_registrations WHERE organization_id = $1 AND lower(email) = $2 ORDER BY id FOR UPDATE',
      [organizationId, address],
    );
  }

  /** Name and e-mail replaced; status, event and times stay (so do the event's counts). */
  async anonymise(organizationId: string, ids: string[], name: string, email: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db.rows('UPDATE event_registrations SET name = $2, email = $3 WHERE organization_id = $1 AND id = ANY ($4::uuid[])', [
      organizationId,
      name,
      email,
      ids,
    ]);
  }
}
