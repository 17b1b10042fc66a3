import { Candidate, CandidateCounter, CandidateRules, judgeCandidates } from './booking-candidates';
import { LimitLedger, NO_EVENT_TYPE_LIMITS, NO_SCHEDULE_LIMITS, periodOf } from './booking-limits';
import type { BookingRules } from './booking-rules';

const HOUR = 3_600_000;
const at = (iso: string, hours = 1): Candidate & { index: number } => ({ index: 0, start: new Date(iso), end: new Date(new Date(iso).getTime() + hours * HOUR) });
const indexed = (list: Candidate[]) => list.map((c, index) => ({ ...c, index }));
const epochDay = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/**
 * The event type's daily limit of one, counted by the limits' ledger as the application does: each
 * candidate's local date (UTC here), and the bookings each date already holds.
 */
function dailyLimitOfOne(days: readonly { readonly date: string; readonly count: number }[]): CandidateCounter {
  const counted = new Map(days.map((d) => [d.date, d.count]));
  const ledger = new LimitLedger(
    { eventType: { ...NO_EVENT_TYPE_LIMITS, maxBookingsPerDay: 1 }, schedule: NO_SCHEDULE_LIMITS },
    [...counted].map(([date, count]) => ({
      period: periodOf('day', epochDay(date)),
      totals: { bookings: count, minutes: count * 60, typeBookings: count, typeMinutes: count * 60 },
    })),
  );
  return {
    reasonFor: (i) => ledger.reasonFor(epochDay(days[i]!.date), 60),
    keep: (i) => ledger.add(epochDay(days[i]!.date), 60),
  };
}

const RULES: BookingRules = {
  ...NO_EVENT_TYPE_LIMITS,
  duration: 60,
  bufferBefore: 0,
  bufferAfter: 30,
  minimumNotice: 60,
  slotInterval: null,
  bookingWindowDays: 10,
  maxBookingsPerDay: 1,
};
const weekdays = { weekly: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'] as const, start: '09:00', end: '17:00' }], overrides: [] };
const base: CandidateRules = {
  availability: weekdays,
  scheduleTimeZone: 'UTC',
  rules: RULES,
  bufferBefore: 0,
  bufferAfter: 30,
  now: Date.parse('2027-03-01T08:00:00Z'),
};

describe('judgeCandidates', () => {
  it('names the first reason of notice, window of days, availability, overlap, then the limits', () => {
    const candidates = indexed([
      at('2027-03-01T08:30:00Z'), // before the notice and outside the window: notice first
      at('2027-03-13T10:00:00Z'), // a Saturday beyond the window of days: the window first
      at('2027-03-06T10:00:00Z'), // a Saturday
      at('2027-03-02T10:00:00Z'), // overlaps a booking, and the day is full
      at('2027-03-03T10:00:00Z'), // the day is full
      at('2027-03-04T10:00:00Z'), // fits
    ]);
    const overlapsBooking = [false, false, false, true, false, false];
    const counters = [
      dailyLimitOfOne([
        { date: '2027-03-01', count: 0 },
        { date: '2027-03-13', count: 0 },
        { date: '2027-03-06', count: 0 },
        { date: '2027-03-02', count: 1 },
        { date: '2027-03-03', count: 1 },
        { date: '2027-03-04', count: 0 },
      ]),
    ];
    expect(judgeCandidates(base, candidates, { overlapsBooking, counters })).toEqual([
      'minimum_notice',
      'booking_window',
      'outside_availability',
      'booking_overlap',
      'daily_limit',
      null,
    ]);
  });

  it('judges each candidate as if the earlier ones that fit were booked: their buffers and their count', () => {
    const candidates = indexed([
      at('2027-03-02T10:00:00Z'),
      at('2027-03-02T11:15:00Z'), // inside the 30 minutes after the first
      at('2027-03-02T13:00:00Z'), // clear of the first, but the day's one place is taken by it
      at('2027-03-03T10:00:00Z'),
    ]);
    const days = ['2027-03-02', '2027-03-02', '2027-03-02', '2027-03-03'].map((date) => ({ date, count: 0 }));
    expect(judgeCandidates(base, candidates, { overlapsBooking: [false, false, false, false], counters: [dailyLimitOfOne(days)] })).toEqual([
      null,
      'booking_overlap',
      'daily_limit',
      null,
    ]);
    // A refused candidate takes nothing: the next one on its day still fits.
    const afterRefusal = judgeCandidates(base, candidates, {
      overlapsBooking: [true, false, false, false],
      counters: [dailyLimitOfOne(days)],
    });
    expect(afterRefusal).toEqual(['booking_overlap', null, 'daily_limit', null]);
  });

  it('names the limits in their own order after the overlap', () => {
    const candidates = indexed([at('2027-03-02T10:00:00Z'), at('2027-03-03T10:00:00Z')]);
    const both: CandidateCounter = { reasonFor: () => 'weekly_limit', keep: () => undefined };
    expect(judgeCandidates(base, candidates, { overlapsBooking: [true, false], counters: [both] })).toEqual([
      'booking_overlap',
      'weekly_limit',
    ]);
    expect(
      judgeCandidates(base, candidates, {
        overlapsBooking: [false, false],
        refusals: [['schedule_limit', 'daily_limit']],
        counters: [both],
      }),
    ).toEqual(['weekly_limit', 'daily_limit']);
  });

  it('checks overlap only without rules (no event type, or no availability), and takes refusals of rules that plug in', () => {
    const candidates = indexed([at('2027-03-06T10:00:00Z'), at('2027-03-07T10:00:00Z'), at('2027-03-08T10:00:00Z')]);
    const plain = { ...base, rules: null };
    expect(judgeCandidates(plain, candidates, { overlapsBooking: [false, true, false] })).toEqual([null, 'booking_overlap', null]);
    expect(judgeCandidates(plain, candidates, { overlapsBooking: [false, false, false], refusals: [[null, null, 'daily_limit']] })).toEqual([
      null,
      null,
      'daily_limit',
    ]);
  });
});
