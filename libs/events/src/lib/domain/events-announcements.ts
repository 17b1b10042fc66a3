import type { DomainEvent } from '@almanac/shared/domain';
import { Event, representEvent } from './event';
import { Registration, REGISTRATION_FIELDS, RegistrationStatus } from './registration';

/*
 * What the events context announces through the outbox, built in this one place: each event's
 * `data` is the record as its single GET shows it (the same representation as the API's answers).
 */

export type EventChangeType = 'event.created' | 'event.updated';
export type RegistrationChangeType = 'registration.created' | 'registration.cancelled' | 'registration.promoted';

export function eventChanged(type: EventChangeType, event: Event, occurredAt: Date): DomainEvent {
  return { type, organizationId: event.snapshot.organizationId, data: representEvent(event), occurredAt };
}

export function eventDeleted(organizationId: string, id: string, occurredAt: Date): DomainEvent {
  return { type: 'event.deleted', organizationId, data: { id, deleted: true }, occurredAt };
}

/** A registration event; a move out of a status (cancelled, promoted) carries the status before it. */
export function registrationChanged(
  type: RegistrationChangeType,
  registration: Registration,
  occurredAt: Date,
  previousStatus?: RegistrationStatus,
): DomainEvent {
  return { type, organizationId: registration.organizationId, data: REGISTRATION_FIELDS.represent(registration), previousStatus, occurredAt };
}
