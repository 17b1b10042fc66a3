/** ISO 8601 date-time that carries a zone (`Z` or `±hh:mm`); naive date-times are refused. */
const DATE_TIME_WITH_ZONE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))$/i;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** `HH:MM`, 00:00–23:59: the check, and the pattern the OpenAPI document states. */
export const TIME_OF_DAY_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
const TIME_OF_DAY = new RegExp(TIME_OF_DAY_PATTERN);

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = CALENDAR_DATE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export function isTimeOfDay(value: unknown): value is string {
  return typeof value === 'string' && TIME_OF_DAY.test(value);
}

export function isDateTimeWithZone(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE_TIME_WITH_ZONE.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
  if (!isCalendarDate(`${m[1]}-${m[2]}-${m[3]}`)) return false;
  if (hour! > 23 || minute! > 59 || second! > 59) return false;
  if (m[8] !== undefined && (Number(m[8]) > 23 || Number(m[9]) > 59)) return false;
  const parsed = Date.parse(value);
  return Number.isFinite(parsed) && year! >= 1 && month! >= 1 && day! >= 1;
}

/** Instants the API can store and write back: what ISO 8601 can write as YYYY (UTC). */
export const EARLIEST_INSTANT = new Date('0001-01-01T00:00:00.000Z');
export const LATEST_INSTANT = new Date('9999-12-31T23:59:59.999Z');

export function isSupportedInstant(instant: Date): boolean {
  const ms = instant.getTime();
  return Number.isFinite(ms) && ms >= EARLIEST_INSTANT.getTime() && ms <= LATEST_INSTANT.getTime();
}

const knownZones = new Map<string, boolean>();

/** IANA time zone names the runtime knows (`Europe/Paris`, `UTC`). */
export function isIanaTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return false;
  let known = knownZones.get(value);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: value });
      known = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value);
    } catch {
      known = false;
    }
    if (knownZones.size < 1000) knownZones.set(value, known);
  }
  return known;
}

/**
 * The UTC instant of a wall-clock date and time in an IANA zone (DST-correct; a time inside a
 * spring-forward gap resolves forward, as most calendars do).
 */
export function zonedTimeToUtc(date: string, time: string, timeZone: string): Date {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const asUtc = utcMs(y, mo - 1, d, h, mi, 0);
  // Two passes converge for every real zone: offset at the guess, then at the corrected instant.
  let instant = asUtc - offsetMs(asUtc, timeZone);
  instant = asUtc - offsetMs(instant, timeZone);
  return new Date(instant);
}

/** Date.UTC, but years 0-99 stay years 0-99 (Date.UTC maps them to 1900-1999). */
function utcMs(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(Date.UTC(2000, 0, 1, hour, minute, second));
  date.setUTCFullYear(year, month, day);
  return date.getTime();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in ms (positive east of Greenwich). */
export function offsetMs(instant: number, timeZone: string): number {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const wall = utcMs(
    Number(parts['year']),
    Number(parts['month']) - 1,
    Number(parts['day']),
    Number(parts['hour']),
    Number(parts['minute']),
    Number(parts['second']),
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/** A `YYYY-MM-DD` date as the start of that UTC day, or a zoned date-time as its instant. */
export function parseDateOrDateTime(value: string): { instant: Date; dateOnly: boolean } | null {
  if (isCalendarDate(value)) return { instant: new Date(`${value}T00:00:00.000Z`), dateOnly: true };
  if (isDateTimeWithZone(value)) return { instant: new Date(value), dateOnly: false };
  return null;
}
