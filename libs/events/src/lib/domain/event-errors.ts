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

/** The events context's own error codes and their HTTP statuses (registered by EventsModule). */
export const EVENTS_ERROR_CODES = {
  event_not_open: 409,
  event_full: 409,
  already_registered: 409,
  slots_below_registrations: 409,
} as const;
