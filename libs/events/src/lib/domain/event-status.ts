import { InvalidTransitionError, TransitionTable, canTransition } from '@almanac/shared/domain';

export const EVENT_STATUSES = ['draft', 'published', 'cancelled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/**
 * Where an event's status may move. Cancelled is final. Setting the current
 * status again is not a move at all and is handled before the table is consulted.
 */
export const EVENT_TRANSITIONS: TransitionTable<EventStatus> = {
  draft: ['published', 'cancelled'],
  published: ['draft', 'cancelled'],
  cancelled: [],
};

/**
 * The status an event ends up with when `requested` is asked for: the same status again is a
 * no-op (cancelled → cancelled included); a move the table does not allow throws `invalid_transition`.
 */
export function nextEventStatus(current: EventStatus, requested: EventStatus): EventStatus {
  if (current === requested) return current;
  if (!canTransition(EVENT_TRANSITIONS, current, requested)) {
    throw new InvalidTransitionError('event', current, requested);
  }
  return requested;
}
