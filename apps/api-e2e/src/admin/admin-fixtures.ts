import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** A feed with two importable meetings, one cancelled and one all-day occurrence, in March 2027. */
export const ADMIN_FEED = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Almanac admin test//EN',
  'BEGIN:VEVENT',
  'UID:checkup@admin.test',
  'DTSTAMP:20270101T000000Z',
  'DTSTART:20270310T090000Z',
  'DTEND:20270310T100000Z',
  'SUMMARY:Checkup',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:review@admin.test',
  'DTSTAMP:20270101T000000Z',
  'DTSTART:20270311T140000Z',
  'DTEND:20270311T150000Z',
  'SUMMARY:Review',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:gone@admin.test',
  'DTSTAMP:20270101T000000Z',
  'DTSTART:20270312T090000Z',
  'DTEND:20270312T100000Z',
  'STATUS:CANCELLED',
  'SUMMARY:Gone',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:holiday@admin.test',
  'DTSTAMP:20270101T000000Z',
  'DTSTART;VALUE=DATE:20270315',
  'DTEND;VALUE=DATE:20270316',
  'SUMMARY:Holiday',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

/** A loopback HTTP server: `/feed.ics` serves ADMIN_FEED, `/down.ics` answers 503. */
export async function startFeedServer(): Promise<{ base: string; stop: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url === '/feed.ics') return void res.writeHead(200, { 'Content-Type': 'text/calendar; charset=utf-8' }).end(ADMIN_FEED);
    res.writeHead(503).end('maintenance');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
