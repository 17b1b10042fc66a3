import { DomainError } from '@almanac/shared/domain';

export class EventNotOpenError extends DomainError {
  constructor(status: string) {
    super('event_not_open', `Only published events accept registrations; this event is ${status}.`);
  }
}

export class EventFullError extends DomainError {
  constructor() {
    super('event_full', 'Every place of this event is taken.');
  }
}

export class AlreadyRegisteredError extends DomainError {
  constructor() {
    super('already_registered', 'This e-mail address already has an active registration for this event.', [
      { field: 'email', message: 'already registered for this event' },
    ]);
  }
}

export class SlotsBelowRegistrationsError extends DomainError {
  constructor(slots: number, active?: number) {
    super(
      'slots_below_registrations',
      active === undefined
        ? `slots cannot be ${slots}: the event has more active registrations.`
        : `slots cannot be ${slots}: the event has ${active} active registrations.`,
      [{ field: 'slots', message: 'must not be below the number of active registrations' }],
    );
  }
}

/** What already holds time a published event would take on its schedule. */
export interface ScheduleConflict {
  readonly kind: 'booking' | 'reservation' | 'event';
  readonly id: string;
  readonly startTime: Date;
  readonly endTime: Date;
}

/**
 * The database refused an event's time on its schedule (something else holds it): the service
 * answers with a ScheduleConflictError listing what does, once the write's transaction is over.
 */
export class ScheduleTimeHeldError extends Error {
  constructor() {
    super("Something already holds the event's time on its schedule.");
    this.name = 'ScheduleTimeHeldError';
  }
}

/** How many conflicts a `schedule_conflict` lists at most (the earliest). */
export const MAX_LISTED_CONFLICTS = 100;

/**
 * 409 `schedule_conflict`: publishing the event, or moving a published one, would overlap what holds
 * its schedule's time (PENDING/CONFIRMED bookings, unexpired reservations, other published events).
 */
export class ScheduleConflictError extends DomainError {
  constructor(conflicts: readonly ScheduleConflict[]) {
    super(
      'schedule_conflict',
      'The event would overlap bookings, reservations or events that already hold its schedule\'s time; nothing was changed.',
      undefined,
      {
        conflicts: conflicts.map((c) => ({
          [`${c.kind}_id`]: c.id,
          start_time: c.startTime.toISOString(),
          end_time: c.endTime.toISOString(),
        })),
      },
    );
  }
}

/** The events context's own error codes and their HTTP statuses (registered by EventsModule). */
export const EVENTS_ERROR_CODES = {
  event_not_open: 409,
  event_full: 409,
  already_registered: 409,
  slots_below_registrations: 409,
  schedule_conflict: 409,
} as const;
