import { Availability } from './availability';
import { assertConsumable, isReservationActive, newReservation, Reservation } from './reservation';
import type { BookingRules } from './booking-rules';
import type { LimitReason } from './booking-limits';
import { BusyTimes, slotVerdict } from './slots';

const M = 60_000;
const at = (iso: string): number => Date.parse(iso);
const RULES: BookingRules = {
  duration: 30,
  bufferBefore: 0,
  bufferAfter: 0,
  minimumNotice: 0,
  slotInterval: null,
  bookingWindowDays: null,
  maxBookingsPerDay: null,
  maxBookingsPerWeek: null,
  maxBookingsPerMonth: null,
  maxBookedMinutesPerDay: null,
  maxBookedMinutesPerWeek: null,
};
const WEEKDAYS: Availability = { weekly: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }], overrides: [] };
const NONE: BusyTimes = { blockedStarts: [], blockedEnds: [] };
/** A Saturday; 2026-11-23 is a Monday. */
const NOW = at('2026-11-21T08:00:00Z');

function verdict(
  start: string,
  options: { rules?: Partial<BookingRules>; busy?: BusyTimes; availability?: Availability; limitOn?: (day: number) => LimitReason | null } = {},
) {
  return slotVerdict(
    {
      availability: options.availability ?? WEEKDAYS,
      scheduleTimeZone: 'UTC',
      rules: { ...RULES, ...options.rules },
      now: NOW,
      busy: options.busy ?? NONE,
      ...(options.limitOn ? { limitOn: options.limitOn } : {}),
    },
    at(start),
  );
}

describe('slotVerdict: whether a start is a slot offered now, else the first reason', () => {
  it.each([
    ['2026-11-23T10:00:00Z', {}, null],
    ['2026-11-22T10:00:00Z', {}, 'outside_availability'],
    ['2026-11-23T17:00:00Z', {}, 'outside_availability'],
    ['2026-11-23T09:10:00Z', {}, 'not_a_slot'],
    ['2026-11-23T16:45:00Z', {}, 'not_a_slot'],
    ['2026-11-23T16:40:00Z', { slotInterval: 10 }, 'not_a_slot'],
    ['2026-11-23T16:30:00Z', { slotInterval: 10 }, null],
    ['2026-11-23T10:00:00Z', { minimumNotice: 3 * 24 * 60 }, 'minimum_notice'],
    // Notice and window come before availability.
    ['2026-11-22T10:00:00Z', { minimumNotice: 3 * 24 * 60 }, 'minimum_notice'],
    ['2026-12-22T10:00:00Z', { bookingWindowDays: 10 }, 'booking_window'],
    ['2026-12-22T10:07:00Z', { bookingWindowDays: 10 }, 'booking_window'],
  ] as const)('%s with %j: %s', (start, rules, reason) => {
    expect(verdict(start, { rules })?.reason ?? null).toBe(reason);
  });

  it('names the holder of the time in the order booked, reserved, event, then the limits', () => {
    const span = (from: string, to: string) => ({ starts: [at(from)], ends: [at(to)] });
    const all: BusyTimes = {
      blockedStarts: [at('2026-11-23T10:15:00Z')],
      blockedEnds: [at('2026-11-23T10:45:00Z')],
      reserved: span('2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z'),
      events: span('2026-11-23T09:00:00Z', '2026-11-23T12:00:00Z'),
    };
    expect(verdict('2026-11-23T10:00:00Z', { busy: all })).toEqual({ reason: 'booked', busyIndex: 0 });
    expect(verdict('2026-11-23T10:30:00Z', { busy: { ...all, blockedStarts: [], blockedEnds: [] } })).toEqual({ reason: 'reserved', busyIndex: 0 });
    expect(verdict('2026-11-23T11:30:00Z', { busy: all })).toEqual({ reason: 'event', busyIndex: 0 });
    // Buffers reach out from the candidate: 12:00 with 15 minutes before meets the event's end.
    expect(verdict('2026-11-23T12:00:00Z', { busy: all, rules: { bufferBefore: 15 } })?.reason).toBe('event');
    expect(verdict('2026-11-23T12:00:00Z', { busy: all })).toBeNull();
    // A limit full on the 23rd (epoch day of its local date): after every holder, before nothing else.
    const fullOn23 = (day: number) => (day === at('2026-11-23T00:00:00Z') / 86_400_000 ? ('weekly_limit' as const) : null);
    expect(verdict('2026-11-23T12:00:00Z', { limitOn: fullOn23 })).toEqual({ reason: 'weekly_limit' });
    expect(verdict('2026-11-23T10:00:00Z', { busy: all, limitOn: fullOn23 })).toEqual({ reason: 'booked', busyIndex: 0 });
    expect(verdict('2026-11-23T09:10:00Z', { limitOn: fullOn23 })).toEqual({ reason: 'not_a_slot' });
    expect(verdict('2026-11-24T12:00:00Z', { limitOn: fullOn23 })).toBeNull();
  });
});

describe('reservations', () => {
  const reservation: Reservation = newReservation(
    {
      id: 'r',
      organizationId: 'o',
      scheduleId: 's',
      eventTypeId: 'e',
      startTime: new Date('2026-11-23T10:00:00Z'),
      duration: 30,
      bufferBefore: 5,
      bufferAfter: 10,
      ttlMinutes: 10,
    },
    new Date(NOW),
  );

  it('ends after the duration and expires exactly ttl minutes after it was made', () => {
    expect(reservation.endTime.toISOString()).toBe('2026-11-23T10:30:00.000Z');
    expect(reservation.expiresAt.getTime()).toBe(NOW + 10 * M);
    expect(isReservationActive(reservation, new Date(NOW + 10 * M - 1))).toBe(true);
    expect(isReservationActive(reservation, new Date(NOW + 10 * M))).toBe(false);
  });

  const booking = { scheduleId: 's', eventTypeId: 'e', startTime: reservation.startTime, endTime: reservation.endTime };
  it.each([
    [{}, null],
    [{ scheduleId: 'x' }, ['schedule_id']],
    [{ eventTypeId: null }, ['event_type_id']],
    [{ startTime: new Date('2026-11-23T10:05:00Z'), endTime: new Date('2026-11-23T10:35:00Z') }, ['start_time', 'end_time']],
    [{ endTime: new Date('2026-11-23T10:31:00Z') }, ['end_time']],
  ] as const)('a booking differing by %j is a mismatch on %j', (change, fields) => {
    const attempt = () => assertConsumable(reservation, { ...booking, ...change }, new Date(NOW));
    if (fields === null) expect(attempt).not.toThrow();
    else expect(attempt).toThrow(expect.objectContaining({ code: 'reservation_mismatch', errors: fields.map((field) => expect.objectContaining({ field })) }));
  });

  it('an unknown or expired one is reservation_expired, before any mismatch', () => {
    expect(() => assertConsumable(null, booking, new Date(NOW))).toThrow(expect.objectContaining({ code: 'reservation_expired' }));
    expect(() => assertConsumable(reservation, { ...booking, scheduleId: 'x' }, reservation.expiresAt)).toThrow(
      expect.objectContaining({ code: 'reservation_expired' }),
    );
  });
});
