import { IMPORTED_TEXT_LIMITS } from '@almanac/scheduling';
import { readFixture, FIXTURE_RANGE } from '../../testing/fixtures';
import { feedSkipReason, MAX_FEED_UID_LENGTH } from '../domain/feed-occurrence';
import { FeedParseError, MAX_RESULT_CHARS, parseIcsFeed as parseWithLimits } from './ics-parser';

/** The parse as the import runs it: text cut to what a booking keeps. */
const parseIcsFeed = (source: string, start: Date, end: Date, cpuMs?: () => number) => parseWithLimits(source, start, end, { limits: IMPORTED_TEXT_LIMITS, cpuMs });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

describe('parseIcsFeed', () => {
  it('expands a Google feed: weekly RRULE with EXDATE and a moved occurrence, across the US DST change', () => {
    const occurrences = parseIcsFeed(readFixture('google'), FIXTURE_RANGE.start, FIXTURE_RANGE.end);
    const weekly = occurrences.filter((o) => o.uid === 'weekly-standup@google.com');
    expect(weekly.map((o) => [iso(o.start), iso(o.end), iso(o.recurrenceId), o.summary])).toEqual([
      ['2027-03-02T15:00:00.000Z', '2027-03-02T16:00:00.000Z', '2027-03-02T15:00:00.000Z', 'Weekly standup'],
      ['2027-03-09T15:00:00.000Z', '2027-03-09T16:00:00.000Z', '2027-03-09T15:00:00.000Z', 'Weekly standup'],
      ['2027-03-17T18:00:00.000Z', '2027-03-17T19:00:00.000Z', '2027-03-16T14:00:00.000Z', 'Weekly standup (moved)'],
      ['2027-03-30T14:00:00.000Z', '2027-03-30T15:00:00.000Z', '2027-03-30T14:00:00.000Z', 'Weekly standup'],
      ['2027-04-06T14:00:00.000Z', '2027-04-06T15:00:00.000Z', '2027-04-06T14:00:00.000Z', 'Weekly standup'],
    ]);
    expect(weekly[2]!.location).toBe('Room 7');
    expect(weekly[0]!.contact).toEqual({ name: 'Team Lead', email: 'lead@example.com' });

    const dentist = occurrences.find((o) => o.uid === 'dentist-0305@google.com')!;
    expect([iso(dentist.start), iso(dentist.end), dentist.location]).toEqual([
      '2027-03-05T14:00:00.000Z',
      '2027-03-05T14:45:00.000Z',
      '12 Main St, Springfield',
    ]);

    const reasons = Object.fromEntries(occurrences.map((o) => [o.uid, feedSkipReason(o)]));
    expect(reasons).toMatchObject({
      'offsite-day@google.com': 'all_day',
      'cancelled-call@google.com': 'cancelled',
      'focus-time@google.com': 'free',
      'broken@google.com': 'invalid',
      'overlapping@google.com': null,
      'dentist-0305@google.com': null,
    });
    expect(reasons).not.toHaveProperty(['out-of-range@google.com']);
  });

  it('reads Outlook feeds: Windows zone names with VTIMEZONE, DURATION, the EU DST change', () => {
    const occurrences = parseIcsFeed(readFixture('outlook'), FIXTURE_RANGE.start, FIXTURE_RANGE.end);
    expect(occurrences.map((o) => [iso(o.start), iso(o.end)])).toEqual([
      ['2027-03-25T08:00:00.000Z', '2027-03-25T09:00:00.000Z'],
      ['2027-03-26T08:00:00.000Z', '2027-03-26T09:00:00.000Z'],
      ['2027-03-27T08:00:00.000Z', '2027-03-27T09:00:00.000Z'],
      ['2027-03-28T07:00:00.000Z', '2027-03-28T08:00:00.000Z'],
      ['2027-03-29T07:00:00.000Z', '2027-03-29T08:00:00.000Z'],
      ['2027-04-02T10:00:00.000Z', '2027-04-02T11:30:00.000Z'],
    ]);
    expect(occurrences[0]!.contact).toEqual({ name: 'Alex Berg', email: 'alex@example.org' });
  });

  it('reads Apple feeds: RRULE with UNTIL plus an RDATE', () => {
    const occurrences = parseIcsFeed(readFixture('apple'), FIXTURE_RANGE.start, FIXTURE_RANGE.end);
    expect(occurrences.map((o) => iso(o.start)).sort()).toEqual([
      '2027-03-26T17:30:00.000Z',
      '2027-03-31T16:30:00.000Z',
      '2027-04-02T16:30:00.000Z',
      '2027-04-09T16:30:00.000Z',
    ]);
  });

  it('refuses text that is not iCalendar', () => {
    expect(() => parseIcsFeed('<html>nope</html>', FIXTURE_RANGE.start, FIXTURE_RANGE.end)).toThrow(FeedParseError);
    expect(() => parseIcsFeed('BEGIN:VCARD\r\nEND:VCARD\r\n', FIXTURE_RANGE.start, FIXTURE_RANGE.end)).toThrow(FeedParseError);
  });

  it('treats a TZID without VTIMEZONE as an IANA zone and floating times as UTC', () => {
    const feed = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'UID:a',
      'DTSTART;TZID=Asia/Tokyo:20270305T090000',
      'DTEND;TZID=Asia/Tokyo:20270305T100000',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:b',
      'DTSTART:20270305T090000',
      'DTEND:20270305T100000',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const occurrences = parseIcsFeed(feed, FIXTURE_RANGE.start, FIXTURE_RANGE.end);
    expect(occurrences.map((o) => iso(o.start))).toEqual(['2027-03-05T00:00:00.000Z', '2027-03-05T09:00:00.000Z']);
  });
});

