import ICAL from 'ical.js';
import { escapeText, foldLine, renderCalendar, utcDateTime } from './icalendar';

describe('iCalendar output', () => {
  it.each([
    ['a,b;c\\d', 'a\\,b\\;c\\\\d'],
    ['line1\nline2\r\nline3\rline4', 'line1\\nline2\\nline3\\nline4'],
    ['plain', 'plain'],
  ])('escapes TEXT %j', (raw, escaped) => expect(escapeText(raw)).toBe(escaped));

  it('folds at 75 octets without splitting a UTF-8 character', () => {
    const line = `SUMMARY:${'é'.repeat(100)}😀${'x'.repeat(200)}`;
    const folded = foldLine(line);
    const parts = folded.split('\r\n');
    for (const part of parts) expect(Buffer.byteLength(part, 'utf8')).toBeLessThanOrEqual(75);
    for (const part of parts.slice(1)) expect(part.startsWith(' ')).toBe(true);
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join('')).toBe(line);
    // No part ends inside a multi-byte character: each part is valid UTF-8 on its own.
    for (const part of parts)
      expect(
        Buffer.from(Buffer.from(part, 'utf8').toString('utf8'), 'utf8').equals(Buffer.from(part, 'utf8')),
      ).toBe(true);
  });

  it('writes UTC date-times', () =>
    expect(utcDateTime(new Date('2026-11-21T10:05:09.123Z'))).toBe('20261121T100509Z'));

  it('renders a calendar ical.js reads back, with hostile titles intact', () => {
    const title = 'Lunch, then; a\\b\nnew line 😀 ' + 'long '.repeat(60);
    const text = renderCalendar(
      [
        {
          id: '0192f0e0-0000-7000-8000-000000000001',
          title,
          location: 'Room 1, floor 2',
          status: 'PENDING',
          startTime: new Date('2026-12-01T10:00:00Z'),
          endTime: new Date('2026-12-01T11:00:00Z'),
          attendeeName: 'Ada; Lovelace',
          createdAt: new Date('2026-11-01T00:00:00Z'),
          updatedAt: new Date('2026-11-02T00:00:00Z'),
          version: 3,
        },
      ],
      { name: 'Room, A', refresh: true, now: new Date('2026-11-21T10:00:00Z') },
    );
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
    // ical.js does not know RFC 7986's NAME, so it hands back the escaped text as written.
    expect(calendar.getFirstPropertyValue('name')).toBe('Room\\, A');
    const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
    expect(event.summary).toBe(title);
    expect(event.location).toBe('Room 1, floor 2');
    expect(event.uid).toBe('0192f0e0-0000-7000-8000-000000000001@almanac');
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(event.component.getFirstPropertyValue('status')).toBe('TENTATIVE');
    expect(event.component.getFirstPropertyValue('sequence')).toBe(3);
    expect(event.description).toBe('Attendee: Ada; Lovelace');
  });
});
