import { field, recordFields } from '@almanac/shared/domain';

export const REGISTRATION_STATUSES = ['active', 'cancelled', 'waitlisted'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

export const REGISTRATION_NAME_MAX_LENGTH = 300;
export const EMAIL_MAX_LENGTH = 254;

/** A person's place at an event. Cancelling frees the place and keeps the record. */
export interface Registration {
  readonly id: string;
  readonly organizationId: string;
  readonly eventId: string;
  readonly name: string;
  readonly email: string;
  readonly status: RegistrationStatus;
  readonly createdAt: Date;
  readonly cancelledAt: Date | null;
  /** 1-based place in the event's waiting list while `waitlisted` (dense: computed when read); else null. */
  readonly position: number | null;
}

/** Every field of a registration, in the order its representation lists them. */
export const REGISTRATION_FIELDS = recordFields<Registration>()({
  id: field.value,
  organizationId: field.hidden(field.value),
  eventId: field.value,
  name: field.value,
  email: field.value,
  status: field.value,
  createdAt: field.instant,
  cancelledAt: field.instant,
  position: field.value,
});