describe('parseIcsFeed on hostile input', () => {
  const range = { start: new Date('2026-01-01T00:00:00Z'), end: new Date('2026-03-01T00:00:00Z') };
  it('never quotes feed bytes in its error', () => {
    expect(() => parseIcsFeed('BEGIN:VCALENDAR\r\nSECRET-TOKEN-abc123 no colon here\r\n', range.start, range.end)).toThrow(
      'not an iCalendar feed: it could not be parsed',
    );
  });

  it('spends one budget on the whole feed: many small series add up', () => {
    const series = (i: number) =>
      `BEGIN:VEVENT\r\nUID:s${i}\r\nDTSTART:20250101T000000Z\r\nDTEND:20250101T000100Z\r\nRRULE:FREQ=HOURLY\r\nEND:VEVENT\r\n`;
    // Each series alone takes ~10,000 steps to pass the range; 40 of them exceed the feed's 200,000.
    const feed = `BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${Array.from({ length: 40 }, (_, i) => series(i)).join('')}END:VCALENDAR\r\n`;
    expect(() => parseIcsFeed(feed, range.start, range.end, () => 0)).toThrow(/more than 200000 steps/);
  });

  it('refuses a VTIMEZONE whose observance repeats more often than yearly, before expanding it', () => {
    const feed =
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTIMEZONE\r\nTZID:Evil\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0000\r\nTZOFFSETTO:+0100\r\nRRULE:FREQ=MINUTELY\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n';
    expect(() => parseIcsFeed(feed, range.start, range.end)).toThrow('the feed defines a time zone with rules no real zone uses');
  });
});

it('stops a parse that runs past its CPU budget', () => {
  let clock = 0;
  const series = `BEGIN:VEVENT\r\nUID:slow\r\nDTSTART:20250101T000000Z\r\nDTEND:20250101T000100Z\r\nRRULE:FREQ=MINUTELY\r\nEND:VEVENT\r\n`;
  // Every reading of the CPU clock is one second later: the 5 s budget is spent after a few checks.
  const feed = `BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${series}END:VCALENDAR\r\n`;
  expect(() => parseIcsFeed(feed, new Date('2026-01-01T00:00:00Z'), new Date('2026-03-01T00:00:00Z'), () => (clock += 1000))).toThrow(
    'the feed takes too long to read',
  );
});

