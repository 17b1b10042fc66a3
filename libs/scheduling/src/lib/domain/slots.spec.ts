import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import {
  Availability,
  dateOverridesProblems,
  instantOf,
  TimeInterval,
  weeklyRulesProblems,
  WEEKDAYS,
  windowsOn,
  ZoneOffsets,
} from './availability';
import type { BookingRules } from './booking-rules';
import {
  LimitLedger,
  LimitReason,
  localDayOf,
  NO_EVENT_TYPE_LIMITS,
  NO_SCHEDULE_LIMITS,
  periodSpan,
  periodsToCount,
  ScheduleLimits,
  zoneForPeriods,
} from './booking-limits';
import {
  availableSlots,
  bookingMisfit,
  BusyBooking,
  busyTimesOf,
  RejectedCandidate,
  Slot,
  SlotQuery,
  slotQueryCost,
} from './slots';

const H = 3_600_000;
const M = 60_000;
const ALL_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const RULES: BookingRules = {
  duration: 60,
  bufferBefore: 0,
  bufferAfter: 0,
  minimumNotice: 0,
  slotInterval: null,
  bookingWindowDays: null,
  ...NO_EVENT_TYPE_LIMITS,
};

/** A booking of the schedule as these tests give it: whether it was made with the slots' event type too. */
type TestBooking = BusyBooking & { readonly sameEventType: boolean };

/**
 * The limits of a slots query as the service computes them: the periods of the dates looked at,
 * their totals (here counted in memory, as the repository's query counts them) and the ledger.
 */
function limitOnFor(
  q: Pick<SlotQuery, 'scheduleTimeZone' | 'rules' | 'from' | 'to'>,
  bookings: readonly TestBooking[],
  schedule: ScheduleLimits = NO_SCHEDULE_LIMITS,
): SlotQuery['limitOn'] {
  const limits = { eventType: q.rules, schedule };
  const zone = zoneForPeriods(q.scheduleTimeZone, q.from, q.to);
  const days: number[] = [];
  for (let day = localDayOf(zone, q.from) - 1; day <= localDayOf(zone, q.to) + 1; day++) days.push(day);
  const periods = periodsToCount(limits, days);
  const ledger = new LimitLedger(
    limits,
    periods.map((period) => {
      const span = periodSpan(zone, period);
      const inside = bookings.filter((b) => b.start >= span.start && b.start < span.end);
      const minutes = (list: readonly TestBooking[]) => list.reduce((sum, b) => sum + (b.end - b.start) / M, 0);
      const sameType = inside.filter((b) => b.sameEventType);
      return {
        period,
        totals: { bookings: inside.length, minutes: minutes(inside), typeBookings: sameType.length, typeMinutes: minutes(sameType) },
      };
    }),
  );
  return (day) => ledger.reasonFor(day, q.rules.duration);
}
const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString();
const nineToFive: Availability = { weekly: [{ days: [...ALL_DAYS], start: '09:00', end: '17:00' }], overrides: [] };

function slotsOn(
  availability: Availability,
  tz: string,
  date: string,
  rules: Partial<BookingRules> = {},
  busy: TestBooking[] = [],
  now = 0,
  schedule: ScheduleLimits = NO_SCHEDULE_LIMITS,
) {
  const day = Temporal.PlainDate.from(date);
  const from = day.toZonedDateTime({ timeZone: tz }).epochMilliseconds;
  const to = day.add({ days: 1 }).toZonedDateTime({ timeZone: tz }).epochMilliseconds;
  const q = { scheduleTimeZone: tz, rules: { ...RULES, ...rules }, from, to };
  return availableSlots({
    ...q,
    availability,
    timeZone: tz,
    now,
    busy: busyTimesOf(busy),
    limitOn: limitOnFor(q, busy, schedule),
  });
}

describe('availability validation', () => {
  it.each([
    [null, []],
    [[{ days: ['mon'], start: '09:00', end: '24:00' }], []],
    [[{ days: ['mon'], start: '09:00', end: '09:00' }], ['availability[0].end']],
    [[{ days: ['mon'], start: '24:00', end: '24:00' }], ['availability[0].start']],
    [[{ days: [], start: '09:00', end: '10:00' }], ['availability[0].days']],
    [[{ days: ['Mon'], start: '09:00', end: '10:00' }], ['availability[0].days']],
    [[{ days: ['mon', 'mon'], start: '09:00', end: '10:00' }], ['availability[0].days']],
    [[{ days: ['mon'], start: '9:00', end: '24:01' }], ['availability[0].start', 'availability[0].end']],
    [Array.from({ length: 51 }, () => ({ days: ['mon'], start: '09:00', end: '10:00' })), ['availability']],
    ['open', ['availability']],
  ])('weekly rules %#', (value, fields) => {
    expect(weeklyRulesProblems(value).map((p) => p.field)).toEqual(fields);
  });

  it.each([
    [[], []],
    [[{ date: '2027-01-01', intervals: [] }], []],
    [[{ date: '2027-02-30', intervals: [] }], ['date_overrides[0].date']],
    [
      [
        { date: '2027-01-01', intervals: [] },
        { date: '2027-01-01', intervals: [{ start: '10:00', end: '11:00' }] },
      ],
      ['date_overrides[1].date'],
    ],
    [[{ date: '2027-01-01', intervals: [{ start: '11:00', end: '10:00' }] }], ['date_overrides[0].intervals[0].end']],
    [Array.from({ length: 367 }, (_, i) => ({ date: Temporal.PlainDate.from('2027-01-01').add({ days: i }).toString(), intervals: [] })), ['date_overrides']],
    [null, ['date_overrides']],
  ])('date overrides %#', (value, fields) => {
    expect(dateOverridesProblems(value).map((p) => p.field)).toEqual(fields);
  });
});

