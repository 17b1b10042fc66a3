import { DomainError } from '@almanac/shared/domain';
import { Booking, BookingUpdate, newBooking, planBookingCancellation, planBookingUpdate } from './booking';
import { BookingStatus } from './booking-status';

const NOW = new Date('2030-01-01T10:00:00Z');
const START = new Date('2030-02-01T09:00:00Z');
const END = new Date('2030-02-01T09:30:00Z');

function booking(status: BookingStatus): Booking {
  const made = newBooking(
    {
      id: 'b',
      organizationId: 'o',
      scheduleId: 's',
      startTime: START,
      endTime: END,
      attendee: { name: 'Ada', email: 'ada@example.com' },
      schedule: { timezone: 'UTC' },
      eventType: null,
      manageTokenHash: null,
    },
    NOW,
  );
  return { ...made, status };
}

const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof DomainError ? error.code : 'not a domain error';
  }
};

describe('Booking aggregate', () => {
  it('a new booking is PENDING, lends defaults from its event type and schedule, and keeps the type buffers', () => {
    const made = newBooking(
      {
        id: 'b',
        organizationId: 'o',
        scheduleId: 's',
        startTime: START,
        endTime: END,
        attendee: { name: 'Ada', email: 'ada@example.com' },
        schedule: { timezone: 'Europe/Paris' },
        eventType: { id: 'e', title: 'Intro call', locationType: 'phone', bufferBefore: 10, bufferAfter: 5 },
        manageTokenHash: 'f'.repeat(64),
      },
      NOW,
    );
    expect(made).toMatchObject({
      status: 'PENDING',
      title: 'Intro call',
      timezone: 'Europe/Paris',
      locationType: 'phone',
      eventTypeId: 'e',
      bufferBefore: 10,
      bufferAfter: 5,
      metadata: {},
      cancelledAt: null,
      cancelledBy: null,
      cancellationReason: null,
      manageTokenHash: 'f'.repeat(64),
      createdAt: NOW,
      updatedAt: NOW,
    });
    expect(booking('PENDING')).toMatchObject({ title: 'Booking', timezone: 'UTC', bufferBefore: 0, eventTypeId: null });
  });

  it.each<[string, BookingStatus, BookingUpdate, string | undefined]>([
    ['an empty PATCH', 'PENDING', {}, 'validation_failed'],
    ['an empty attendee', 'PENDING', { attendee: {} }, 'validation_failed'],
    ['PENDING → CONFIRMED', 'PENDING', { status: 'CONFIRMED' }, undefined],
    ['PENDING → COMPLETED', 'PENDING', { status: 'COMPLETED' }, 'invalid_transition'],
    ['CONFIRMED → CONFIRMED (the same status again)', 'CONFIRMED', { status: 'CONFIRMED' }, 'invalid_transition'],
    ['CANCELLED → CONFIRMED', 'CANCELLED', { status: 'CONFIRMED' }, 'invalid_transition'],
    ['a start without an end', 'PENDING', { startTime: START }, 'validation_failed'],
    ['a reschedule of a COMPLETED booking', 'COMPLETED', { startTime: START, endTime: END }, 'invalid_transition'],
    ['a title on a COMPLETED booking', 'COMPLETED', { title: 'Notes' }, undefined],
  ])('%s', (_name, status, update, expected) => {
    expect(code(() => planBookingUpdate(booking(status), update, NOW))).toBe(expected);
  });

  it('a status move is a compare-and-swap on the status read, announced as the move with the status before it', () => {
    const plan = planBookingUpdate(booking('CONFIRMED'), { status: 'CANCELLED' }, NOW);
    expect(plan).toEqual({
      changes: { status: 'CANCELLED', cancelledAt: NOW, cancelledBy: 'api', updatedAt: NOW },
      expectedStatus: 'CONFIRMED',
      reschedule: undefined,
      event: 'booking.cancelled',
      previousStatus: 'CONFIRMED',
    });
  });

  it('a reschedule moves start and end together under the status read; details alone need no status', () => {
    const later = { startTime: new Date('2030-03-01T09:00:00Z'), endTime: new Date('2030-03-01T10:00:00Z') };
    const plan = planBookingUpdate(booking('PENDING'), { ...later, title: 'Moved' }, NOW);
    expect(plan.changes).toEqual({ ...later, title: 'Moved', updatedAt: NOW });
    expect(plan).toMatchObject({ expectedStatus: 'PENDING', reschedule: later, event: 'booking.updated', previousStatus: undefined });
    expect(planBookingUpdate(booking('NO_SHOW'), { attendee: { notes: 'x' } }, NOW)).toMatchObject({
      changes: { attendeeNotes: 'x', updatedAt: NOW },
      expectedStatus: undefined,
    });
  });

  it.each<[BookingStatus, string]>([
    ['PENDING', 'cancel'],
    ['CONFIRMED', 'cancel'],
    ['CANCELLED', 'nothing'],
    ['COMPLETED', 'invalid_transition'],
    ['NO_SHOW', 'invalid_transition'],
  ])('cancelling a %s booking: %s', (status, expected) => {
    let outcome: string;
    try {
      outcome = planBookingCancellation(booking(status), NOW) ? 'cancel' : 'nothing';
    } catch (error) {
      outcome = (error as DomainError).code;
    }
    expect(outcome).toBe(expected);
  });
});
