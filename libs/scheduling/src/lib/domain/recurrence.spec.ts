import { ValidationFailedError } from '@almanac/shared/domain';
import { occurrencesOf, Recurrence } from './recurrence';

const iso = (d: Date) => d.toISOString();

function starts(start: string, end: string, zone: string, recurrence: Recurrence): string[] {
  return occurrencesOf(new Date(start), new Date(end), zone, recurrence).map((o) => iso(o.start));
}

describe('occurrencesOf', () => {
  it('keeps 09:00 Europe/Berlin across the March change (UTC+1 → UTC+2), weekly', () => {
    expect(starts('2027-03-15T08:00:00Z', '2027-03-15T09:00:00Z', 'Europe/Berlin', { frequency: 'weekly', interval: 1, count: 4 })).toEqual([
      '2027-03-15T08:00:00.000Z',
      '2027-03-22T08:00:00.000Z',
      // Summer time from 2027-03-28.
      '2027-03-29T07:00:00.000Z',
      '2027-04-05T07:00:00.000Z',
    ]);
  });

  it('keeps 09:00 America/New_York across the November change (UTC−4 → UTC−5), daily', () => {
    expect(starts('2026-10-30T13:00:00Z', '2026-10-30T13:30:00Z', 'America/New_York', { frequency: 'daily', interval: 1, count: 4 })).toEqual([
      '2026-10-30T13:00:00.000Z',
      '2026-10-31T13:00:00.000Z',
      '2026-11-01T14:00:00.000Z',
      '2026-11-02T14:00:00.000Z',
    ]);
  });

  it('gives every occurrence the first one’s elapsed length, also on the night of a change', () => {
    // 2026-11-01 01:00–03:00 New York is three hours of wall clock but two of elapsed time: the
    // length is elapsed time, so each occurrence lasts 2 h.
    const list = occurrencesOf(new Date('2026-10-31T05:00:00Z'), new Date('2026-10-31T07:00:00Z'), 'America/New_York', {
      frequency: 'daily',
      interval: 1,
      count: 3,
    });
    expect(list.map((o) => o.end.getTime() - o.start.getTime())).toEqual([7_200_000, 7_200_000, 7_200_000]);
    // 01:00 exists twice on 2026-11-01: the earlier instant (EDT).
    expect(iso(list[1]!.start)).toBe('2026-11-01T05:00:00.000Z');
  });

  it('moves a local start that a spring-forward gap skips forward by the gap', () => {
    // 02:30 New York on 2027-03-14 does not exist: 03:30 EDT.
    expect(starts('2027-03-13T07:30:00Z', '2027-03-13T08:00:00Z', 'America/New_York', { frequency: 'daily', interval: 1, count: 3 })).toEqual([
      '2027-03-13T07:30:00.000Z',
      '2027-03-14T07:30:00.000Z',
      '2027-03-15T06:30:00.000Z',
    ]);
  });

  it('steps by the interval, and monthly repeats the day of month in the local calendar', () => {
    expect(starts('2027-01-04T10:00:00Z', '2027-01-04T11:00:00Z', 'UTC', { frequency: 'weekly', interval: 2, count: 3 })).toEqual([
      '2027-01-04T10:00:00.000Z',
      '2027-01-18T10:00:00.000Z',
      '2027-02-01T10:00:00.000Z',
    ]);
    expect(starts('2027-01-28T10:00:00Z', '2027-01-28T11:00:00Z', 'Europe/Paris', { frequency: 'monthly', interval: 3, count: 3 })).toEqual([
      '2027-01-28T10:00:00.000Z',
      // 11:00 Paris: summer time in April.
      '2027-04-28T09:00:00.000Z',
      '2027-07-28T09:00:00.000Z',
    ]);
  });

  it('refuses a monthly series from day 29–31 of the local month, naming start_time', () => {
    // 2027-01-28 23:30 UTC is already the 29th in Tokyo.
    const attempt = () =>
      occurrencesOf(new Date('2027-01-28T23:30:00Z'), new Date('2027-01-29T00:30:00Z'), 'Asia/Tokyo', {
        frequency: 'monthly',
        interval: 1,
        count: 2,
      });
    expect(attempt).toThrow(ValidationFailedError);
    try {
      attempt();
    } catch (error) {
      expect((error as ValidationFailedError).errors).toEqual([{ field: 'start_time', message: expect.stringContaining('day 29') }]);
    }
    // The same instant is the 28th in UTC: accepted there.
    expect(starts('2027-01-28T23:30:00Z', '2027-01-29T00:30:00Z', 'UTC', { frequency: 'monthly', interval: 1, count: 2 })).toHaveLength(2);
  });

  it('refuses a series that would end after the latest accepted instant, naming recurrence.count', () => {
    expect(() =>
      occurrencesOf(new Date('9998-06-01T10:00:00Z'), new Date('9998-06-01T11:00:00Z'), 'UTC', { frequency: 'monthly', interval: 12, count: 52 }),
    ).toThrow(ValidationFailedError);
  });

  it('makes exactly count occurrences, indexed from 0', () => {
    const list = occurrencesOf(new Date('2027-01-04T10:00:00Z'), new Date('2027-01-04T11:00:00Z'), 'UTC', { frequency: 'daily', interval: 12, count: 52 });
    expect(list.map((o) => o.index)).toEqual(Array.from({ length: 52 }, (_, i) => i));
  });
});