describe('wall-clock times to instants', () => {
  it.each([
    // Paris: winter UTC+1, summer UTC+2.
    ['Europe/Paris', '2027-01-15', 9 * 60, '2027-01-15T08:00:00.000Z'],
    ['Europe/Paris', '2027-07-15', 9 * 60, '2027-07-15T07:00:00.000Z'],
    // Spring forward (02:00 → 03:00): 02:30 does not exist and is 03:30.
    ['Europe/Paris', '2027-03-28', 150, '2027-03-28T01:30:00.000Z'],
    // Fall back (03:00 → 02:00): 02:30 exists twice, the earlier one (still UTC+2) counts.
    ['Europe/Paris', '2027-10-31', 150, '2027-10-31T00:30:00.000Z'],
    ['America/New_York', '2027-03-14', 150, '2027-03-14T07:30:00.000Z'],
    ['America/New_York', '2027-11-07', 90, '2027-11-07T05:30:00.000Z'],
    // Lord Howe moves by 30 minutes: 02:15 on its spring-forward night is 02:45.
    ['Australia/Lord_Howe', '2027-10-03', 135, '2027-10-02T15:45:00.000Z'],
    ['Asia/Kolkata', '2027-06-01', 9 * 60, '2027-06-01T03:30:00.000Z'],
    // 24:00 is the next day's midnight.
    ['UTC', '2027-06-01', 1440, '2027-06-02T00:00:00.000Z'],
  ])('%s %s minute %d → %s', (tz, date, minutes, expected) => {
    expect(iso(instantOf(Temporal.PlainDate.from(date), minutes, tz))).toBe(expected);
  });

  it('a window wholly inside a DST gap is empty, one across it keeps its wall-clock ends', () => {
    const a: Availability = {
      weekly: [
        { days: ['sun'], start: '02:00', end: '02:30' },
        { days: ['sun'], start: '05:00', end: '06:00' },
      ],
      overrides: [],
    };
    // The gap is 02:00–03:00: 02:00 reads as 03:00 and 02:30 as 03:30, so the window keeps half an hour.
    const spans = windowsOn(a, Temporal.PlainDate.from('2027-03-28'), 'Europe/Paris');
    expect(spans.map((s) => [iso(s.start), iso(s.end)])).toEqual([
      ['2027-03-28T01:00:00.000Z', '2027-03-28T01:30:00.000Z'],
      ['2027-03-28T03:00:00.000Z', '2027-03-28T04:00:00.000Z'],
    ]);
  });
});

