import { Temporal } from 'temporal-polyfill';
import { epochDayOf, isoDateOfEpochDay } from './availability';
import {
  EMPTY_TOTALS,
  LimitLedger,
  limitLockKeys,
  LimitSet,
  localDayOf,
  NO_EVENT_TYPE_LIMITS,
  NO_SCHEDULE_LIMITS,
  periodOf,
  periodSpan,
  periodsToCount,
  zoneForPeriods,
} from './booking-limits';

const day = (date: string): number => epochDayOf(date);
const dates = (p: { firstDay: number; endDay: number }) => [isoDateOfEpochDay(p.firstDay), isoDateOfEpochDay(p.endDay)];

describe('periods', () => {
  it.each([
    ['2027-01-04', '2027-01-04', '2027-01-11'], // a Monday
    ['2027-01-10', '2027-01-04', '2027-01-11'], // a Sunday
    ['2027-01-01', '2026-12-28', '2027-01-04'], // a Friday: the week began the year before
    ['1969-12-31', '1969-12-29', '1970-01-05'], // before the epoch
  ])('the week of %s runs from Monday %s to Monday %s', (date, first, end) => {
    expect(dates(periodOf('week', day(date)))).toEqual([first, end]);
  });

  it.each([
    ['2027-01-31', '2027-01-01', '2027-02-01'],
    ['2028-02-29', '2028-02-01', '2028-03-01'],
    ['2027-12-15', '2027-12-01', '2028-01-01'],
  ])('the month of %s runs from %s to %s', (date, first, end) => {
    expect(dates(periodOf('month', day(date)))).toEqual([first, end]);
  });

  it('turn into the instants of their local midnights, as Temporal gives them, across DST changes', () => {
    const zone = zoneForPeriods('Europe/Paris', Date.parse('2027-03-25T12:00:00Z'), Date.parse('2027-10-28T12:00:00Z'));
    const spring = periodSpan(zone, periodOf('week', day('2027-03-28')));
    expect([new Date(spring.start).toISOString(), new Date(spring.end).toISOString()]).toEqual([
      '2027-03-21T23:00:00.000Z',
      '2027-03-28T22:00:00.000Z',
    ]);
    const autumn = periodSpan(zone, periodOf('week', day('2027-10-31')));
    expect(autumn.end).toBe(Temporal.ZonedDateTime.from('2027-11-01T00:00[Europe/Paris]').epochMilliseconds);
    expect(localDayOf(zone, Date.parse('2027-03-28T21:59:00Z'))).toBe(day('2027-03-28'));
    expect(localDayOf(zone, Date.parse('2027-03-28T22:00:00Z'))).toBe(day('2027-03-29'));
  });

  it('a skipped midnight: the day starts at the first instant after the gap', () => {
    // Sao Paulo moved from 00:00 to 01:00 on 2018-11-04.
    const zone = zoneForPeriods('America/Sao_Paulo', Date.parse('2018-11-01T00:00:00Z'), Date.parse('2018-11-10T00:00:00Z'));
    const span = periodSpan(zone, periodOf('day', day('2018-11-04')));
    expect(span.start).toBe(Temporal.PlainDate.from('2018-11-04').toZonedDateTime({ timeZone: 'America/Sao_Paulo' }).epochMilliseconds);
  });

  it('only the kinds some limit needs are counted, each period once; lock keys sorted by scope', () => {
    const limits: LimitSet = {
      eventType: { ...NO_EVENT_TYPE_LIMITS, maxBookingsPerMonth: 3 },
      schedule: { ...NO_SCHEDULE_LIMITS, maxBookedMinutesPerWeek: 60 },
    };
    const days = [day('2027-01-29'), day('2027-01-30'), day('2027-02-01')];
    expect(periodsToCount(limits, days).map((p) => `${p.kind} ${dates(p)[0]}`)).toEqual([
      'week 2027-01-25',
      'month 2027-01-01',
      'week 2027-02-01',
      'month 2027-02-01',
    ]);
    expect(limitLockKeys(limits, days)).toEqual([
      `event_type:month:${day('2027-01-01')}`,
      `event_type:month:${day('2027-02-01')}`,
      `schedule:week:${day('2027-01-25')}`,
      `schedule:week:${day('2027-02-01')}`,
    ]);
    expect(periodsToCount({ eventType: null, schedule: NO_SCHEDULE_LIMITS }, days)).toEqual([]);
  });
});

