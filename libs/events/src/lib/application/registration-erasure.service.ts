import { Injectable } from '@nestjs/common';
import { ERASED_NAME, ErasedRecords, PersonErasure, Transactions } from '@almanac/shared';
import { RegistrationErasureRepository } from '../infrastructure/registration-erasure.repository';

/**
 * A person's erasure from the organization's registrations (for the operators' erasure, through the
 * public API; it joins the caller's `Transactions.run`): name `Erased` and the replacement e-mail,
 * whatever the registration's status.
 */
@Injectable()
export class RegistrationErasureService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repository: RegistrationErasureRepository,
  ) {}

  async erasePerson(organizationId: string, erasure: PersonErasure): Promise<ErasedRecords> {
    return this.transactions.run(async () => {
      const rows = await this.repository.lockPersonRegistrations(organizationId, erasure.address);
      await this.repository.anonymise(organizationId, rows.map((r) => r.id), ERASED_NAME, erasure.replacementEmail);
      // The fields of a registration's payload (its GET) once the person has left it.
      return { records: rows, fields: { name: ERASED_NAME, email: erasure.replacementEmail } };
    });
  }
}
