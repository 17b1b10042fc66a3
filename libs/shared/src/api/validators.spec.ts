import { isCalendarDate, isDateTimeWithZone, TIME_OF_DAY_PATTERN } from '../domain/time';
import { CALENDAR_DATE_PATTERN, DATE_TIME_WITH_ZONE_PATTERN } from './validators';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('the document patterns of dates and times', () => {
  const date = new RegExp(CALENDAR_DATE_PATTERN, 'u');

  it('accept exactly the dates isCalendarDate accepts: every day of common, leap and century years and their neighbours', () => {
    const disagreements: string[] = [];
    for (const year of [1, 4, 100, 400, 883, 1900, 2000, 2024, 2026, 2100, 2400, 9996, 9999]) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
          if (date.test(text) !== isCalendarDate(text)) disagreements.push(text);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('refuse what is no date, 0883-34-37 and year 0 included, and digits of other scripts', () => {
    for (const text of ['0883-34-37', '0000-01-01', '2026-02-29', '2100-02-29', '2026-1-01', '2026-01-01T00:00Z', '٢٠٢٦-٠١-٠١', '2026-01-0１']) {
      expect([text, date.test(text), isCalendarDate(text)]).toEqual([text, false, false]);
    }
    expect(date.test('2000-02-29') && date.test('2024-02-29')).toBe(true);
  });

  it('take no Unicode digit anywhere, in no pattern', () => {
    for (const pattern of [CALENDAR_DATE_PATTERN, DATE_TIME_WITH_ZONE_PATTERN, TIME_OF_DAY_PATTERN]) expect(pattern).not.toContain('\\d');
    expect(new RegExp(DATE_TIME_WITH_ZONE_PATTERN, 'u').test('2026-01-01T1٠:00Z')).toBe(false);
    expect(new RegExp(DATE_TIME_WITH_ZONE_PATTERN, 'u').test('2026-02-29T10:00Z')).toBe(isDateTimeWithZone('2026-02-29T10:00Z'));
  });
});
