import { isCalendarDate, isDateTimeWithZone, isIanaTimeZone, isSupportedInstant, isTimeOfDay, zonedTimeToUtc } from './time';
import { firstFreeSlug, slugify } from './slug';

describe('time', () => {
  it.each([
    ['2026-02-28', true],
    ['2026-02-29', false],
    ['2024-02-29', true],
    ['2026-02-30', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
  ])('isCalendarDate(%s) = %s', (value, expected) => expect(isCalendarDate(value)).toBe(expected));

  it.each([
    ['00:00', true],
    ['23:59', true],
    ['24:00', false],
    ['25:00', false],
    ['9:00', false],
  ])('isTimeOfDay(%s) = %s', (value, expected) => expect(isTimeOfDay(value)).toBe(expected));

  it.each([
    ['2026-11-21T10:00:00Z', true],
    ['2026-11-21T10:00:00.123+01:00', true],
    ['2026-11-21T10:00Z', true],
    ['2026-11-21T10:00:00', false],
    ['2026-02-30T10:00:00Z', false],
    ['2026-11-21T25:00:00Z', false],
    ['not a date', false],
  ])('isDateTimeWithZone(%s) = %s', (value, expected) => expect(isDateTimeWithZone(value)).toBe(expected));

  it('knows IANA zones and refuses others', () => {
    expect(isIanaTimeZone('Europe/Paris')).toBe(true);
    expect(isIanaTimeZone('UTC')).toBe(true);
    expect(isIanaTimeZone('Mars/Olympus')).toBe(false);
    expect(isIanaTimeZone('')).toBe(false);
  });

  it('converts wall-clock times to UTC across DST changes', () => {
    expect(zonedTimeToUtc('2026-03-28', '10:00', 'Europe/Paris').toISOString()).toBe('2026-03-28T09:00:00.000Z');
    expect(zonedTimeToUtc('2026-03-30', '10:00', 'Europe/Paris').toISOString()).toBe('2026-03-30T08:00:00.000Z');
    expect(zonedTimeToUtc('2026-11-21', '09:30', 'Asia/Tokyo').toISOString()).toBe('2026-11-21T00:30:00.000Z');
    expect(zonedTimeToUtc('2026-11-01', '01:30', 'America/New_York').toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });
});

describe('slug', () => {
  it('strips accents and joins words with hyphens', () => {
    expect(slugify('  Café Crème: 30 min!  ')).toBe('cafe-creme-30-min');
    expect(slugify('***')).toBe('item');
  });
  it('finds the first free suffix', () => {
    expect(firstFreeSlug('intro', [])).toBe('intro');
    expect(firstFreeSlug('intro', ['intro', 'intro-2'])).toBe('intro-3');
  });
});

describe('zonedTimeToUtc for early years', () => {
  it('keeps years below 100', () => {
    expect(zonedTimeToUtc('0050-06-01', '12:00', 'UTC').toISOString()).toBe('0050-06-01T12:00:00.000Z');
  });
});

describe('isSupportedInstant', () => {
  it.each([
    ['0001-01-01T00:00:00Z', true],
    ['0001-01-01T00:30:00+01:00', false],
    ['9999-12-31T23:59:59.999Z', true],
    ['9999-12-31T23:00:00-05:00', false],
  ])('%s → %s', (value, expected) => expect(isSupportedInstant(new Date(value))).toBe(expected));
});
