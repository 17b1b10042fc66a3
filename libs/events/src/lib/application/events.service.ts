import { Injectable } from '@nestjs/common';
import {
  Clock,
  ListTotal,
  InvalidReferenceError,
  isUuid,
  newId,
  NotFoundError,
  Outbox,
  Page,
  Precondition,
  Transactions,
} from '@almanac/shared';
import { Event, EventFields, EventListFilter, NewEvent } from '../domain/event';
import { ScheduleConflictError, ScheduleTimeHeldError } from '../domain/event-errors';
import { EventStatus } from '../domain/event-status';
import { eventChanged, eventDeleted } from '../domain/events-announcements';
import { EventsRepository } from '../infrastructure/events.repository';
import { ScheduleHoldsRepository } from '../infrastructure/schedule-holds.repository';
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

/** An id that is not a UUID names no schedule, like an unknown one (whose foreign key refuses it). */
function assertScheduleReference(scheduleId: string | null | undefined): void {
  if (scheduleId !== undefined && scheduleId !== null && !isUuid(scheduleId)) throw new InvalidReferenceError('schedule_id');
}

/** Use cases of events: one transaction each, the domain decides, the repository persists. */
@Injectable()
export class EventsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly events: EventsRepository,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly registrations: RegistrationsService,
    private readonly holds: ScheduleHoldsRepository,
  ) {}

  /**
   * Runs a write of the event; when the database refused its time on its schedule, answers 409
   * schedule_conflict with what holds that time, looked up once the write's transaction is over.
   */
  private async holdingTime<T>(organizationId: string, attempted: () => Event | null, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      const event = attempted()?.snapshot;
      if (!(error instanceof ScheduleTimeHeldError) || !event?.scheduleId) throw error;
      const conflicts = await this.holds.conflicts(organizationId, event.scheduleId, event.startsAt, event.endsAt, this.clock.now(), event.id);
      throw new ScheduleConflictError(conflicts);
    }
  }

  async list(organizationId: string, criteria: EventListCriteria, page: Page): Promise<{ events: Event[]; total: ListTotal }> {
    const now = this.clock.now();
    const filter: EventListFilter = {
      siteId: criteria.siteId,
      status: criteria.status,
      endsAfter: criteria.upcoming ? now : undefined,
      endedBy: criteria.past ? now : undefined,
      fromDate: criteria.fromDate,
      toDate: criteria.toDate,
    };
    return this.events.list(organizationId, filter, page);
  }

  async get(organizationId: string, id: string): Promise<Event> {
    const event = await this.events.findById(organizationId, id);
    if (!event) throw new NotFoundError('Event');
    return event;
  }

  async create(organizationId: string, input: NewEvent): Promise<Event> {
    assertScheduleReference(input.scheduleId);
    const event = Event.create(input, { id: newId(), organizationId }, this.clock.now());
    await this.holdingTime(organizationId, () => event, () =>
      this.transactions.run(async () => {
        await this.events.insert(event);
        await this.outbox.announce(eventChanged('event.created', event, this.clock.now()));
      }),
    );
    return event;
  }

  async update(organizationId: string, id: string, changes: EventFields, precondition = Precondition.none<Event>()): Promise<Event> {
    assertScheduleReference(changes.scheduleId);
    let attempted: Event | null = null;
    return this.holdingTime(organizationId, () => attempted, () => this.transactions.run(async () => {
      const event = await this.events.lockById(organizationId, id);
      if (!event) throw new NotFoundError('Event');
      precondition.assert(event);
      if (!event.update(changes, this.clock.now())) return event;
      attempted = event;
      await this.events.update(event);
      // More places (or none to count) take waiting registrations off the list in this transaction.
      const promoted = event.snapshot.waitlistCount > 0 ? await this.registrations.promoteWaiting(organizationId, id) : [];
      const current = promoted.length > 0 ? (await this.events.findById(organizationId, id))! : event;
      await this.outbox.announce(eventChanged('event.updated', current, this.clock.now()));
      return current;
    }));
  }

  async delete(organizationId: string, id: string, precondition = Precondition.none<Event>()): Promise<void> {
    const deleted = await this.transactions.run(async () => {
      await precondition.checkLocked(() => this.events.lockById(organizationId, id));
      const gone = await this.events.delete(organizationId, id);
      if (gone) await this.outbox.announce(eventDeleted(organizationId, id, this.clock.now()));
      return gone;
    });
    if (!deleted) throw new NotFoundError('Event');
  }
}