it('counts CPU time, not the wall clock: a parse that waits for a core (a busy machine) is not refused', () => {
  // The wall clock runs a minute on at every reading, as it seems to a thread that keeps waiting for a core.
  let wall = Date.now();
  const waiting = jest.spyOn(Date, 'now').mockImplementation(() => (wall += 60_000));
  try {
    const series = `BEGIN:VEVENT\r\nUID:busy\r\nDTSTART:20270301T000000Z\r\nDTEND:20270301T001500Z\r\nRRULE:FREQ=MINUTELY;INTERVAL=30;COUNT=12000\r\nEND:VEVENT\r\n`;
    const feed = `BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${series}END:VCALENDAR\r\n`;
    expect(parseIcsFeed(feed, new Date('2027-03-01T00:00:00Z'), new Date('2028-02-28T00:00:00Z'))).toHaveLength(12_000);
  } finally {
    waiting.mockRestore();
  }
});

describe('parseIcsFeed hands back bounded text', () => {
  const range = { start: new Date('2027-01-01T00:00:00Z'), end: new Date('2028-01-01T00:00:00Z') };
  const calendar = (...events: string[][]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//EN', ...events.flat(), 'END:VCALENDAR', ''].join('\r\n');
  const event = (uid: string, ...lines: string[]) => ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTART:20270101T000000Z', 'DTEND:20270101T003000Z', ...lines, 'END:VEVENT'];

  it('cuts a 400 KB SUMMARY repeated hourly over a year to the 300 characters a booking keeps', () => {
    const summary = 'A'.repeat(300) + 'B'.repeat(400_000);
    const occurrences = parseIcsFeed(calendar(event('big', `SUMMARY:${summary}`, 'RRULE:FREQ=HOURLY')), range.start, range.end);
    expect(occurrences).toHaveLength(365 * 24);
    expect(new Set(occurrences.map((o) => o.summary))).toEqual(new Set(['A'.repeat(300)]));
  });

  it('cuts the place and the contact, keeps one character of a too-long e-mail over its limit, and gives the first attendee only', () => {
    const email = `${'e'.repeat(400)}@example.com`;
    const attendees = Array.from({ length: 5_000 }, (_, i) => `ATTENDEE;CN=Guest ${i}:mailto:guest${i}@example.com`);
    const [first] = parseIcsFeed(
      calendar(event('cut', `LOCATION:${'L'.repeat(1_000)}`, `ORGANIZER;CN=${'N'.repeat(1_000)}:mailto:${email}`), event('many', ...attendees)),
      range.start,
      range.end,
    );
    expect(first!.location).toBe('L'.repeat(300));
    expect(first!.contact).toEqual({ name: 'N'.repeat(300), email: email.slice(0, 321) });
    const many = parseIcsFeed(calendar(event('many', ...attendees)), range.start, range.end);
    expect(many[0]!.contact).toEqual({ name: 'Guest 0', email: 'guest0@example.com' });
  });

  it('skips an event whose UID is over 1,000 characters as one invalid occurrence, without expanding it', () => {
    const long = 'u'.repeat(MAX_FEED_UID_LENGTH + 1);
    const longest = 'u'.repeat(MAX_FEED_UID_LENGTH);
    const occurrences = parseIcsFeed(calendar(event(long, 'RRULE:FREQ=HOURLY'), event(longest, 'SUMMARY:Kept')), range.start, range.end);
    expect(occurrences.map((o) => [o.uid.length, feedSkipReason(o)])).toEqual([
      [0, 'invalid'],
      [MAX_FEED_UID_LENGTH, null],
    ]);
  });

  it(`refuses a feed whose occurrences hold more than ${MAX_RESULT_CHARS} characters of text in all`, () => {
    // ~2,200 characters an occurrence, hourly for a year: ~19 million.
    const full = event('x'.repeat(MAX_FEED_UID_LENGTH), 'RRULE:FREQ=HOURLY', `SUMMARY:${'s'.repeat(300)}`, `LOCATION:${'l'.repeat(300)}`, `ORGANIZER;CN=${'n'.repeat(300)}:mailto:${'m'.repeat(330)}`);
    expect(() => parseIcsFeed(calendar(full), range.start, range.end)).toThrow(new FeedParseError(`the feed's events hold more than ${MAX_RESULT_CHARS} characters of text in range`));
  });
});