describe('the ledger', () => {
  const monday = day('2027-01-11');
  function ledger(limits: LimitSet, totals: Partial<typeof EMPTY_TOTALS>, kind: 'day' | 'week' | 'month' = 'day'): LimitLedger {
    return new LimitLedger(limits, [{ period: periodOf(kind, monday), totals: { ...EMPTY_TOTALS, ...totals } }]);
  }

  it.each([
    ['a count limit refuses the (N+1)-th', { ...NO_EVENT_TYPE_LIMITS, maxBookingsPerDay: 2 }, { typeBookings: 2 }, 'day', 30, 'daily_limit'],
    ['under it', { ...NO_EVENT_TYPE_LIMITS, maxBookingsPerDay: 2 }, { typeBookings: 1, bookings: 9 }, 'day', 30, null],
    ['weekly', { ...NO_EVENT_TYPE_LIMITS, maxBookingsPerWeek: 1 }, { typeBookings: 1 }, 'week', 30, 'weekly_limit'],
    ['monthly', { ...NO_EVENT_TYPE_LIMITS, maxBookingsPerMonth: 1 }, { typeBookings: 1 }, 'month', 30, 'monthly_limit'],
    ['minutes: exactly the limit fits', { ...NO_EVENT_TYPE_LIMITS, maxBookedMinutesPerDay: 90 }, { typeMinutes: 60 }, 'day', 30, null],
    ['minutes: one more does not', { ...NO_EVENT_TYPE_LIMITS, maxBookedMinutesPerDay: 90 }, { typeMinutes: 60 }, 'day', 31, 'duration_limit'],
    ['weekly minutes', { ...NO_EVENT_TYPE_LIMITS, maxBookedMinutesPerWeek: 90 }, { typeMinutes: 80 }, 'week', 30, 'duration_limit'],
  ] as const)('%s', (_name, type, totals, kind, minutes, reason) => {
    expect(ledger({ eventType: type, schedule: NO_SCHEDULE_LIMITS }, totals, kind).reasonFor(monday, minutes)).toBe(reason);
  });

  it('schedule limits count every booking; a type limit is named first', () => {
    const schedule = { ...NO_SCHEDULE_LIMITS, maxBookingsPerDay: 3 };
    expect(ledger({ eventType: null, schedule }, { bookings: 3 }).reasonFor(monday, 10)).toBe('schedule_limit');
    expect(ledger({ eventType: null, schedule }, { bookings: 2, typeBookings: 2 }).reasonFor(monday, 10)).toBeNull();
    const both: LimitSet = { eventType: { ...NO_EVENT_TYPE_LIMITS, maxBookingsPerDay: 1 }, schedule };
    expect(ledger(both, { bookings: 3, typeBookings: 1 }).reasonFor(monday, 10)).toBe('daily_limit');
  });

  it('counts what it keeps: a series fills a period occurrence by occurrence', () => {
    const l = ledger({ eventType: { ...NO_EVENT_TYPE_LIMITS, maxBookingsPerDay: 2 }, schedule: NO_SCHEDULE_LIMITS }, { typeBookings: 1 });
    expect(l.reasonFor(monday, 30)).toBeNull();
    l.add(monday, 30);
    expect(l.reasonFor(monday, 30)).toBe('daily_limit');
    // A period it was not given counts as empty: another day is free.
    expect(l.reasonFor(monday + 1, 30)).toBeNull();
  });
});
