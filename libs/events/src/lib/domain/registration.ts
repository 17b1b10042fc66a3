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
