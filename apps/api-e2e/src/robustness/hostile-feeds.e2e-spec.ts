import { freePort } from '@almanac/shared';
import { createTestDatabase } from '@almanac/shared/testing';
import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureBuilt, httpRequest, Running, runBuilt, runCli } from '../identity/support/built-app';

const MAIN = 'dist/apps/api/src/main.js';
const ORIGIN = 'http://localhost:3000';

/** A process's resident memory now and at its peak (/proc/<pid>/status: VmRSS, VmHWM), in kB. */
function memoryOf(pid: number): { residentKb: number; peakKb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { residentKb: kb('VmRSS'), peakKb: kb('VmHWM') };
}

const calendar = (body: string) => `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\n${body}END:VCALENDAR\r\n`;
const minutely = (uid: string) =>
  `BEGIN:VEVENT\r\nUID:${uid}\r\nDTSTART:19700101T000000Z\r\nDTEND:19700101T000100Z\r\nRRULE:FREQ=MINUTELY\r\nSUMMARY:x\r\nEND:VEVENT\r\n`;

/** Issue 12 item 2: hostile calendar feeds cost one 502 each, against the real server process. */
describe('hostile calendar feeds against the built server process (e2e)', () => {
  let server: Running;
  let feeds: Server;
  const served = new Map<string, string>();
  let base: string;
  let feedBase: string;
  let drop: () => Promise<void>;
  let cookie: string;
  let orgId: string;
  let key: string;

  beforeAll(async () => {
    await ensureBuilt();
    feeds = createServer((req, res) => {
      const body = served.get(req.url ?? '');
      if (body === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'text/calendar' }).end(body);
    });
    await new Promise<void>((resolve) => feeds.listen(0, '127.0.0.1', resolve));
    feedBase = `http://127.0.0.1:${(feeds.address() as AddressInfo).port}`;

    const database = await createTestDatabase();
    drop = database.drop;
    const env = { DATABASE_URL: database.url };
    orgId = JSON.parse((await runCli(['org:create', '--name', 'Hostile'], env)).stdout).id;
    await runCli(['user:create', '--org', orgId, '--email', 'admin@hostile.example', '--name', 'A', '--password', 'correct horse battery'], env);
    key = JSON.parse((await runCli(['api-key:create', '--org', orgId], env)).stdout).key as string;

    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = runBuilt(MAIN, [], { ...env, PORT: String(port), LOG_LEVEL: 'silent', CALENDAR_ALLOW_PRIVATE_HOSTS: 'true', APP_URL: ORIGIN });
    await server.waitFor(/Almanac listening/);
    const login = await httpRequest(`${base}/api/auth/login`, { method: 'POST', headers: { Origin: ORIGIN }, body: { email: 'admin@hostile.example', password: 'correct horse battery' } });
    expect(login.status).toBe(200);
    cookie = String((login.headers['set-cookie'] as string[])[0]).split(';')[0]!;
    const schedule = await httpRequest(`${base}/api/v1/schedules`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: { name: 'Imports' } });
    const put = await httpRequest(`${base}/api/organizations/${orgId}/calendar-integration`, {
      method: 'PUT',
      headers: { Cookie: cookie, Origin: ORIGIN },
      body: { provider: 'ics', url: `${feedBase}/feed.ics`, schedule_id: schedule.body.data.id },
    });
    expect(put.status).toBe(200);
  }, 300_000);

  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    feeds.closeAllConnections();
    await new Promise((resolve) => feeds.close(resolve));
    await drop();
  });

  const sync = () =>
    httpRequest(`${base}/api/bookings/sync-external`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: ORIGIN },
      body: { organizationId: orgId, startDate: '2026-01-01T00:00:00Z', endDate: '2026-03-01T00:00:00Z' },
    });

  it.each([
    ['three minutely series since 1970', calendar(minutely('a') + minutely('b') + minutely('c')), true],
    ['25,000 minutely series', calendar(Array.from({ length: 25_000 }, (_, i) => minutely(`s${i}`)).join('')), true],
    [
      'a VTIMEZONE whose observance repeats every minute',
      calendar(
        'BEGIN:VTIMEZONE\r\nTZID:Evil/Zone\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0000\r\nTZOFFSETTO:+0100\r\nRRULE:FREQ=MINUTELY\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n' +
          'BEGIN:VEVENT\r\nUID:tz\r\nDTSTART;TZID=Evil/Zone:20260110T100000\r\nDTEND;TZID=Evil/Zone:20260110T110000\r\nSUMMARY:x\r\nEND:VEVENT\r\n',
      ),
      false,
    ],
  ])('answers %s with one 502 and keeps serving meanwhile', async (_name, feed, slow) => {
    served.set('/feed.ics', feed);
    let syncDone = false;
    const pending = sync().then((answer) => ((syncDone = true), answer));
    // While the feed is being read, the server answers other requests.
    const live = await httpRequest(`${base}/health/live`);
    expect(live.status).toBe(200);
    // Seconds of expansion run on a worker thread: the event loop answered before the import ended.
    if (slow) expect(syncDone).toBe(false);
    const answer = await pending;
    expect(answer.status).toBe(502);
    expect(answer.body.code).toBe('upstream_failed');
    expect(answer.body.detail).not.toMatch(/BEGIN|VEVENT|Evil/);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);

  it('imports a 400 KB SUMMARY repeated hourly with titles cut to 300 characters, the process growing by less than 256 MB', async () => {
    served.set(
      '/feed.ics',
      calendar(`BEGIN:VEVENT\r\nUID:huge-summary\r\nDTSTART:20260101T000000Z\r\nDTEND:20260101T003000Z\r\nRRULE:FREQ=HOURLY\r\nSUMMARY:${'S'.repeat(300)}${'x'.repeat(400_000)}\r\nEND:VEVENT\r\n`),
    );
    const before = memoryOf(server.child.pid!);
    const answer = await sync();
    expect([answer.status, answer.body.synced]).toEqual([200, 59 * 24]);
    // The most the process ever held, against what it held before: not the 1,416 copies of 400 KB.
    const grewMb = (memoryOf(server.child.pid!).peakKb - before.residentKb) / 1024;
    expect(grewMb).toBeLessThan(256);
    const page = await httpRequest(`${base}/api/v1/bookings?limit=100`, { headers: { Authorization: `Bearer ${key}` } });
    expect(page.body.meta.total).toBe(59 * 24);
    expect(new Set(page.body.data.map((b: { title: string }) => b.title))).toEqual(new Set(['S'.repeat(300)]));
  }, 120_000);

  it('still imports an honest feed afterwards', async () => {
    served.set(
      '/feed.ics',
      calendar('BEGIN:VEVENT\r\nUID:fine\r\nDTSTART:20260110T100000Z\r\nDTEND:20260110T110000Z\r\nSUMMARY:Fine\r\nEND:VEVENT\r\n'),
    );
    const answer = await sync();
    // With its body: a 502 says which step gave up.
    expect([answer.status, answer.body]).toMatchObject([200, { synced: 1 }]);
  });
});