describe('slots', () => {
  it('09:00–17:00 in Paris: 08:00Z–16:00Z in winter, 07:00Z–15:00Z in summer', () => {
    const winter = slotsOn(nineToFive, 'Europe/Paris', '2027-01-15');
    expect(winter).toHaveLength(8);
    expect(iso(winter[0]!.start)).toBe('2027-01-15T08:00:00.000Z');
    expect(iso(winter[7]!.end)).toBe('2027-01-15T16:00:00.000Z');
    const summer = slotsOn(nineToFive, 'Europe/Paris', '2027-07-15');
    expect(iso(summer[0]!.start)).toBe('2027-07-15T07:00:00.000Z');
    expect(summer[0]!.localTime).toBe('09:00');
    expect(summer[0]!.localDate).toBe('2027-07-15');
  });

  it('slot_interval steps candidates; a slot never crosses the window end', () => {
    const a: Availability = { weekly: [{ days: [...ALL_DAYS], start: '09:00', end: '10:40' }], overrides: [] };
    const slots = slotsOn(a, 'UTC', '2027-01-15', { duration: 30, slotInterval: 20 });
    expect(slots.map((s) => s.localTime)).toEqual(['09:00', '09:20', '09:40', '10:00']);
  });

  it('steps by at least 5 minutes when a shorter duration stands in for a null slot_interval', () => {
    const a: Availability = { weekly: [{ days: [...ALL_DAYS], start: '09:00', end: '09:30' }], overrides: [] };
    const slots = slotsOn(a, 'UTC', '2027-01-15', { duration: 1, slotInterval: null });
    expect(slots.map((s) => s.localTime)).toEqual(['09:00', '09:05', '09:10', '09:15', '09:20', '09:25']);
    expect(slots[0]!.end - slots[0]!.start).toBe(M);
    expect(slotsOn({ weekly: null, overrides: [] }, 'UTC', '2027-01-15', { duration: 1 })).toHaveLength(288);
  });

  it('rules of one day merge; overrides replace the day; [] closes it', () => {
    const a: Availability = {
      weekly: [
        { days: ['fri'], start: '09:00', end: '10:30' },
        { days: ['fri'], start: '10:00', end: '11:00' },
      ],
      overrides: [
        { date: '2027-01-22', intervals: [{ start: '14:00', end: '15:00' }] },
        { date: '2027-01-29', intervals: [] },
      ],
    };
    expect(slotsOn(a, 'UTC', '2027-01-15').map((s) => s.localTime)).toEqual(['09:00', '10:00']);
    expect(slotsOn(a, 'UTC', '2027-01-22').map((s) => s.localTime)).toEqual(['14:00']);
    expect(slotsOn(a, 'UTC', '2027-01-29')).toEqual([]);
    expect(slotsOn(a, 'UTC', '2027-01-16')).toEqual([]);
  });

  it('no availability: the whole day, every day, and overrides still apply with availability null', () => {
    expect(slotsOn({ weekly: null, overrides: [] }, 'UTC', '2027-01-15')).toHaveLength(24);
    const closed: Availability = { weekly: null, overrides: [{ date: '2027-01-15', intervals: [] }] };
    expect(slotsOn(closed, 'UTC', '2027-01-15')).toEqual([]);
    expect(slotsOn(closed, 'UTC', '2027-01-16')).toHaveLength(24);
  });

  it('buffers of both sides keep slots off a booking; back-to-back is fine without buffers', () => {
    const busy: TestBooking[] = [
      { start: at('2027-01-15T12:00:00Z'), end: at('2027-01-15T13:00:00Z'), bufferBefore: 0, bufferAfter: 0, sameEventType: false },
    ];
    expect(slotsOn(nineToFive, 'UTC', '2027-01-15', {}, busy).map((s) => s.localTime)).toEqual([
      '09:00', '10:00', '11:00', '13:00', '14:00', '15:00', '16:00',
    ]);
    // The candidate's buffer_after of 1 minute reaches into the booking at 12:00: 11:00 goes.
    expect(slotsOn(nineToFive, 'UTC', '2027-01-15', { bufferAfter: 1 }, busy).map((s) => s.localTime)).toEqual([
      '09:00', '10:00', '13:00', '14:00', '15:00', '16:00',
    ]);
    // The booking's own buffer_before of 61 minutes reaches back into 10:00–11:00.
    const buffered = [{ ...busy[0]!, bufferBefore: 61 }];
    expect(slotsOn(nineToFive, 'UTC', '2027-01-15', {}, buffered).map((s) => s.localTime)).toEqual([
      '09:00', '13:00', '14:00', '15:00', '16:00',
    ]);
  });

  it('bookings in any order, on whole or fractional milliseconds: a refused candidate names the earliest-starting one it meets', () => {
    const day = at('2027-01-15T00:00:00Z');
    const query = (busy: BusyBooking[]): SlotQuery => ({
      availability: nineToFive,
      scheduleTimeZone: 'UTC',
      timeZone: 'UTC',
      rules: RULES,
      from: day,
      to: day + 24 * H,
      now: day - 24 * H,
      busy: busyTimesOf(busy),
    });
    const booking = (start: number, minutes: number): BusyBooking => ({ start, end: start + minutes * M, bufferBefore: 0, bufferAfter: 0 });
    for (const shift of [0, 0.5]) {
      // 14:00–15:30, 10:30–11:30, 10:00–12:00 (twice) and 16:10–16:20: out of order, two alike.
      const busy = [
        booking(day + 14 * H + shift, 90),
        booking(day + 10.5 * H + shift, 60),
        booking(day + 10 * H + shift, 120),
        booking(day + 10 * H + shift, 120),
        booking(day + 16 * H + 10 * M + shift, 10),
      ];
      const refused: Array<[string, number]> = [];
      const offered = availableSlots(query(busy), (r) => refused.push([iso(r.start).slice(11, 16), r.busyIndex!]));
      expect(offered.map((o) => o.localTime)).toEqual(shift === 0 ? ['09:00', '12:00', '13:00'] : ['09:00', '13:00']);
      expect(refused).toEqual(
        shift === 0
          ? [['10:00', 2], ['11:00', 2], ['14:00', 0], ['15:00', 0], ['16:00', 4]]
          : [['10:00', 2], ['11:00', 2], ['12:00', 2], ['14:00', 0], ['15:00', 0], ['16:00', 4]],
      );
    }
  });

  it('minimum notice, booking window and daily limit', () => {
    const now = at('2027-01-15T10:30:00Z');
    expect(slotsOn(nineToFive, 'UTC', '2027-01-15', { minimumNotice: 60 }, [], now)[0]!.localTime).toBe('12:00');
    expect(slotsOn(nineToFive, 'UTC', '2027-01-16', { bookingWindowDays: 1 }, [], now).map((s) => s.localTime)).toEqual([
      '09:00', '10:00',
    ]);
    const sameType: TestBooking = {
      start: at('2027-01-15T09:00:00Z'), end: at('2027-01-15T10:00:00Z'), bufferBefore: 0, bufferAfter: 0, sameEventType: true,
    };
    expect(slotsOn(nineToFive, 'UTC', '2027-01-15', { maxBookingsPerDay: 1 }, [sameType])).toEqual([]);
    expect(slotsOn(nineToFive, 'UTC', '2027-01-15', { maxBookingsPerDay: 2 }, [sameType])).toHaveLength(7);
    expect(slotsOn(nineToFive, 'UTC', '2027-01-15', { maxBookingsPerDay: 1 }, [{ ...sameType, sameEventType: false }])).toHaveLength(7);
  });

  it('the daily limit counts by local date of the schedule time zone', () => {
    // 23:30Z on the 15th is 00:30 on the 16th in Paris: it fills the 16th, not the 15th.
    const lateNight: TestBooking = {
      start: at('2027-01-15T23:30:00Z'), end: at('2027-01-15T23:45:00Z'), bufferBefore: 0, bufferAfter: 0, sameEventType: true,
    };
    expect(slotsOn(nineToFive, 'Europe/Paris', '2027-01-15', { maxBookingsPerDay: 1 }, [lateNight])).toHaveLength(8);
    expect(slotsOn(nineToFive, 'Europe/Paris', '2027-01-16', { maxBookingsPerDay: 1 }, [lateNight])).toEqual([]);
  });

  it('local date and time follow the answer time zone, not the schedule one', () => {
    const slots = availableSlots({
      availability: nineToFive,
      scheduleTimeZone: 'Europe/Paris',
      timeZone: 'Asia/Kolkata',
      rules: RULES,
      from: at('2027-01-15T00:00:00Z'),
      to: at('2027-01-15T09:00:00Z'),
      now: 0,
      busy: busyTimesOf([]),
    });
    expect(slots.map((s) => [s.localDate, s.localTime])).toEqual([['2027-01-15', '13:30']]);
  });
});

