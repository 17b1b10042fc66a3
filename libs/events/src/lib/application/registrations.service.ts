import { Injectable } from '@nestjs/common';
import {
  Clock,
  ListTotal,
  newId,
  NotFoundError,
  Outbox,
  Page,
  Precondition,
  Transactions,
} from '@almanac/shared';
import { Event } from '../domain/event';
import { Registration, RegistrationStatus } from '../domain/registration';
import { RegistrationChangeType, registrationChanged } from '../domain/events-announcements';
import { EventsRepository } from '../infrastructure/events.repository';
import { RegistrationsRepository } from '../infrastructure/registrations.repository';

/**
 * Registrations. Each use case that changes one first locks its event's row, which serializes
 * registrations, cancellations and event changes of that event: the capacity check then sees the
 * true count, and the database constraints stay as the backstop.
 */
@Injectable()
export class RegistrationsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly events: EventsRepository,
    private readonly registrations: RegistrationsRepository,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {}

  async register(organizationId: string, eventId: string, person: { name: string; email: string }): Promise<Registration> {
    return this.transactions.run(async () => {
      const event = await this.eventOrFail(organizationId, eventId, true);
      const status = event.admitRegistration();
      const registration: Registration = {
        id: newId(),
        organizationId,
        eventId,
        name: person.name,
        email: person.email,
        status,
        createdAt: this.clock.now(),
        cancelledAt: null,
        position: null,
      };
      await this.registrations.insert(registration);
      // A waiting registration learns its place in the list (the event's lock holds the list still).
      const stored = status === 'waitlisted' ? (await this.registrations.findById(organizationId, eventId, registration.id))! : registration;
      await this.announce('registration.created', stored);
      return stored;
    });
  }

  async list(
    organizationId: string,
    eventId: string,
    status: RegistrationStatus | undefined,
    page: Page,
  ): Promise<{ registrations: Registration[]; total: ListTotal }> {
    await this.eventOrFail(organizationId, eventId, false);
    return this.registrations.list(organizationId, eventId, status, page);
  }

  async get(organizationId: string, eventId: string, id: string): Promise<Registration> {
    const registration = await this.registrations.findById(organizationId, eventId, id);
    if (!registration) throw new NotFoundError('Registration');
    return registration;
  }

  /**
   * Cancels and frees the place, which goes to the oldest waiting registration in the same
   * transaction; cancelling a waiting one takes it off the list. Cancelling a cancelled
   * registration answers it unchanged.
   */
  async cancel(organizationId: string, eventId: string, id: string, precondition = Precondition.none<Registration>()): Promise<Registration> {
    return this.transactions.run(async () => {
      await this.eventOrFail(organizationId, eventId, true);
      await precondition.checkLocked(() => this.registrations.lockById(organizationId, eventId, id));
      const cancelled = await this.registrations.cancel(organizationId, eventId, id, this.clock.now());
      if (cancelled) {
        await this.announce('registration.cancelled', cancelled.registration, cancelled.was);
        if (cancelled.was === 'active') await this.promoteWaiting(organizationId, eventId);
        return cancelled.registration;
      }
      const existing = await this.registrations.findById(organizationId, eventId, id);
      if (!existing) throw new NotFoundError('Registration');
      return existing;
    });
  }

  /** Fills the places free now from the waiting list, oldest first; each promotion is announced. */
  async promoteWaiting(organizationId: string, eventId: string): Promise<Registration[]> {
    const promoted = await this.registrations.promote(organizationId, eventId);
    for (const registration of promoted) await this.announce('registration.promoted', registration, 'waitlisted');
    return promoted;
  }

  private async announce(type: RegistrationChangeType, registration: Registration, previousStatus?: RegistrationStatus): Promise<void> {
    await this.outbox.announce(registrationChanged(type, registration, this.clock.now(), previousStatus));
  }

  private async eventOrFail(organizationId: string, eventId: string, lock: boolean): Promise<Event> {
    const event = lock ? await this.events.lockById(organizationId, eventId) : await this.events.findById(organizationId, eventId);
    if (!event) throw new NotFoundError('Event');
    return event;
  }
}
