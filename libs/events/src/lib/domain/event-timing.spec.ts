import { eventWindow, nextCalendarDate, timingErrors } from './event-timing';

const at = (startDate: string, startTime: string | null, endTime: string | null, timezone: string) => {
  const w = eventWindow({ startDate, startTime, endTime, timezone });
  return [w.startsAt.toISOString(), w.endsAt.toISOString()];
};

describe('event timing', () => {
  it.each([
    ['2026-02-28', '2026-03-01'],
    ['2024-02-28', '2024-02-29'],
    ['2026-12-31', '2027-01-01'],
    ['1000-01-01', '1000-01-02'],
  ])('nextCalendarDate(%s) = %s', (date, next) => expect(nextCalendarDate(date)).toBe(next));

  it('takes a whole day in the zone when no time is given', () => {
    expect(at('2026-11-21', null, null, 'UTC')).toEqual(['2026-11-21T00:00:00.000Z', '2026-11-22T00:00:00.000Z']);
    expect(at('2026-11-21', null, null, 'Asia/Tokyo')).toEqual(['2026-11-20T15:00:00.000Z', '2026-11-21T15:00:00.000Z']);
    expect(at('2026-11-22', null, null, 'Pacific/Kiritimati')).toEqual(['2026-11-21T10:00:00.000Z', '2026-11-22T10:00:00.000Z']);
  });

  it('ends at the end of the day when only start_time is given', () => {
    expect(at('2026-11-21', '18:30', null, 'Europe/Paris')).toEqual(['2026-11-21T17:30:00.000Z', '2026-11-21T23:00:00.000Z']);
  });

  it('is DST-correct: 23-hour and 25-hour days, and times on either side of a change', () => {
    // Europe/Paris springs forward on 2026-03-29 at 02:00.
    expect(at('2026-03-29', null, null, 'Europe/Paris')).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    expect(at('2026-03-29', '10:00', '11:00', 'Europe/Paris')).toEqual(['2026-03-29T08:00:00.000Z', '2026-03-29T09:00:00.000Z']);
    expect(at('2026-03-28', '10:00', '11:00', 'Europe/Paris')).toEqual(['2026-03-28T09:00:00.000Z', '2026-03-28T10:00:00.000Z']);
    // America/New_York falls back on 2026-11-01 at 02:00.
    expect(at('2026-11-01', null, null, 'America/New_York')).toEqual(['2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z']);
    expect(at('2026-11-01', '00:30', '03:30', 'America/New_York')).toEqual(['2026-11-01T04:30:00.000Z', '2026-11-01T08:30:00.000Z']);
  });

  it.each([
    [{ startDate: '2026-02-30', startTime: null, endTime: null, timezone: 'UTC' }, 'start_date'],
    [{ startDate: '0999-12-31', startTime: null, endTime: null, timezone: 'UTC' }, 'start_date'],
    [{ startDate: '2026-02-28', startTime: '25:00', endTime: null, timezone: 'UTC' }, 'start_time'],
    [{ startDate: '2026-02-28', startTime: null, endTime: '10:00', timezone: 'UTC' }, 'end_time'],
    [{ startDate: '2026-02-28', startTime: '10:00', endTime: '10:00', timezone: 'UTC' }, 'end_time'],
    [{ startDate: '2026-02-28', startTime: '10:00', endTime: '09:59', timezone: 'UTC' }, 'end_time'],
    [{ startDate: '2026-02-28', startTime: null, endTime: null, timezone: 'Mars/Olympus' }, 'timezone'],
  ])('refuses %p naming %s', (timing, field) => {
    expect(timingErrors(timing).map((e) => e.field)).toEqual([field]);
  });

  it('accepts a valid timing', () => {
    expect(timingErrors({ startDate: '2026-02-28', startTime: '10:00', endTime: '10:01', timezone: 'Europe/Paris' })).toEqual([]);
    expect(timingErrors({ startDate: '2026-02-28', startTime: '23:59', endTime: null, timezone: 'UTC' })).toEqual([]);
  });
});

describe('the last representable day', () => {
  it('needs an end_time on 9999-12-31, whose whole day would end in year 10000', () => {
    expect(timingErrors({ startDate: '9999-12-31', startTime: null, endTime: null, timezone: 'UTC' })).toEqual([
      { field: 'end_time', message: 'is required on the last day of 9999' },
    ]);
    expect(timingErrors({ startDate: '9999-12-31', startTime: '10:00', endTime: null, timezone: 'UTC' })).toHaveLength(1);
    expect(timingErrors({ startDate: '9999-12-31', startTime: '10:00', endTime: '11:00', timezone: 'UTC' })).toEqual([]);
    expect(timingErrors({ startDate: '9999-12-30', startTime: null, endTime: null, timezone: 'UTC' })).toEqual([]);
  });
});