/** Every DST transition of the 24 months from 2027-01-01 in a zone. */
function transitions(tz: string): Temporal.ZonedDateTime[] {
  const out: Temporal.ZonedDateTime[] = [];
  let cursor: Temporal.ZonedDateTime | null = Temporal.ZonedDateTime.from(`2027-01-01T00:00[${tz}]`);
  const end = Temporal.ZonedDateTime.from(`2029-01-01T00:00[${tz}]`);
  for (;;) {
    cursor = cursor.getTimeZoneTransition('next');
    if (!cursor || Temporal.ZonedDateTime.compare(cursor, end) >= 0) return out;
    out.push(cursor);
  }
}

describe('DST: every transition of 24 months', () => {
  const zones: [string, number][] = [
    ['Europe/Paris', 4],
    ['America/New_York', 4],
    ['Australia/Sydney', 4],
    ['Australia/Lord_Howe', 4],
    ['Asia/Kolkata', 0],
  ];

  it.each(zones)('%s has %d transitions in 2027–2028', (tz, count) => {
    expect(transitions(tz)).toHaveLength(count);
  });

  // Open around the clock with 30-minute slots: the day has (length of the day) / 30 min slots, each
  // starting at a local wall-clock time that exists, 30 minutes after the previous instant.
  const cases = zones.flatMap(([tz]) => transitions(tz).map((t) => [tz, t.toPlainDate().toString(), t] as const));

  it.each(cases)('%s on %s: whole-day slots follow the real day length', (tz, date, t) => {
    const slots = slotsOn({ weekly: null, overrides: [] }, tz, date, { duration: 30 });
    const day = Temporal.PlainDate.from(date);
    const dayLength =
      day.add({ days: 1 }).toZonedDateTime({ timeZone: tz }).epochMilliseconds -
      day.toZonedDateTime({ timeZone: tz }).epochMilliseconds;
    const shift = t.offsetNanoseconds - t.subtract({ nanoseconds: 1 }).offsetNanoseconds;
    expect(dayLength).toBe(24 * H - shift / 1e6);
    expect(slots).toHaveLength(dayLength / (30 * M));
    slots.forEach((s, i) => {
      expect(s.start).toBe(slots[0]!.start + i * 30 * M);
      expect(s.localDate).toBe(date);
    });
  });

  it.each(cases)('%s on %s: 09:00–17:00 keeps its wall-clock hours, 8 slots', (tz, date) => {
    const slots = slotsOn(nineToFive, tz, date);
    expect(slots).toHaveLength(8);
    expect(slots.map((s) => s.localTime)).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00']);
    const nine = Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: tz, plainTime: '09:00' });
    expect(slots[0]!.start).toBe(nine.epochMilliseconds);
  });

  it.each(cases)('%s on %s: a window across the change spans the real elapsed time', (tz, date, t) => {
    // The local wall-clock hours around the transition: from 2 h before to 2 h after (local).
    const before = t.subtract({ hours: 2 }).toPlainTime();
    const after = t.add({ hours: 2 }).toPlainTime();
    const fmt = (p: Temporal.PlainTime) => `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
    const a: Availability = { weekly: null, overrides: [{ date, intervals: [{ start: fmt(before), end: fmt(after) }] }] };
    const slots = slotsOn(a, tz, date, { duration: 15 });
    // Instants: start is the earlier reading of the wall-clock time, end the compatible one.
    const day = Temporal.PlainDate.from(date);
    const start = day.toZonedDateTime({ timeZone: tz, plainTime: before }).epochMilliseconds;
    const end = day.toZonedDateTime({ timeZone: tz, plainTime: after }).epochMilliseconds;
    expect(slots).toHaveLength((end - start) / (15 * M));
    expect(slots[0]!.start).toBe(start);
    expect(slots[slots.length - 1]!.end).toBe(end);
  });
});

describe('a booking against availability', () => {
  const base = {
    availability: nineToFive,
    scheduleTimeZone: 'Europe/Paris',
    rules: RULES,
    now: at('2027-01-01T00:00:00Z'),
  };
  it.each([
    ['inside, unaligned', '2027-01-15T08:10:00Z', '2027-01-15T09:10:00Z', {}, null],
    ['before the window', '2027-01-15T07:30:00Z', '2027-01-15T08:30:00Z', {}, 'outside_availability'],
    ['past the window end', '2027-01-15T15:30:00Z', '2027-01-15T16:30:00Z', {}, 'outside_availability'],
    ['notice', '2027-01-01T08:00:00Z', '2027-01-01T09:00:00Z', { rules: { ...RULES, minimumNotice: 60 * 24 } }, 'minimum_notice'],
    ['window of days', '2027-01-15T08:00:00Z', '2027-01-15T09:00:00Z', { rules: { ...RULES, bookingWindowDays: 14 } }, 'booking_window'],
    // Notice and the window of days come before availability.
    ['notice, outside too', '2027-01-01T02:00:00Z', '2027-01-01T03:00:00Z', { rules: { ...RULES, minimumNotice: 60 * 24 } }, 'minimum_notice'],
    ['window of days, outside too', '2027-01-15T02:00:00Z', '2027-01-15T03:00:00Z', { rules: { ...RULES, bookingWindowDays: 14 } }, 'booking_window'],
    ['no availability: anything', '2027-01-15T02:00:00Z', '2027-01-15T03:00:00Z', { availability: { weekly: null, overrides: [] } }, null],
  ])('%s', (_name, start, end, extra, reason) => {
    expect(bookingMisfit({ ...base, start: at(start), end: at(end), ...extra })).toBe(reason);
  });
});

describe('slotQueryCost', () => {
  const now = new Date('2027-01-10T15:30:00Z');
  it.each([
    ['no range: the default 7 days', undefined, undefined, 7],
    ['62 days of dates', '2027-01-01', '2027-03-04', 62],
    ['one day of dates', '2027-01-01', '2027-01-02', 1],
    ['a started day counts', '2027-01-01T00:00:00Z', '2027-01-02T00:00:01Z', 2],
    ['an hour', '2027-01-01T09:00:00+01:00', '2027-01-01T10:00:00+01:00', 1],
    ['start only: 7 days from it', '2027-02-01', undefined, 7],
    ['end only: from now', undefined, '2027-01-20T15:30:00Z', 10],
    ['more than 62 days (refused later) costs 62', '2027-01-01', '2028-01-01', 62],
    ['end before start (refused later) costs 1', '2027-02-01', '2027-01-01', 1],
    ['a bound that is not a date costs 1', 'soon', '2027-03-04', 1],
    ['a repeated bound costs 1', ['2027-01-01', '2027-01-02'], '2027-03-04', 1],
  ])('%s', (_name, start, end, cost) => {
    expect(slotQueryCost(start, end, now)).toBe(cost);
  });
});

/**
 * The slots computed the straightforward way, one Temporal conversion at a time: each local date's
 * intervals (its override, else its weekly rules merged) turned into instants, candidates stepping
 * through each, every rule tested per candidate, local date and time read per slot. The fast
 * computation must give exactly this.
 */
function referenceSlots(
  q: SlotQuery,
  bookings: readonly TestBooking[],
  schedule: ScheduleLimits = NO_SCHEDULE_LIMITS,
): { slots: Slot[]; rejected: RejectedCandidate[] } {
  const { rules } = q;
  const availability = q.availability.weekly === null && q.availability.overrides.length === 0 ? { weekly: null, overrides: [] } : q.availability;
  const duration = rules.duration * M;
  const step = Math.max(rules.slotInterval ?? rules.duration, 5) * M;
  const earliest = q.now + rules.minimumNotice * M;
  const latest = rules.bookingWindowDays === null ? Infinity : q.now + rules.bookingWindowDays * 24 * H;
  const tz = q.scheduleTimeZone;
  const minutes = (t: string) => (t === '24:00' ? 1440 : Number(t.slice(0, 2)) * 60 + Number(t.slice(3)));
  const merge = (intervals: readonly TimeInterval[]) => {
    const sorted = intervals.map((i) => [minutes(i.start), minutes(i.end)] as [number, number]).sort((a, b) => a[0] - b[0]);
    const out: [number, number][] = [];
    for (const [a, b] of sorted) {
      const last = out[out.length - 1];
      if (last && a <= last[1]) last[1] = Math.max(last[1], b);
      else out.push([a, b]);
    }
    return out;
  };
  const wall = (date: Temporal.PlainDate, m: number) =>
    (m === 1440 ? date.add({ days: 1 }) : date).toZonedDateTime({ timeZone: tz, plainTime: new Temporal.PlainTime(Math.floor(m / 60) % 24, m % 60) })
      .epochMilliseconds;
  const dayStart = (date: Temporal.PlainDate) => date.toZonedDateTime({ timeZone: tz }).epochMilliseconds;
  const localDate = (instant: number, zone: string) => Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone).toPlainDate();

  const slots: Slot[] = [];
  const rejected: RejectedCandidate[] = [];
  const last = localDate(q.to, tz).add({ days: 1 });
  for (let date = localDate(q.from, tz).subtract({ days: 1 }); Temporal.PlainDate.compare(date, last) <= 0; date = date.add({ days: 1 })) {
    const override = availability.overrides.find((o) => o.date === date.toString());
    const weekday = WEEKDAYS[date.dayOfWeek - 1]!;
    const open = override
      ? merge(override.intervals)
      : availability.weekly === null
        ? [[0, 1440] as [number, number]]
        : merge(availability.weekly.filter((r) => r.days.includes(weekday)));
    // Limits: the bookings starting in the date's day, week (from its Monday) and month, counted one by one.
    const startingIn = (first: Temporal.PlainDate, next: Temporal.PlainDate) =>
      bookings.filter((b) => b.start >= dayStart(first) && b.start < dayStart(next));
    const monday = date.subtract({ days: date.dayOfWeek - 1 });
    const firstOfMonth = date.with({ day: 1 });
    const periods = {
      day: startingIn(date, date.add({ days: 1 })),
      week: startingIn(monday, monday.add({ days: 7 })),
      month: startingIn(firstOfMonth, firstOfMonth.add({ months: 1 })),
    };
    const count = (list: TestBooking[], sameType: boolean) => list.filter((b) => !sameType || b.sameEventType).length;
    const booked = (list: TestBooking[], sameType: boolean) =>
      list.filter((b) => !sameType || b.sameEventType).reduce((sum, b) => sum + (b.end - b.start) / M, 0);
    const over = (limit: number | null, value: number) => limit !== null && value >= limit;
    const overMinutes = (limit: number | null, value: number) => limit !== null && value + rules.duration > limit;
    let limit: LimitReason | null = null;
    if (over(rules.maxBookingsPerDay, count(periods.day, true))) limit = 'daily_limit';
    else if (over(rules.maxBookingsPerWeek, count(periods.week, true))) limit = 'weekly_limit';
    else if (over(rules.maxBookingsPerMonth, count(periods.month, true))) limit = 'monthly_limit';
    else if (overMinutes(rules.maxBookedMinutesPerDay, booked(periods.day, true)) || overMinutes(rules.maxBookedMinutesPerWeek, booked(periods.week, true)))
      limit = 'duration_limit';
    else if (
      over(schedule.maxBookingsPerDay, count(periods.day, false)) ||
      over(schedule.maxBookingsPerWeek, count(periods.week, false)) ||
      overMinutes(schedule.maxBookedMinutesPerDay, booked(periods.day, false)) ||
      overMinutes(schedule.maxBookedMinutesPerWeek, booked(periods.week, false))
    )
      limit = 'schedule_limit';
    for (const [a, b] of open) {
      const windowStart = wall(date, a);
      const windowEnd = wall(date, b);
      if (windowEnd <= windowStart || windowEnd <= q.from || windowStart >= q.to) continue;
      for (let start = windowStart; start + duration <= windowEnd; start += step) {
        if (start < q.from || start >= q.to) continue;
        const end = start + duration;
        const blockedFrom = start - rules.bufferBefore * M;
        const blockedTo = end + rules.bufferAfter * M;
        let busyIndex = -1;
        bookings.forEach((booking, i) => {
          const overlaps = booking.start - booking.bufferBefore * M < blockedTo && booking.end + booking.bufferAfter * M > blockedFrom;
          const earlier = busyIndex === -1 || booking.start - booking.bufferBefore * M < bookings[busyIndex]!.start - bookings[busyIndex]!.bufferBefore * M;
          if (overlaps && earlier) busyIndex = i;
        });
        let reason: RejectedCandidate['reason'] | null = null;
        if (start < earliest) reason = 'minimum_notice';
        else if (start >= latest) reason = 'booking_window';
        else if (busyIndex !== -1) reason = 'booked';
        else if (limit !== null) reason = limit;
        if (reason === 'booked') rejected.push({ start, end, reason, busyIndex });
        else if (reason !== null) rejected.push({ start, end, reason });
        else {
          const zoned = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(q.timeZone);
          const time = `${String(zoned.hour).padStart(2, '0')}:${String(zoned.minute).padStart(2, '0')}`;
          slots.push({ start, end, localDate: zoned.toPlainDate().toString(), localTime: time });
        }
      }
    }
  }
  slots.sort((x, y) => x.start - y.start);
  return { slots: slots.filter((slot, i) => i === 0 || slots[i - 1]!.start !== slot.start), rejected };
}

describe('the fast computation gives what the straightforward one gives', () => {
  // Zones with 30-minute DST (Lord Howe), transitions at midnight and rule changes (Sao Paulo, until
  // 2019), a skipped date (Apia, 2011-12-30), offsets of 45 minutes (Kathmandu) and none (UTC).
  const zones = [
    'Europe/Paris',
    'Australia/Lord_Howe',
    'America/Sao_Paulo',
    'Pacific/Apia',
    'America/New_York',
    'Asia/Kathmandu',
    'America/St_Johns',
    'UTC',
  ];
  const hhmmArb = (min: number, max: number) =>
    fc.integer({ min, max }).map((m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
  const interval = fc
    .tuple(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 1, max: 1440 }))
    .filter(([a, b]) => a < b)
    .chain(([a, b]) => fc.tuple(hhmmArb(a, a), b === 1440 ? fc.constant('24:00') : hhmmArb(b, b)))
    .map(([start, end]) => ({ start, end }));
  const query = fc
    .record({
      zone: fc.constantFrom(...zones),
      answerZone: fc.constantFrom(...zones),
      // Around a transition of the zone (or any time), from 2008 to 2030.
      around: fc.integer({ min: Date.parse('2008-01-01T00:00:00Z'), max: Date.parse('2030-01-01T00:00:00Z') }),
      nearTransition: fc.boolean(),
      shift: fc.integer({ min: -3 * 24 * 60, max: 24 * 60 }),
      hours: fc.integer({ min: 1, max: 4 * 24 }),
      weekly: fc.option(
        fc.array(fc.record({ days: fc.uniqueArray(fc.constantFrom(...WEEKDAYS), { minLength: 1, maxLength: 7 }), start: fc.constant(''), end: fc.constant(''), interval }), { minLength: 1, maxLength: 4 }),
      ),
      overrides: fc.array(fc.record({ dayOffset: fc.integer({ min: -2, max: 5 }), intervals: fc.array(interval, { maxLength: 3 }) }), { maxLength: 3 }),
      rules: fc.record({
        duration: fc.integer({ min: 1, max: 180 }),
        bufferBefore: fc.integer({ min: 0, max: 90 }),
        bufferAfter: fc.integer({ min: 0, max: 90 }),
        minimumNotice: fc.integer({ min: 0, max: 3000 }),
        slotInterval: fc.option(fc.integer({ min: 5, max: 240 })),
        bookingWindowDays: fc.option(fc.integer({ min: 1, max: 5 })),
        maxBookingsPerDay: fc.option(fc.integer({ min: 1, max: 4 })),
        maxBookingsPerWeek: fc.option(fc.integer({ min: 1, max: 8 })),
        maxBookingsPerMonth: fc.option(fc.integer({ min: 1, max: 12 })),
        maxBookedMinutesPerDay: fc.option(fc.integer({ min: 1, max: 600 })),
        maxBookedMinutesPerWeek: fc.option(fc.integer({ min: 1, max: 2000 })),
      }),
      schedule: fc.record({
        maxBookingsPerDay: fc.option(fc.integer({ min: 1, max: 6 })),
        maxBookingsPerWeek: fc.option(fc.integer({ min: 1, max: 12 })),
        maxBookedMinutesPerDay: fc.option(fc.integer({ min: 1, max: 900 })),
        maxBookedMinutesPerWeek: fc.option(fc.integer({ min: 1, max: 3000 })),
      }),
      // Bookings anywhere in the months around: they count toward weeks and months, seldom overlap.
      far: fc.array(
        fc.record({ at: fc.integer({ min: -40 * 24 * 60, max: 40 * 24 * 60 }), minutes: fc.integer({ min: 5, max: 240 }), sameEventType: fc.boolean() }),
        { maxLength: 20 },
      ),
      nowShift: fc.integer({ min: -2 * 24 * 60, max: 2 * 24 * 60 }),
      busy: fc.array(
        fc.record({
          at: fc.integer({ min: -24 * 60, max: 5 * 24 * 60 }),
          minutes: fc.integer({ min: 5, max: 240 }),
          bufferBefore: fc.integer({ min: 0, max: 60 }),
          bufferAfter: fc.integer({ min: 0, max: 60 }),
          sameEventType: fc.boolean(),
        }),
        { maxLength: 25 },
      ),
    })
    .map((r): { q: SlotQuery; bookings: TestBooking[]; schedule: ScheduleLimits } => {
      let base = r.around;
      if (r.nearTransition) {
        const next = Temporal.Instant.fromEpochMilliseconds(base).toZonedDateTimeISO(r.zone).getTimeZoneTransition('next');
        if (next) base = next.epochMilliseconds;
      }
      const from = base + r.shift * M;
      const to = from + r.hours * H;
      const firstDate = Temporal.Instant.fromEpochMilliseconds(from).toZonedDateTimeISO(r.zone).toPlainDate();
      const overrides = new Map<string, TimeInterval[]>();
      for (const o of r.overrides) overrides.set(firstDate.add({ days: o.dayOffset }).toString(), o.intervals);
      const bookings = r.busy.map((b) => ({
        start: from + b.at * M,
        end: from + (b.at + b.minutes) * M,
        bufferBefore: b.bufferBefore,
        bufferAfter: b.bufferAfter,
        sameEventType: b.sameEventType,
      }));
      for (const b of r.far) {
        bookings.push({ start: from + b.at * M, end: from + (b.at + b.minutes) * M, bufferBefore: 0, bufferAfter: 0, sameEventType: b.sameEventType });
      }
      const q: SlotQuery = {
        availability: {
          weekly: r.weekly === null ? null : r.weekly.map((w) => ({ days: w.days, ...w.interval })),
          overrides: [...overrides].map(([date, intervals]) => ({ date, intervals })),
        },
        scheduleTimeZone: r.zone,
        timeZone: r.answerZone,
        rules: r.rules,
        from,
        to,
        now: from + r.nowShift * M,
        busy: busyTimesOf(bookings),
      };
      return { q: { ...q, limitOn: limitOnFor(q, bookings, r.schedule) }, bookings, schedule: r.schedule };
    });

  it('offered slots, and every other candidate with its reason', () => {
    fc.assert(
      fc.property(query, ({ q, bookings, schedule }) => {
        const rejected: RejectedCandidate[] = [];
        const slots = availableSlots(q, (r) => rejected.push(r));
        const reference = referenceSlots(q, bookings, schedule);
        expect(slots).toEqual(reference.slots);
        expect(rejected).toEqual(reference.rejected);
        // Without the report, the same slots.
        expect(availableSlots(q)).toEqual(slots);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it.each([
    // Lord Howe's 30-minute change, both ways; Sao Paulo's midnight changes; Apia's skipped day.
    ['Australia/Lord_Howe', '2027-10-02T12:00:00Z'],
    ['Australia/Lord_Howe', '2027-04-03T12:00:00Z'],
    ['America/Sao_Paulo', '2018-11-03T12:00:00Z'],
    ['America/Sao_Paulo', '2019-02-16T12:00:00Z'],
    ['Pacific/Apia', '2011-12-28T12:00:00Z'],
    ['Europe/Paris', '2027-03-27T12:00:00Z'],
  ])('%s around %s: whole days open, and a window across the change', (zone, at) => {
    const from = Date.parse(at);
    for (const availability of [
      { weekly: null, overrides: [] },
      { weekly: [{ days: [...ALL_DAYS], start: '00:00', end: '24:00' }], overrides: [] },
      { weekly: [{ days: [...ALL_DAYS], start: '00:30', end: '03:15' }, { days: [...ALL_DAYS], start: '23:00', end: '24:00' }], overrides: [] },
    ] as Availability[]) {
      const bookings = [{ start: from + 20 * H, end: from + 21 * H, bufferBefore: 0, bufferAfter: 0, sameEventType: true }];
      const base = {
        availability,
        scheduleTimeZone: zone,
        timeZone: zone,
        rules: { ...RULES, duration: 15, maxBookingsPerDay: 3 },
        from,
        to: from + 3 * 24 * H,
        now: 0,
        busy: busyTimesOf(bookings),
      };
      const q: SlotQuery = { ...base, limitOn: limitOnFor(base, bookings) };
      const rejected: RejectedCandidate[] = [];
      expect(availableSlots(q, (r) => rejected.push(r))).toEqual(referenceSlots(q, bookings).slots);
      expect(rejected).toEqual(referenceSlots(q, bookings).rejected);
    }
  });

  it('a zone read through its offsets gives Temporal\'s instants and wall-clock times', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: Date.parse('2008-01-01T00:00:00Z'), max: Date.parse('2030-01-01T00:00:00Z') }),
        fc.integer({ min: 0, max: 3 * 24 * 60 }),
        (zone, at, minutes) => {
          const offsets = new ZoneOffsets(zone, at - 4 * 24 * H, at + 8 * 24 * H);
          const instant = at + minutes * M;
          const zoned = Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone);
          expect(offsets.offsetAt(instant)).toBe(zoned.offsetNanoseconds / 1e6);
          // A wall-clock reading (whole minutes) back to its instant, 'compatible' as Temporal.
          const plain = zoned.toPlainDateTime().round({ smallestUnit: 'minute', roundingMode: 'floor' });
          const local = Date.UTC(plain.year, plain.month - 1, plain.day, plain.hour, plain.minute);
          expect(offsets.instantOfLocal(local)).toBe(plain.toZonedDateTime(zone).epochMilliseconds);
        },
      ),
      { numRuns: 500 },
    );
  });
});
