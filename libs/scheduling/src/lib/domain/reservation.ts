import { DomainError } from '@almanac/shared/domain';

/**
 * A slot hold: one slot an event type offers on a schedule, kept from every other writer until
 * `expiresAt`. While unexpired it blocks `[start − buffer_before, end + buffer_after)` like a PENDING
 * booking and counts toward the type's and the schedule's limits like one; at `expiresAt` it stops,
 * whether or not the background sweep has deleted it yet.
 */
export interface Reservation {
  readonly id: string;
  readonly organizationId: string;
  readonly scheduleId: string;
  readonly eventTypeId: string;
  readonly startTime: Date;
  readonly endTime: Date;
  /** The event type's buffers when the slot was held. */
  readonly bufferBefore: number;
  readonly bufferAfter: number;
  readonly expiresAt: Date;
  readonly createdAt: Date;
}

export const MIN_RESERVATION_TTL_MINUTES = 1;
export const MAX_RESERVATION_TTL_MINUTES = 30;
export const DEFAULT_RESERVATION_TTL_MINUTES = 10;

const MINUTE = 60_000;

export function newReservation(
  input: Omit<Reservation, 'endTime' | 'expiresAt' | 'createdAt'> & { duration: number; ttlMinutes: number },
  now: Date,
): Reservation {
  return {
    id: input.id,
    organizationId: input.organizationId,
    scheduleId: input.scheduleId,
    eventTypeId: input.eventTypeId,
    startTime: input.startTime,
    endTime: new Date(input.startTime.getTime() + input.duration * MINUTE),
    bufferBefore: input.bufferBefore,
    bufferAfter: input.bufferAfter,
    expiresAt: new Date(now.getTime() + input.ttlMinutes * MINUTE),
    createdAt: now,
  };
}

/** Whether the reservation still holds its time at `now` (it stops exactly at expires_at). */
export function isReservationActive(reservation: Pick<Reservation, 'expiresAt'>, now: Date): boolean {
  return reservation.expiresAt.getTime() > now.getTime();
}

/** What a booking that names a reservation must share with it to consume it. */
export interface ReservedBooking {
  readonly scheduleId: string;
  readonly eventTypeId: string | null;
  readonly startTime: Date;
  readonly endTime: Date;
}

/**
 * Throws unless a booking may consume the reservation: `reservation_expired` for one that is gone
 * (unknown, consumed, released) or expired, `reservation_mismatch` when the booking's schedule,
 * event type, start or end differ from it.
 */
export function assertConsumable(reservation: Reservation | null, booking: ReservedBooking, now: Date): void {
  if (!reservation || !isReservationActive(reservation, now)) throw new ReservationExpiredError();
  const mismatched: string[] = [];
  if (booking.scheduleId !== reservation.scheduleId) mismatched.push('schedule_id');
  if (booking.eventTypeId !== reservation.eventTypeId) mismatched.push('event_type_id');
  if (booking.startTime.getTime() !== reservation.startTime.getTime()) mismatched.push('start_time');
  if (booking.endTime.getTime() !== reservation.endTime.getTime()) mismatched.push('end_time');
  if (mismatched.length > 0) throw new ReservationMismatchError(mismatched);
}

export class ReservationExpiredError extends DomainError {
  constructor() {
    super('reservation_expired', 'The reservation is unknown, expired, released or already used by a booking.', [
      { field: 'reservation_id', message: 'names no unexpired reservation of this organization' },
    ]);
  }
}

export class ReservationMismatchError extends DomainError {
  constructor(fields: readonly string[]) {
    super(
      'reservation_mismatch',
      "The booking's schedule, event type, start and end must be the reservation's.",
      fields.map((field) => ({ field, message: 'differs from the reservation' })),
    );
  }
}
