import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  checkPrecondition,
  Clock,
  newId,
  NotFoundError,
  Outbox,
  Page,
  Precondition,
} from '@almanac/shared';
import { DataSource, EntityManager } from 'typeorm';
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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventsRepository,
    private readonly registrations: RegistrationsRepository,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {}

  async register(organizationId: string, eventId: string, person: { name: string; email: string }): Promise<Registration> {
    return this.dataSource.transaction(async (em) => {
      const event = await this.eventOrFail(em, organizationId, eventId, true);
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
      await this.registrations.insert(em, registration);
      // A waiting registration learns its place in the list (the event's lock holds the list still).
      const stored = status === 'waitlisted' ? (await this.registrations.findById(em, organizationId, eventId, registration.id))! : registration;
      await this.announce(em, 'registration.created', stored);
      return stored;
    });
  }

  async list(
    organizationId: string,
    eventId: string,
    status: RegistrationStatus | undefined,
    page: Page,
  ): Promise<{ registrations: Registration[]; total: number }> {
    const em = this.dataSource.manager;
    await this.eventOrFail(em, organizationId, eventId, false);
    return this.registrations.list(em, organizationId, eventId, status, page);
  }

  async get(organizationId: string, eventId: string, id: string): Promise<Registration> {
    const registration = await this.registrations.findById(this.dataSource.manager, organizationId, eventId, id);
    if (!registration) throw new NotFoundError('Registration');
    return registration;
  }

  /**
   * Cancels and frees the place, which goes to the oldest waiting registration in the same
   * transaction; cancelling a waiting one takes it off the list. Cancelling a cancelled
   * registration answers it unchanged.
   */
  async cancel(organizationId: string, eventId: string, id: string, precondition = Precondition.none<Registration>()): Promise<Registration> {
    return this.dataSource.transaction(async (em) => {
      await this.eventOrFail(em, organizationId, eventId, true);
      await checkPrecondition(em, precondition, { table: 'event_registrations', organizationId, id }, (tx) =>
        this.registrations.findById(tx, organizationId, eventId, id),
      );
      const cancelled = await this.registrations.cancel(em, organizationId, eventId, id, this.clock.now());
      if (cancelled) {
        await this.announce(em, 'registration.cancelled', cancelled.registration, cancelled.was);
        if (cancelled.was === 'active') await this.promoteWaiting(em, organizationId, eventId);
        return cancelled.registration;
      }
      const existing = await this.registrations.findById(em, organizationId, eventId, id);
      if (!existing) throw new NotFoundError('Registration');
      return existing;
    });
  }

  /** Fills the places free now from the waiting list, oldest first; each promotion is announced. */
  async promoteWaiting(em: EntityManager, organizationId: string, eventId: string): Promise<Registration[]> {
    const promoted = await this.registrations.promote(em, organizationId, eventId);
    for (const registration of promoted) await this.announce(em, 'registration.promoted', registration, 'waitlisted');
    return promoted;
  }

  private async announce(em: EntityManager, type: RegistrationChangeType, registration: Registration, previousStatus?: RegistrationStatus): Promise<void> {
    await this.outbox.record(em, registrationChanged(type, registration, this.clock.now(), previousStatus));
  }

  private async eventOrFail(em: EntityManager, organizationId: string, eventId: string, lock: boolean): Promise<Event> {
    const event = await this.events.findById(em, organizationId, eventId, { lock });
    if (!event) throw new NotFoundError('Event');
    return event;
  }
}
