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
import { DataSource } from 'typeorm';
import { Event, EventFields, EventListFilter, NewEvent } from '../domain/event';
import { EventStatus } from '../domain/event-status';
import { eventChanged, eventDeleted } from '../domain/events-announcements';
import { EventsRepository } from '../infrastructure/events.repository';
import { RegistrationsService } from './registrations.service';

export interface EventListCriteria {
  siteId?: string;
  status?: EventStatus;
  /** true: only events not yet ended. */
  upcoming?: boolean;
  /** true: only events already ended. */
  past?: boolean;
  fromDate?: string;
  toDate?: string;
}

/** Use cases of events: one transaction each, the domain decides, the repository persists. */
@Injectable()
export class EventsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventsRepository,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly registrations: RegistrationsService,
  ) {}

  async list(organizationId: string, criteria: EventListCriteria, page: Page): Promise<{ events: Event[]; total: number }> {
    const now = this.clock.now();
    const filter: EventListFilter = {
      siteId: criteria.siteId,
      status: criteria.status,
      endsAfter: criteria.upcoming ? now : undefined,
      endedBy: criteria.past ? now : undefined,
      fromDate: criteria.fromDate,
      toDate: criteria.toDate,
    };
    return this.events.list(this.dataSource.manager, organizationId, filter, page);
  }

  async get(organizationId: string, id: string): Promise<Event> {
    const event = await this.events.findById(this.dataSource.manager, organizationId, id);
    if (!event) throw new NotFoundError('Event');
    return event;
  }

  async create(organizationId: string, input: NewEvent): Promise<Event> {
    const event = Event.create(input, { id: newId(), organizationId }, this.clock.now());
    await this.dataSource.transaction(async (em) => {
      await this.events.insert(em, event);
      await this.outbox.record(em, eventChanged('event.created', event, this.clock.now()));
    });
    return event;
  }

  async update(organizationId: string, id: string, changes: EventFields, precondition = Precondition.none<Event>()): Promise<Event> {
    return this.dataSource.transaction(async (em) => {
      const event = await this.events.findById(em, organizationId, id, { lock: true });
      if (!event) throw new NotFoundError('Event');
      precondition.assert(event);
      if (!event.update(changes, this.clock.now())) return event;
      await this.events.update(em, event);
      // More places (or none to count) take waiting registrations off the list in this transaction.
      const promoted = event.snapshot.waitlistCount > 0 ? await this.registrations.promoteWaiting(em, organizationId, id) : [];
      const current = promoted.length > 0 ? (await this.events.findById(em, organizationId, id))! : event;
      await this.outbox.record(em, eventChanged('event.updated', current, this.clock.now()));
      return current;
    });
  }

  async delete(organizationId: string, id: string, precondition = Precondition.none<Event>()): Promise<void> {
    const deleted = await this.dataSource.transaction(async (em) => {
      await checkPrecondition(em, precondition, { table: 'events', organizationId, id }, (tx) =>
        this.events.findById(tx, organizationId, id),
      );
      const gone = await this.events.delete(em, organizationId, id);
      if (gone) await this.outbox.record(em, eventDeleted(organizationId, id, this.clock.now()));
      return gone;
    });
    if (!deleted) throw new NotFoundError('Event');
  }
}
