import type { Booking } from './booking';
import type { BookingStatus } from './booking-status';

/**
 * RFC 5545 output, written by hand because it is small and must be exact: CRLF line ends, content
 * lines folded at 75 octets without splitting a UTF-8 character, TEXT values escaped (`\\` `;` `,`
 * and newlines), date-times in UTC. (ical.js can build components, but its folding counts
 * characters, not octets; ical-generator is another dependency for ~80 lines.)
 */

const CRLF = '\r\n';
const MAX_OCTETS = 75;

/** TEXT escaping (RFC 5545 §3.3.11): backslash, semicolon, comma, and every line break as `\n`. */
const NEEDS_ESCAPE = /[\\;,\r\n]/;

export function escapeText(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** Folds one content line at 75 octets (RFC 5545 §3.1): continuation lines start with one space. */
export function foldLine(line: string): string {
  // Most lines are short: at most 75 UTF-16 units of at most 3 octets each never need a look.
  if (line.length <= 25 || (line.length <= MAX_OCTETS && Buffer.byteLength(line, 'utf8') <= MAX_OCTETS))
    return line;
  let out = '';
  let start = 0;
  let octets = 0;
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    // A surrogate pair is one 4-octet character: never split it.
    const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < line.length;
    const size = pair ? 4 : code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    if (octets + size > MAX_OCTETS) {
      out += line.slice(start, i) + CRLF + ' ';
      start = i;
      octets = 1;
    }
    octets += size;
    if (pair) i++;
  }
  return out + line.slice(start);
}

/** `20261121T100000Z` */
export function utcDateTime(instant: Date): string {
  const ms = instant.getTime();
  const year = instant.getUTCFullYear();
  if (year < 1000 || year > 9999 || Number.isNaN(ms))
    return instant
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}Z$/, 'Z');
  const two = (n: number) => (n < 10 ? '0' + n : '' + n);
  return (
    '' +
    year +
    two(instant.getUTCMonth() + 1) +
    two(instant.getUTCDate()) +
    'T' +
    two(instant.getUTCHours()) +
    two(instant.getUTCMinutes()) +
    two(instant.getUTCSeconds()) +
    'Z'
  );
}

const STATUS: Record<BookingStatus, string> = {
  PENDING: 'TENTATIVE',
  CONFIRMED: 'CONFIRMED',
  COMPLETED: 'CONFIRMED',
  NO_SHOW: 'CONFIRMED',
  CANCELLED: 'CANCELLED',
};

/** What a feed shows of a booking: never the attendee's e-mail or phone. */
export interface FeedBooking extends Pick<
  Booking,
  | 'id'
  | 'title'
  | 'location'
  | 'status'
  | 'startTime'
  | 'endTime'
  | 'attendeeName'
  | 'createdAt'
  | 'updatedAt'
> {
  /** Grows with every change of the booking (SEQUENCE). */
  version: number;
}

export interface CalendarOptions {
  name: string;
  /** METHOD:PUBLISH for a single exported event. */
  method?: 'PUBLISH';
  /** REFRESH-INTERVAL and X-PUBLISHED-TTL for subscriptions. */
  refresh?: boolean;
  now: Date;
}

/**
 * One VEVENT as folded content lines, each ending in CRLF. `dtstamp`: in a feed (no METHOD) the time
 * the event was last revised, so the text depends only on the booking's own state and can be reused;
 * with METHOD:PUBLISH the time the object was made.
 */
export function veventText(b: FeedBooking, dtstamp: Date): string {
  const lines = [
    'BEGIN:VEVENT',
    `UID:${b.id}@almanac`,
    `DTSTAMP:${utcDateTime(dtstamp)}`,
    `DTSTART:${utcDateTime(b.startTime)}`,
    `DTEND:${utcDateTime(b.endTime)}`,
    `SUMMARY:${escapeText(b.title)}`,
  ];
  if (b.location) lines.push(`LOCATION:${escapeText(b.location)}`);
  lines.push(
    `DESCRIPTION:${escapeText(`Attendee: ${b.attendeeName}`)}`,
    `STATUS:${STATUS[b.status]}`,
    `SEQUENCE:${b.version}`,
    `CREATED:${utcDateTime(b.createdAt)}`,
    `LAST-MODIFIED:${utcDateTime(b.updatedAt)}`,
    'END:VEVENT',
  );
  return lines.map(foldLine).join(CRLF) + CRLF;
}

/** A published event on the schedule, as a feed shows it (events hold their host's schedule too). */
export interface FeedEvent {
  readonly id: string;
  readonly title: string;
  readonly startsAt: Date;
  readonly endsAt: Date;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** One VEVENT of a published event: its own UID space (`@almanac-event`), confirmed, revised at its last change. */
export function eventVeventText(e: FeedEvent): string {
  return (
    [
      'BEGIN:VEVENT',
      `UID:${e.id}@almanac-event`,
      `DTSTAMP:${utcDateTime(e.updatedAt)}`,
      `DTSTART:${utcDateTime(e.startsAt)}`,
      `DTEND:${utcDateTime(e.endsAt)}`,
      `SUMMARY:${escapeText(e.title)}`,
      'STATUS:CONFIRMED',
      `CREATED:${utcDateTime(e.createdAt)}`,
      `LAST-MODIFIED:${utcDateTime(e.updatedAt)}`,
      'END:VEVENT',
    ]
      .map(foldLine)
      .join(CRLF) + CRLF
  );
}

/** A VCALENDAR around VEVENTs already written by `veventText`, as the bytes of a `text/calendar` body. */
export function calendarText(vevents: readonly string[], options: CalendarOptions): string {
  const head = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Almanac//Almanac Calendar//EN',
    'CALSCALE:GREGORIAN',
  ];
  if (options.method) head.push(`METHOD:${options.method}`);
  head.push(`NAME:${escapeText(options.name)}`, `X-WR-CALNAME:${escapeText(options.name)}`);
  if (options.refresh) head.push('REFRESH-INTERVAL;VALUE=DURATION:PT15M', 'X-PUBLISHED-TTL:PT15M');
  return head.map(foldLine).join(CRLF) + CRLF + vevents.join('') + 'END:VCALENDAR' + CRLF;
}

/** A VCALENDAR of the given bookings, and of the published events on their schedule (a feed's). */
export function renderCalendar(bookings: readonly FeedBooking[], options: CalendarOptions, events: readonly FeedEvent[] = []): string {
  return calendarText(
    [...bookings.map((b) => veventText(b, options.method ? options.now : b.updatedAt)), ...events.map(eventVeventText)],
    options,
  );
}
