import { Injectable } from '@nestjs/common';
import { RegistrationErasureService } from '@almanac/events';
import { IdentityService } from '@almanac/identity';
import { BookingErasureService } from '@almanac/scheduling';
import { AuditLog, AuditSource, Clock, personErasure, Transactions } from '@almanac/shared';
import { WebhookErasureService } from '@almanac/webhooks';

export interface ErasureResult {
  bookings: number;
  registrations: number;
  at: Date;
}

/**
 * The erasure of a person from one organization, in one transaction across the contexts that hold
 * their data, each through its own public erasure method (none reaches into another's tables):
 * scheduling's bookings and events' registrations first (they say which records were the person's
 * and what names those held), then the copies of those records kept elsewhere: the answers kept for
 * Idempotency-Key replays (identity) and the stored events and delivery answers (webhooks). Last,
 * the audit entry, with the SHA-256 of the address as its target.
 */
@Injectable()
export class ErasureService {
  constructor(
    private readonly transactions: Transactions,
    private readonly bookings: BookingErasureService,
    private readonly registrations: RegistrationErasureService,
    private readonly identity: IdentityService,
    private readonly webhooks: WebhookErasureService,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
  ) {}

  async erase(organizationId: string, email: string, source: AuditSource): Promise<ErasureResult> {
    const erasure = personErasure(email);
    return this.transactions.run(async () => {
      const bookings = await this.bookings.erasePerson(organizationId, erasure);
      const registrations = await this.registrations.erasePerson(organizationId, erasure);
      const erased = [bookings, registrations];
      await this.identity.eraseFromStoredAnswers(organizationId, erasure, erased);
      await this.webhooks.erasePerson(organizationId, erasure, erased);
      await this.audit.record(this.transactions.manager(), organizationId, source, 'erasure.performed', { type: 'person', id: erasure.hash });
      return { bookings: bookings.records.length, registrations: registrations.records.length, at: this.clock.now() };
    });
  }
}
