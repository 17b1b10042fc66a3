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
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** Folds one content line at 75 octets (RFC 5545 §3.1): continuation lines start with one space. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  let limit = MAX_OCTETS;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > limit) {
      out.push(current);
      current = ' ';
      octets = 1;
      limit = MAX_OCTETS;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join(CRLF);
}

/** `20261121T100000Z` */
export function utcDateTime(instant: Date): string {
  return instant
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
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

function vevent(b: FeedBooking, now: Date): string[] {
  const lines = [
    'BEGIN:VEVENT',
    `UID:${b.id}@almanac`,
    `DTSTAMP:${utcDateTime(now)}`,
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
  return lines;
}

/** A VCALENDAR of the given bookings, as the bytes of a `text/calendar` body. */
export function renderCalendar(bookings: readonly FeedBooking[], options: CalendarOptions): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Almanac//Almanac Calendar//EN',
    'CALSCALE:GREGORIAN',
  ];
  if (options.method) lines.push(`METHOD:${options.method}`);
  lines.push(`NAME:${escapeText(options.name)}`, `X-WR-CALNAME:${escapeText(options.name)}`);
  if (options.refresh) lines.push('REFRESH-INTERVAL;VALUE=DURATION:PT15M', 'X-PUBLISHED-TTL:PT15M');
  for (const booking of bookings) lines.push(...vevent(booking, options.now));
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join(CRLF) + CRLF;
}
